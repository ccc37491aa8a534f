import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { itemsUpdatesitesettings } from '../lib/routes/sites';
import { updateSiteSettings } from '../lib/sites/site-settings-update';

export const handler = endpoint(itemsUpdatesitesettings, async ({ input, principal, pathId }) =>
  apiResult(await updateSiteSettings(principal, pathId, input)),
);
