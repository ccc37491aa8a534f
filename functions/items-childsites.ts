import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { itemsChildsites } from '../lib/routes/sites';
import { childSites } from '../lib/sites/child-sites';

export const handler = endpoint(itemsChildsites, async ({ principal, pathId }) => {
  const reading = await childSites(principal, pathId);
  return responseResult(reading.response, reading.limits);
});
