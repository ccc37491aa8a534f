import { signOut } from '../lib/accounts/login';
import { ForbiddenError } from '../lib/errors';
import { endpoint } from '../lib/http/api';
import { readCookie, serializeCookie } from '../lib/http/cookies';
import { apiResult, withCookies } from '../lib/http/response';
import { messages } from '../lib/messages';
import { usersSignout } from '../lib/routes/accounts';

/** Ends the login of the cookie sent, if any (a cookie-authenticated POST: the CSRF rule), and removes both cookies. */
export const handler = endpoint(usersSignout, async ({ event }) => {
  const token = readCookie(event, 'Auth');
  if (token && event.headers['x-requested-with'] !== 'XMLHttpRequest') {
    throw new ForbiddenError('cookie-authenticated sign-out without X-Requested-With: XMLHttpRequest');
  }
  await signOut(token);
  return withCookies(apiResult({ message: messages.signedOut }), [
    serializeCookie(event, 'Auth', '', { maxAge: 0 }),
    serializeCookie(event, 'SessionGuid', '', { maxAge: 0 }),
  ]);
});
