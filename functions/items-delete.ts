import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { deleteRecord } from '../lib/items/records';
import { itemsDelete } from '../lib/routes/items';

export const handler = endpoint(itemsDelete, async ({ principal, pathId }) =>
  apiResult(await deleteRecord(principal, pathId)),
);
