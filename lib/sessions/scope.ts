import type { Principal } from '../accounts/principal';
import { newSessionGuid } from '../accounts/secrets';
import type { SessionScope } from './repository';

const GUID = /^[0-9A-F]{32}$/;

/**
 * The scope a request's values live in. Without SavePerUser it is the browser session of the
 * `Kiroku_SessionGuid` cookie (`cookieGuid`); a request without one gets a new session (`newSession`), which
 * the endpoint hands back as that cookie, so a client that drops cookies never reads a value back (spec 4.2
 * rule 1).
 */
export function sessionScope(
  principal: Principal,
  savePerUser: boolean | undefined,
  cookieGuid: string | undefined,
): { scope: SessionScope; newSession?: string } {
  if (savePerUser) {
    return { scope: { sessionGuid: `@${principal.userId}`, userId: principal.userId, perUser: true } };
  }
  if (cookieGuid !== undefined && GUID.test(cookieGuid)) {
    return { scope: { sessionGuid: cookieGuid, userId: principal.userId, perUser: false } };
  }
  const sessionGuid = newSessionGuid();
  return { scope: { sessionGuid, userId: principal.userId, perUser: false }, newSession: sessionGuid };
}
