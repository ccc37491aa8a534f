import { endpoint } from '../lib/http/api';
import { siteCreateRequest } from '../lib/items/schemas';
import { createSite } from '../lib/items/sites';

export const handler = endpoint({ schema: siteCreateRequest }, ({ input, principal, pathId }) =>
  createSite(principal, pathId, input),
);
