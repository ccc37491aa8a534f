import { createDept } from '../lib/accounts/depts';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { deptsCreate } from '../lib/routes/accounts';

export const handler = endpoint(deptsCreate, async ({ input, principal }) =>
  apiResult(await createDept(principal, input)),
);
