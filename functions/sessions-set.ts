import { endpoint } from '../lib/http/api';
import { responseResult, withCookies } from '../lib/http/response';
import { putValue } from '../lib/sessions/repository';
import { sessionSetRequest } from '../lib/sessions/schemas';
import { sessionScope } from '../lib/sessions/scope';

export const handler = endpoint({ schema: sessionSetRequest }, async ({ input, event, principal }) => {
  const { scope, cookies } = sessionScope(event, principal, input.SavePerUser);
  await putValue(scope, input.SessionKey, input.SessionValue);
  return withCookies(responseResult({ UserId: principal.userId, Key: input.SessionKey }), cookies);
});
