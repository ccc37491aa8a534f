import { listUsers } from '../lib/account-lists/lists';
import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { usersGet } from '../lib/routes/accounts';

// One function for `users/get` (the tenant's, paged) and `users/{id}/get`: pathId 0 is the list.
export const handler = endpoint(usersGet, async ({ input, principal, pathId }) =>
  responseResult(await listUsers(principal, pathId, input)),
);
