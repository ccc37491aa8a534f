import { importDepts } from '../lib/account-imports/depts';
import { importEncoding } from '../lib/csv/csv';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { deptsImport } from '../lib/routes/transfers';

export const handler = endpoint(deptsImport, async ({ principal, input, form }) =>
  apiResult(await importDepts(principal, form?.file?.bytes, importEncoding(input.Encoding))),
);
