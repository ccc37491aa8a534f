import { createApiKey } from '../lib/accounts/users';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { usersCreateapikey } from '../lib/routes/accounts';

export const handler = endpoint(usersCreateapikey, async ({ principal, pathId }) => {
  const { apiKey, ...outcome } = await createApiKey(principal, pathId);
  return apiResult(outcome, { ApiKey: apiKey });
});
