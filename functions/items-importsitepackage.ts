import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { importSitePackage } from '../lib/packages/import';
import { itemsImportsitepackage } from '../lib/routes/sites';

export const handler = endpoint(itemsImportsitepackage, async ({ input, principal, pathId }) => {
  const { data, ...outcome } = await importSitePackage(principal, pathId, input.Package);
  return apiResult(outcome, { Data: data });
});
