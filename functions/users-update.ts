import { updateUser } from '../lib/accounts/users';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { usersUpdate } from '../lib/routes/accounts';

export const handler = endpoint(usersUpdate, async ({ input, principal, pathId }) =>
  apiResult(await updateUser(principal, pathId, input)),
);
