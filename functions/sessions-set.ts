import { endpoint } from '../lib/http/api';
import { readCookie, sessionCookies } from '../lib/http/cookies';
import { responseResult, withCookies } from '../lib/http/response';
import { sessionsSet } from '../lib/routes/sessions';
import { putValue } from '../lib/sessions/repository';
import { sessionScope } from '../lib/sessions/scope';

export const handler = endpoint(sessionsSet, async ({ input, event, principal }) => {
  const { scope, newSession } = sessionScope(principal, input.SavePerUser, readCookie(event, 'SessionGuid'));
  await putValue(scope, input.SessionKey, input.SessionValue);
  return withCookies(
    responseResult({ UserId: principal.userId, Key: input.SessionKey }),
    sessionCookies(event, newSession),
  );
});
