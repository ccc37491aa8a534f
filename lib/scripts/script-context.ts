import { callerLanguage } from '../accounts/caller-language';
import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { getTenant } from '../accounts/repository';
import { basePath } from '../config/base-path';
import type { Site } from '../sites/model';
import { membershipOf } from '../sites/permissions';

/** The parts of API Gateway's event that `context` shows (lib/scripts/runner.ts ScriptRequest). */
export interface ScriptEvent {
  readonly rawQueryString?: string;
  readonly rawPath?: string;
  readonly body?: string;
  readonly isBase64Encoded?: boolean;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly requestContext: { readonly http: { readonly method: string }; readonly domainName?: string };
}

/** `context.TenantTitle`: the tenant's name, read when a script first asks (a host call). */
export async function tenantTitle(principal: Principal): Promise<string> {
  return (await getTenant(principal.tenantId))?.tenantName ?? '';
}

/** `context.Groups`: the caller's groups, directly or through their dept, each once, read when asked. */
export async function groupIds(principal: Principal): Promise<number[]> {
  const { groupIds } = await membershipOf(principal);
  return [...new Set(groupIds)].sort((a, b) => a - b);
}

/** What `context` shows of the request and its record, besides the condition (lib/scripts/runner.ts). */
export interface RequestFacts {
  readonly principal: Principal;
  readonly event: ScriptEvent;
  readonly action: string;
  readonly apiVersion?: number | string;
  readonly id: number;
  /** The request's JSON as the script may read it (requestBody); a nested write's is the script's JSON. */
  readonly body: string;
}

/**
 * `context`'s properties on an API call (reference/pleasanter-script-objects.md 3), as the reference
 * fills them for a request to `/api/items/{id}/{action}`: the screen's (Forms, ControlId) empty, `Mobile`
 * false (no API caller is a phone's screen), `TimeZoneInfo` the IANA zone that dates are read in (the
 * reference's .NET zone names do not exist here). `TenantTitle` and `Groups` need reads: the prelude
 * asks for them (lib/scripts/calls/context.ts) only when a script reads them.
 */
export function contextOf(request: RequestFacts, site: Site, recordTitle: string): Record<string, unknown> {
  const { principal, event, action, apiVersion, id, body } = request;
  const headers = event.headers ?? {};
  const rawQuery = event.rawQueryString ?? '';
  const query = rawQuery ? `?${rawQuery}` : '';
  const scheme = (headers['x-forwarded-proto'] ?? 'https').split(',')[0]?.trim() || 'https';
  const host = headers.host ?? event.requestContext.domainName ?? '';
  const path = event.rawPath ?? '';
  const url = host ? `${scheme}://${host}${path}${query}` : '';
  return {
    ...userFacts(principal),
    SiteId: site.siteId,
    Id: id,
    SiteTitle: site.title,
    RecordTitle: recordTitle,
    ReferenceType: site.referenceType,
    ApiVersion: apiVersion === undefined ? 1.0 : Number(apiVersion),
    ApiRequestBody: body,
    RequestDataString: body,
    ContentType: headers['content-type'] ?? '',
    HttpMethod: event.requestContext.http.method,
    Controller: 'items',
    Action: action.toLowerCase(),
    Query: query,
    FormStringRaw: '',
    FormString: '',
    ControlId: '',
    ApplicationPath: `${basePath()}/`,
    AbsoluteUri: url,
    AbsolutePath: path,
    Url: url,
    UrlReferrer: headers.referer ?? null,
    Ajax: (headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest',
    Mobile: false,
  };
}

/** `context`'s properties of the user a script runs as, whatever runs it (a request, a schedule). */
export function userFacts(principal: Principal): Record<string, unknown> {
  return {
    TenantId: principal.tenantId,
    UserId: principal.userId,
    LoginId: principal.loginId,
    DeptId: principal.deptId ?? 0,
    Language: callerLanguage(principal),
    TimeZoneInfo: callerZone(principal),
    HasPrivilege: principal.privileged,
  };
}

/**
 * `context` of a background script: the reference's job has a user and a tenant but no request and no
 * site, so SiteId and Id are 0 and the request's parts are empty; `TenantTitle` and `Groups` are asked
 * for as on a request.
 */
export function backgroundContextOf(principal: Principal): Record<string, unknown> {
  return {
    ...userFacts(principal),
    SiteId: 0,
    Id: 0,
    SiteTitle: '',
    RecordTitle: '',
    ReferenceType: '',
    ApiVersion: 1.0,
    ApiRequestBody: '',
    RequestDataString: '',
    ContentType: '',
    HttpMethod: '',
    Controller: '',
    Action: '',
    Query: '',
    FormStringRaw: '',
    FormString: '',
    ControlId: '',
    ApplicationPath: `${basePath()}/`,
    AbsoluteUri: '',
    AbsolutePath: '',
    Url: '',
    UrlReferrer: null,
    Ajax: false,
    Mobile: false,
  };
}

/**
 * The request's JSON for `context.ApiRequestBody` and `RequestDataString`: the body as sent, except its
 * `ApiKey`, which is the caller's credential and no business of a script the site's managers wrote (a
 * departure: the reference shows the body as it came). A body that is no JSON object is shown as it is.
 */
export function requestBody(event: ScriptEvent): string {
  const raw = event.body ?? '';
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  return withoutApiKey(text);
}

export function withoutApiKey(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return text;
  const kept = Object.entries(parsed).filter(([key]) => key.toLowerCase() !== 'apikey');
  return kept.length === Object.keys(parsed).length ? text : JSON.stringify(Object.fromEntries(kept));
}
