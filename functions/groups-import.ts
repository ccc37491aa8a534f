import { importGroups } from '../lib/account-imports/groups';
import { importEncoding } from '../lib/csv/csv';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { groupsImport } from '../lib/routes/transfers';

export const handler = endpoint(groupsImport, async ({ principal, input, form }) =>
  apiResult(
    await importGroups(
      principal,
      form?.file?.bytes,
      importEncoding(input.Encoding),
      input.ReplaceAllGroupMembers ?? false,
    ),
  ),
);
