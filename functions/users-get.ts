import { readUser } from '../lib/accounts/users';
import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { usersGet } from '../lib/routes/accounts';

export const handler = endpoint(usersGet, async ({ principal, pathId }) =>
  responseResult(await readUser(principal, pathId)),
);
