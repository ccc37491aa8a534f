import { endpoint } from '../lib/http/api';
import { NotFoundError } from '../lib/http/errors';
import { responseResult, withCookies } from '../lib/http/response';
import { getValue } from '../lib/sessions/repository';
import { sessionKeyRequest } from '../lib/sessions/schemas';
import { sessionScope } from '../lib/sessions/scope';

export const handler = endpoint({ schema: sessionKeyRequest }, async ({ input, event, principal }) => {
  const { scope, cookies } = sessionScope(event, principal, input.SavePerUser);
  const value = await getValue(scope, input.SessionKey);
  if (value === undefined) throw new NotFoundError(`no session value ${input.SessionKey}`);
  return withCookies(
    responseResult({ UserId: principal.userId, Key: input.SessionKey, Value: value }),
    cookies,
  );
});
