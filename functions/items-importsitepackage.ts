import { endpoint } from '../lib/http/api';
import { importPackageRequest } from '../lib/items/package-schemas';
import { importSitePackage } from '../lib/items/site-package-import';

export const handler = endpoint({ schema: importPackageRequest }, ({ input, principal, pathId }) =>
  importSitePackage(principal, pathId, input.Package),
);
