import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { itemsUpdatesite } from '../lib/routes/sites';
import { updateSite } from '../lib/sites/sites';

export const handler = endpoint(itemsUpdatesite, async ({ input, principal, pathId }) =>
  apiResult(await updateSite(principal, pathId, input)),
);
