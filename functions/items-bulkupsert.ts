import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { bulkUpsert } from '../lib/items/upsert';
import { itemsBulkupsert } from '../lib/routes/items';

export const handler = endpoint(itemsBulkupsert, async ({ input, principal, pathId }) =>
  apiResult(await bulkUpsert(principal, pathId, input)),
);
