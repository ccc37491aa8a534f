/** The authenticated caller, as every permission check sees it. */
export interface Principal {
  readonly tenantId: number;
  readonly userId: number;
  readonly loginId: string;
  readonly name: string;
  readonly tenantManager: boolean;
  /** The user's dept, if any; whether it is enabled is checked where permissions are resolved. */
  readonly deptId?: number;
  /** The user's TimeZone, else their tenant's; none: Service.TimeZoneDefault (lib/accounts/caller-zone.ts). */
  readonly timeZone?: string;
  /** The user's Language (`ja` or `en`); none: Service.DefaultLanguage (lib/accounts/caller-language.ts). */
  readonly language?: 'ja' | 'en';
  /** Listed in Security.PrivilegedUsers: passes every permission check and may create tenants. */
  readonly privileged: boolean;
  /** How the caller proved who it is; a login cookie brings the CSRF rule and query strings. */
  readonly via: 'apiKey' | 'cookie';
  /** The hash of the login token, for a caller that came with one: a password change keeps this login. */
  readonly loginHash?: string;
}
