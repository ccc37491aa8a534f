/**
 * What domain operations report, before any wire format: the endpoint layer (lib/http/response.ts) turns
 * these into the spec's ApiResult and `{StatusCode, Response}` shapes.
 */

/** The day's API-limit figures of a site, when Api.LimitPerSite is set (reference 7.5). */
export interface ApiLimits {
  readonly limitPerDate?: number;
  readonly limitRemaining?: number;
}

/** A change done: the ApiResult's Id and Message, with the limit figures when a limit applies. */
export interface Outcome extends ApiLimits {
  readonly id: number;
  readonly message: string;
}

/** A read done: the answer's `Response` object, with the limit figures when a limit applies. */
export interface Reading<T = Record<string, unknown>> {
  readonly response: T;
  readonly limits?: ApiLimits;
}
