import type { Principal } from '../accounts/principal';
import { settings } from '../config/settings';

/**
 * The IANA zone a caller reads and writes dates in (CONTRACT 5.1): the user's TimeZone, else the tenant's,
 * else Service.TimeZoneDefault. Users and tenants carry no zone of their own yet, so it is the setting.
 */
export function callerZone(_principal: Principal): string {
  return settings().Service.TimeZoneDefault;
}

/** The zone of every caller today (Service.TimeZoneDefault), where no principal is at hand. */
export function serviceZone(): string {
  return settings().Service.TimeZoneDefault;
}
