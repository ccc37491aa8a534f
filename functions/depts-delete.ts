import { deleteDept } from '../lib/accounts/depts';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { deptsDelete } from '../lib/routes/accounts';

export const handler = endpoint(deptsDelete, async ({ principal, pathId }) =>
  apiResult(await deleteDept(principal, pathId)),
);
