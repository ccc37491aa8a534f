import type { ApiLimits } from '../results';

/**
 * What a business function returns: the JSON body in the spec's shape (PascalCase names, as the reference
 * serializes them) and any cookies to set. The envelope middleware turns it into the HTTP response.
 */
export interface ApiResponse {
  readonly body: Record<string, unknown>;
  readonly cookies?: readonly string[];
}

export interface ApiResultFields {
  readonly id?: number;
  readonly statusCode?: number;
  readonly message: string;
  readonly limitPerDate?: number;
  readonly limitRemaining?: number;
}

/** The spec's ApiResult `{Id, StatusCode, LimitPerDate?, LimitRemaining?, Message}`, plus any extra fields. */
export function apiResult(fields: ApiResultFields, extra: Record<string, unknown> = {}): ApiResponse {
  const limited = fields.limitPerDate !== undefined && fields.limitPerDate > 0;
  return {
    body: {
      Id: fields.id ?? 0,
      StatusCode: fields.statusCode ?? 200,
      LimitPerDate: limited ? fields.limitPerDate : undefined,
      LimitRemaining: limited ? fields.limitRemaining : undefined,
      Message: fields.message,
      ...extra,
    },
  };
}

/** The `{StatusCode: 200, Response: {...}}` success shape of the sessions API and the reads. */
export function responseResult(response: Record<string, unknown>, limits: ApiLimits = {}): ApiResponse {
  const limited = limits.limitPerDate !== undefined && limits.limitPerDate > 0;
  return {
    body: {
      StatusCode: 200,
      LimitPerDate: limited ? limits.limitPerDate : undefined,
      LimitRemaining: limited ? limits.limitRemaining : undefined,
      Response: response,
    },
  };
}

export function withCookies(response: ApiResponse, cookies: readonly string[]): ApiResponse {
  return cookies.length === 0
    ? response
    : { ...response, cookies: [...(response.cookies ?? []), ...cookies] };
}

/** JSON out: null and undefined properties are left out, zero and false are kept. */
export function toJson(body: unknown): string {
  return JSON.stringify(body, (_key, value) => (value === null ? undefined : value));
}
