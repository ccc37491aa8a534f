import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { itemsDeletesite } from '../lib/routes/sites';
import { deleteSite } from '../lib/sites/sites';

export const handler = endpoint(itemsDeletesite, async ({ principal, pathId }) =>
  apiResult(await deleteSite(principal, pathId)),
);
