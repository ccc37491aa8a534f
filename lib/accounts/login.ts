import type * as z from 'zod';
import { now } from '../clock';
import { settings } from '../config/settings';
import { readCookie, serializeCookie } from '../http/cookies';
import { ForbiddenError, UnauthorizedError } from '../http/errors';
import type { ApiEvent } from '../http/event';
import { messages } from '../http/messages';
import { type ApiResponse, apiResult, withCookies } from '../http/response';
import { forgetCredentials } from './authentication';
import * as repository from './repository';
import type { loginRequest } from './schemas';
import { hashToken, newLoginToken, newSessionGuid, verifyPassword } from './secrets';

/**
 * `POST /users/authenticate`: a right login id and password set the `Kiroku_Auth` login cookie, valid for
 * Session.RetentionPeriod, and start a new `Kiroku_SessionGuid` session.
 */
export async function logIn(event: ApiEvent, input: z.infer<typeof loginRequest>): Promise<ApiResponse> {
  const userId = await repository.findUserIdByLoginId(input.LoginId);
  const user = userId === undefined ? undefined : await repository.getUser(userId);
  // The password is checked even for an unknown login id, so the answer's timing tells nothing.
  const valid = await verifyPassword(input.Password, user?.passwordHash);
  if (!user || !valid || user.disabled) throw new UnauthorizedError(`login refused for ${input.LoginId}`);

  const lifetime = settings().Session.RetentionPeriod * 60;
  const token = newLoginToken();
  await repository.putLogin(hashToken(token), {
    userId: user.userId,
    expiresAt: Math.floor(now() / 1000) + lifetime,
  });
  return withCookies(apiResult({ id: user.userId, message: messages.authenticated }), [
    serializeCookie(event, 'Auth', token, { maxAge: lifetime }),
    serializeCookie(event, 'SessionGuid', newSessionGuid()),
  ]);
}

/** `POST /users/signout`: ends the login of the cookie sent, if any, and removes both cookies. */
export async function signOut(event: ApiEvent): Promise<ApiResponse> {
  const token = readCookie(event, 'Auth');
  if (token) {
    if (event.headers['x-requested-with'] !== 'XMLHttpRequest') {
      throw new ForbiddenError('cookie-authenticated sign-out without X-Requested-With: XMLHttpRequest');
    }
    await repository.deleteLogin(hashToken(token));
    forgetCredentials();
  }
  return withCookies(apiResult({ message: messages.signedOut }), [
    serializeCookie(event, 'Auth', '', { maxAge: 0 }),
    serializeCookie(event, 'SessionGuid', '', { maxAge: 0 }),
  ]);
}
