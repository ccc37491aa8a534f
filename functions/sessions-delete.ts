import { NotFoundError } from '../lib/errors';
import { endpoint } from '../lib/http/api';
import { readCookie, sessionCookies } from '../lib/http/cookies';
import { responseResult, withCookies } from '../lib/http/response';
import { sessionsDelete } from '../lib/routes/sessions';
import { deleteValue } from '../lib/sessions/repository';
import { sessionScope } from '../lib/sessions/scope';

export const handler = endpoint(sessionsDelete, async ({ input, event, principal }) => {
  const { scope, newSession } = sessionScope(principal, input.SavePerUser, readCookie(event, 'SessionGuid'));
  if (!(await deleteValue(scope, input.SessionKey))) {
    throw new NotFoundError(`no session value ${input.SessionKey}`);
  }
  return withCookies(
    responseResult({ UserId: principal.userId, Key: input.SessionKey }),
    sessionCookies(event, newSession),
  );
});
