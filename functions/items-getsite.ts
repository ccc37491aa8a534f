import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { itemsGetsite } from '../lib/routes/sites';
import { readSite } from '../lib/sites/sites';

export const handler = endpoint(itemsGetsite, async ({ principal, pathId }) =>
  responseResult(await readSite(principal, pathId)),
);
