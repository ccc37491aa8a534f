import type * as z from 'zod';
import { now } from '../clock';
import { settings } from '../config/settings';
import { UnauthorizedError } from '../errors';
import { forgetCredentials } from './authentication';
import * as repository from './repository';
import type { loginRequest } from './schemas';
import { hashToken, newLoginToken, verifyPassword } from './secrets';

/** A login made: the user, the token for the `Kiroku_Auth` cookie and how long it lives (seconds). */
export interface Login {
  readonly userId: number;
  readonly token: string;
  readonly lifetime: number;
}

/**
 * `POST /users/authenticate`: a right login id and password give a login token, valid for
 * Session.RetentionPeriod; the endpoint sets it as the `Kiroku_Auth` cookie.
 */
export async function logIn(input: z.infer<typeof loginRequest>): Promise<Login> {
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
  return { userId: user.userId, token, lifetime };
}

/** `POST /users/signout`: ends the login of the token sent, if any. */
export async function signOut(token: string | undefined): Promise<void> {
  if (!token) return;
  await repository.deleteLogin(hashToken(token));
  forgetCredentials();
}
