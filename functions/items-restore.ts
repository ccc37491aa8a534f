import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { restoreItem } from '../lib/items/recycle-bin';
import { itemsRestore } from '../lib/routes/recycle-bin';

export const handler = endpoint(itemsRestore, async ({ principal, pathId }) =>
  apiResult(await restoreItem(principal, pathId)),
);
