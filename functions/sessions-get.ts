import { NotFoundError } from '../lib/errors';
import { endpoint } from '../lib/http/api';
import { readCookie, sessionCookies } from '../lib/http/cookies';
import { responseResult, withCookies } from '../lib/http/response';
import { sessionsGet } from '../lib/routes/sessions';
import { getValue } from '../lib/sessions/repository';
import { sessionScope } from '../lib/sessions/scope';

export const handler = endpoint(sessionsGet, async ({ input, event, principal }) => {
  const { scope, newSession } = sessionScope(principal, input.SavePerUser, readCookie(event, 'SessionGuid'));
  const value = await getValue(scope, input.SessionKey);
  if (value === undefined) throw new NotFoundError(`no session value ${input.SessionKey}`);
  return withCookies(
    responseResult({ UserId: principal.userId, Key: input.SessionKey, Value: value }),
    sessionCookies(event, newSession),
  );
});
