import { deleteUser } from '../lib/accounts/users';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { usersDelete } from '../lib/routes/accounts';

export const handler = endpoint(usersDelete, async ({ principal, pathId }) =>
  apiResult(await deleteUser(principal, pathId)),
);
