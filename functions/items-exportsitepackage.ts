import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { exportSitePackage } from '../lib/packages/export';
import { itemsExportsitepackage } from '../lib/routes/sites';

export const handler = endpoint(itemsExportsitepackage, async ({ input, principal, pathId }) =>
  responseResult(await exportSitePackage(principal, pathId, input.IncludeData ?? false)),
);
