import { logIn } from '../lib/accounts/login';
import { newSessionGuid } from '../lib/accounts/secrets';
import { endpoint } from '../lib/http/api';
import { serializeCookie } from '../lib/http/cookies';
import { apiResult, withCookies } from '../lib/http/response';
import { messages } from '../lib/messages';
import { usersAuthenticate } from '../lib/routes/accounts';

/** A login sets the `Kiroku_Auth` cookie and starts a new `Kiroku_SessionGuid` session. */
export const handler = endpoint(usersAuthenticate, async ({ event, input }) => {
  const login = await logIn(input);
  return withCookies(apiResult({ id: login.userId, message: messages.authenticated }), [
    serializeCookie(event, 'Auth', login.token, { maxAge: login.lifetime }),
    serializeCookie(event, 'SessionGuid', newSessionGuid()),
  ]);
});
