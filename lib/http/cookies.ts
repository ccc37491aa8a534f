import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { basePath } from '../config/base-path';
import { settings } from '../config/settings';
import { isHttps } from './origin';

export type CookieName = 'SessionGuid' | 'Auth';

/** `Kiroku_SessionGuid` / `Kiroku_Auth`, after the setting Service.Name. */
export function cookieName(name: CookieName): string {
  return `${settings().Service.Name}_${name}`;
}

export function readCookie(event: APIGatewayProxyEventV2, name: CookieName): string | undefined {
  const wanted = `${cookieName(name)}=`;
  for (const cookie of event.cookies ?? []) {
    const trimmed = cookie.trim();
    if (trimmed.startsWith(wanted)) return decoded(trimmed.slice(wanted.length));
  }
  return undefined;
}

/** A value that is not valid percent-encoding (`%`, `%zz`, a lone surrogate) is no credential at all. */
function decoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

export interface CookieOptions {
  /** Seconds; omitted for a cookie that lives as long as the browser session. 0 removes the cookie. */
  readonly maxAge?: number;
}

/** HttpOnly, SameSite=Lax, Path = the base path, Secure when the caller came over https. */
export function serializeCookie(
  event: APIGatewayProxyEventV2,
  name: CookieName,
  value: string,
  options: CookieOptions = {},
): string {
  const parts = [
    `${cookieName(name)}=${encodeURIComponent(value)}`,
    `Path=${basePath() || '/'}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (isHttps(event)) parts.push('Secure');
  return parts.join('; ');
}

/** The `Kiroku_SessionGuid` cookie for a session the request started, if it started one. */
export function sessionCookies(event: APIGatewayProxyEventV2, newSession: string | undefined): string[] {
  return newSession === undefined ? [] : [serializeCookie(event, 'SessionGuid', newSession)];
}
