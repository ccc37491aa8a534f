import { listDepts } from '../lib/account-lists/lists';
import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { deptsGet } from '../lib/routes/accounts';

// One function for `depts/get` (the tenant's, paged) and `depts/{id}/get`: pathId 0 is the list.
export const handler = endpoint(deptsGet, async ({ input, principal, pathId }) =>
  responseResult(await listDepts(principal, pathId, input)),
);
