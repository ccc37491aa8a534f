import { endpoint } from '../lib/http/api';
import { itemsGetclosestsiteid } from '../lib/routes/sites';
import { closestSiteIds } from '../lib/sites/closest-site-lookup';

/** The reference's own shape: no Id, no Message (reference §2). */
export const handler = endpoint(itemsGetclosestsiteid, async ({ input, principal, pathId }) => ({
  body: {
    StatusCode: 200,
    SiteId: pathId,
    Data: await closestSiteIds(principal, pathId, input.FindSiteNames),
  },
}));
