import { endpoint } from '../lib/http/api';
import { siteUpdateRequest } from '../lib/items/schemas';
import { updateSite } from '../lib/items/sites';

export const handler = endpoint({ schema: siteUpdateRequest }, ({ input, principal, pathId }) =>
  updateSite(principal, pathId, input),
);
