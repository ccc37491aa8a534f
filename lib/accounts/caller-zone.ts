import { settings } from '../config/settings';
import type { Principal } from './principal';

/**
 * The IANA zone a caller reads and writes dates in (CONTRACT 5.1): the user's TimeZone, else their
 * tenant's (both resolved with the credential, lib/accounts/authentication.ts), else Service.TimeZoneDefault.
 */
export function callerZone(principal: Principal): string {
  return principal.timeZone ?? settings().Service.TimeZoneDefault;
}
