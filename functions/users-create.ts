import { createUser, requireManager } from '../lib/accounts/users';
import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { messages } from '../lib/messages';
import { usersCreate } from '../lib/routes/accounts';

export const handler = endpoint(usersCreate, async ({ input, principal }) => {
  requireManager(principal);
  const { user } = await createUser(principal.tenantId, input);
  return apiResult({ id: user.userId, message: messages.created(user.name) });
});
