import { endpoint } from '../lib/http/api';
import { exportPackageRequest } from '../lib/items/package-schemas';
import { exportSitePackage } from '../lib/items/site-package-export';

export const handler = endpoint({ schema: exportPackageRequest }, ({ input, principal, pathId }) =>
  exportSitePackage(principal, pathId, input.IncludeData ?? false),
);
