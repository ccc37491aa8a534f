import { updateDept } from '../lib/accounts/depts';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { deptsUpdate } from '../lib/routes/accounts';

export const handler = endpoint(deptsUpdate, async ({ input, principal, pathId }) =>
  apiResult(await updateDept(principal, pathId, input)),
);
