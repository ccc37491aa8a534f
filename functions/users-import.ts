import { importUsers } from '../lib/account-imports/users';
import { importEncoding } from '../lib/csv/csv';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { usersImport } from '../lib/routes/transfers';

export const handler = endpoint(usersImport, async ({ principal, input, form }) =>
  apiResult(await importUsers(principal, form?.file?.bytes, importEncoding(input.Encoding))),
);
