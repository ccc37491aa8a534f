import { deleteApiKey } from '../lib/accounts/users';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { usersDeleteapikey } from '../lib/routes/accounts';

export const handler = endpoint(usersDeleteapikey, async ({ principal, pathId }) =>
  apiResult(await deleteApiKey(principal, pathId)),
);
