import { endpoint } from '../lib/http/api';
import { closestSiteIds } from '../lib/sites/closest-site-lookup';
import { closestSiteRequest } from '../lib/sites/schemas';

export const handler = endpoint(
  { schema: closestSiteRequest, validateBeforeMime: true },
  async ({ input, principal, pathId }) => ({
    body: {
      StatusCode: 200,
      SiteId: pathId,
      Data: await closestSiteIds(principal, pathId, input.FindSiteNames),
    },
  }),
);
