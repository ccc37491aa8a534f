import { userCreateRequest } from '../lib/accounts/schemas';
import { createUser, requireManager } from '../lib/accounts/users';
import { endpoint } from '../lib/http/api';
import { messages } from '../lib/http/messages';
import { apiResult } from '../lib/http/response';

export const handler = endpoint({ schema: userCreateRequest }, async ({ input, principal }) => {
  requireManager(principal);
  const { user } = await createUser(principal.tenantId, input);
  return apiResult({ id: user.userId, message: messages.created(user.name) });
});
