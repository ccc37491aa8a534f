import { readDept } from '../lib/accounts/depts';
import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { deptsGet } from '../lib/routes/accounts';

export const handler = endpoint(deptsGet, async ({ principal, pathId }) =>
  responseResult(await readDept(principal, pathId)),
);
