import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { updateRecord } from '../lib/items/records';
import { itemsUpdate } from '../lib/routes/items';

export const handler = endpoint(itemsUpdate, async ({ input, principal, pathId }) =>
  apiResult(await updateRecord(principal, pathId, input)),
);
