import { importDepts } from '../lib/account-imports/depts';
import { accountImportRequest } from '../lib/account-imports/request';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { deptsImport } from '../lib/routes/transfers';

export const handler = endpoint(deptsImport, async ({ principal, event }) => {
  const { file, encoding } = accountImportRequest(event);
  return apiResult(await importDepts(principal, file, encoding));
});
