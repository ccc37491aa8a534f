import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { createRecord } from '../lib/items/records';
import { itemsCreate } from '../lib/routes/items';

export const handler = endpoint(itemsCreate, async ({ input, principal, pathId }) =>
  apiResult(await createRecord(principal, pathId, input)),
);
