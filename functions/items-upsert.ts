import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { upsert } from '../lib/items/upsert';
import { itemsUpsert } from '../lib/routes/items';

export const handler = endpoint(itemsUpsert, async ({ input, principal, pathId }) =>
  apiResult(await upsert(principal, pathId, input)),
);
