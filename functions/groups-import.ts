import { importGroups } from '../lib/account-imports/groups';
import { accountImportRequest } from '../lib/account-imports/request';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { groupsImport } from '../lib/routes/transfers';

export const handler = endpoint(groupsImport, async ({ principal, event }) => {
  const { parameters, file, encoding } = accountImportRequest(event);
  return apiResult(await importGroups(principal, file, encoding, parameters.ReplaceAllGroupMembers ?? false));
});
