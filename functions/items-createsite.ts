import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { itemsCreatesite } from '../lib/routes/sites';
import { createSite } from '../lib/sites/sites';

export const handler = endpoint(itemsCreatesite, async ({ input, principal, pathId }) =>
  apiResult(await createSite(principal, pathId, input)),
);
