import type { Principal } from '../accounts/principal';
import { newSessionGuid } from '../accounts/secrets';
import { readCookie, serializeCookie } from '../http/cookies';
import type { ApiEvent } from '../http/event';
import type { SessionScope } from './repository';

const GUID = /^[0-9A-F]{32}$/;

/**
 * The scope a request's values live in. Without SavePerUser it is the browser session of the
 * `Kiroku_SessionGuid` cookie; a request without one gets a new session and the cookie to keep it, so a
 * client that drops cookies never reads a value back (spec 4.2 rule 1).
 */
export function sessionScope(
  event: ApiEvent,
  principal: Principal,
  savePerUser: boolean | undefined,
): { scope: SessionScope; cookies: string[] } {
  if (savePerUser) {
    return {
      scope: { sessionGuid: `@${principal.userId}`, userId: principal.userId, perUser: true },
      cookies: [],
    };
  }
  const cookie = readCookie(event, 'SessionGuid');
  if (cookie !== undefined && GUID.test(cookie)) {
    return { scope: { sessionGuid: cookie, userId: principal.userId, perUser: false }, cookies: [] };
  }
  const sessionGuid = newSessionGuid();
  return {
    scope: { sessionGuid, userId: principal.userId, perUser: false },
    cookies: [serializeCookie(event, 'SessionGuid', sessionGuid)],
  };
}
