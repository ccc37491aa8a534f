import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { importFile } from '../lib/imports/import';
import { itemsImport } from '../lib/routes/imports';

export const handler = endpoint(itemsImport, async ({ input, principal, pathId, form }) =>
  apiResult(await importFile(principal, pathId, input, form?.file?.bytes)),
);
