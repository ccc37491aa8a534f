import { accountImportRequest } from '../lib/account-imports/request';
import { importUsers } from '../lib/account-imports/users';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { usersImport } from '../lib/routes/transfers';

export const handler = endpoint(usersImport, async ({ principal, event }) => {
  const { file, encoding } = accountImportRequest(event);
  return apiResult(await importUsers(principal, file, encoding));
});
