import type { Principal } from '../../accounts/principal';
import { ForbiddenError, UnauthorizedError } from '../../errors';
import { readCookie } from '../cookies';
import type { ApiMiddleware } from '../event';
import { propertyOf } from './json-body';

export interface AuthenticateOptions {
  /** `ApiKey` in the JSON body. */
  readonly apiKey: boolean;
  /** `Authorization: Bearer <API key>` (binary upload). */
  readonly bearer: boolean;
  /** The `Kiroku_Auth` login cookie; a POST must then carry `X-Requested-With: XMLHttpRequest`. */
  readonly cookie: boolean;
}

/** Who a credential belongs to (lib/accounts/authentication.ts), handed in so that HTTP knows no accounts. */
export interface CredentialResolver {
  apiKey(key: string): Promise<Principal | undefined>;
  loginToken(token: string): Promise<Principal | undefined>;
}

const defaults: AuthenticateOptions = { apiKey: true, bearer: false, cookie: true };

/**
 * Finds the caller. A key that was sent decides alone: a wrong one is 401 even with a valid login cookie.
 * The reason for a refusal goes to the log, never into the response.
 */
export function authenticate(
  resolve: CredentialResolver,
  options: Partial<AuthenticateOptions> = {},
): ApiMiddleware {
  const { apiKey, bearer, cookie } = { ...defaults, ...options };

  const authenticateBefore: ApiMiddleware['before'] = async (request) => {
    const { event } = request;
    const state = request.internal.kiroku;
    const key =
      (bearer ? bearerKey(event.headers.authorization) : undefined) ??
      (apiKey ? bodyKey(state.json) : undefined);
    if (key !== undefined) {
      const principal = await resolve.apiKey(key);
      if (!principal) throw new UnauthorizedError('unknown API key, or its user is disabled');
      state.principal = principal;
      return;
    }
    const token = cookie ? readCookie(event, 'Auth') : undefined;
    if (token) {
      if (
        event.requestContext.http.method !== 'GET' &&
        event.headers['x-requested-with'] !== 'XMLHttpRequest'
      ) {
        throw new ForbiddenError('cookie-authenticated request without X-Requested-With: XMLHttpRequest');
      }
      const principal = await resolve.loginToken(token);
      if (!principal) throw new UnauthorizedError('unknown or expired login, or its user is disabled');
      state.principal = principal;
      return;
    }
    throw new UnauthorizedError('no credentials');
  };

  return { before: authenticateBefore };
}

function bodyKey(json: Record<string, unknown>): string | undefined {
  const value = propertyOf(json, 'ApiKey');
  const text = typeof value === 'number' ? String(value) : value;
  return typeof text === 'string' && text !== '' ? text : undefined;
}

function bearerKey(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
