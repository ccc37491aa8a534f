import { listUsers } from '../lib/account-lists/lists';
import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { usersGet } from '../lib/routes/accounts';

const CURRENT = 'POST /api/users/current';

// One function for `users/get` (the tenant's, paged), `users/{id}/get` and `users/current` (the caller,
// whoever the ApiKey or the login cookie names: the browser UI asks it who is logged in).
export const handler = endpoint(usersGet, async ({ input, principal, pathId, event }) =>
  responseResult(await listUsers(principal, event.routeKey === CURRENT ? principal.userId : pathId, input)),
);
