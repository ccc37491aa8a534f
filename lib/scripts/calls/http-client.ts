import iconv from 'iconv-lite';
import { settings } from '../../config/settings';
import { logger } from '../../log';
import { type HostAllowList, hostAllowList } from '../../net/addresses';
import {
  type OutboundResponse,
  outboundRequest,
  RefusedRequestError,
  RequestTimeoutError,
} from '../../net/outbound';
import type { HostCallTable, ScriptCallContext } from '../host-calls';

/**
 * `httpClient.Get/Post/Put/Patch/Delete` (reference/pleasanter-script-objects.md 5): one request, made
 * by lib/net/outbound.ts, which resolves the name and checks the address it connects to. Only a host that
 * `Script.ServerScriptHttpClientAllowedHosts` names is asked, and a private, loopback or link-local
 * address only when the list names it (a pattern does not). Redirects are followed as .NET's HttpClient
 * follows them, each hop checked as the first request was. The wait ends at the script's TimeOut or its
 * time limit, whichever comes first; a body over `Script.ServerScriptHttpClientMaxResponseBytes` fails.
 *
 * The answer is what lib/scripts/globals/http-client.ts needs to set the response fields: a timeout, a
 * response, or an error the script is thrown (the reference throws for every failure but a timeout).
 */

/** What the script's httpClient asks for, as the prelude sends it. */
interface HttpFields {
  readonly Method: string;
  readonly RequestUri: string;
  readonly Content: string;
  readonly Encoding: string;
  readonly MediaType: string;
  readonly Headers: readonly (readonly [string, string])[];
  /** Null while the script has not set it: the setting's. */
  readonly TimeOut: number | null;
}

export type HttpAnswer =
  | { readonly timeout: true }
  | { readonly error: string }
  | {
      readonly status: number;
      /** The answer's header lines, `[name, value]` in their own case. */
      readonly headers: readonly (readonly [string, string])[];
      readonly body?: string;
      /** Set when the answer came but cannot be given: the status and headers stand, the call throws. */
      readonly error?: string;
    };

export const ALLOWED_HOSTS_SETTING = 'Script.ServerScriptHttpClientAllowedHosts';
/** .NET's HttpClientHandler.MaxAutomaticRedirections. */
const MAX_REDIRECTS = 50;
/** The reference's ServerScriptHttpClientTimeOutMin/Max: a TimeOut outside them becomes 100 s. */
const TIME_OUT_MAX = 86_400_000;
const TIME_OUT_OUTSIDE = 100_000;
/**
 * When the script's time limit comes before its TimeOut, the request is given a little longer than the
 * limit, so that the script stops as out of time (the run fails, as any overrun does) rather than
 * carrying on past its limit with IsTimeOut.
 */
const DEADLINE_MARGIN_MS = 250;
/** Headers the request's content or framing sets (.NET refuses content headers on a request too). */
const REFUSED_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
  'content-md5',
  'content-range',
  'content-disposition',
  'expires',
  'last-modified',
  'allow',
  'host',
  'transfer-encoding',
  'connection',
]);
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VERBS: Readonly<Record<string, string>> = {
  GET: 'Get',
  POST: 'Post',
  PUT: 'Put',
  PATCH: 'Patch',
  DELETE: 'Delete',
};

export function httpClientCalls(context: ScriptCallContext): HostCallTable {
  return {
    'httpClient.Send': async (fields) => send(fields as HttpFields, context),
    'httpClient.TimeOut': async () => settings().Script.ServerScriptHttpClientTimeOut,
  };
}

async function send(fields: HttpFields, context: ScriptCallContext): Promise<HttpAnswer> {
  const verb = `httpClient.${VERBS[fields.Method] ?? fields.Method}`;
  const request = prepared(fields);
  if ('error' in request) return { error: `${verb}: ${request.error}` };
  const config = settings().Script;
  const allowList = hostAllowList(config.ServerScriptHttpClientAllowedHosts, ALLOWED_HOSTS_SETTING);
  const timeOut = fields.TimeOut ?? config.ServerScriptHttpClientTimeOut;
  const ends = Date.now() + timeOutMs(timeOut, context.deadline - Date.now());
  let { url, method, body } = request;
  let headers = request.headers;
  const refused = (reason: string): HttpAnswer => {
    logger.warn('server script httpClient refused', { ...context.where, url, reason });
    return { error: `${verb}: refused: ${reason}` };
  };
  try {
    for (let hop = 0; ; hop++) {
      const host = new URL(url).hostname;
      if (!allowList.names(host)) return refused(notNamed(host, allowList));
      const left = ends - Date.now();
      if (left <= 0) throw new RequestTimeoutError('no time left');
      const response = await outboundRequest({
        url,
        method,
        headers: body === undefined ? headers : { ...headers, 'Content-Type': request.contentType },
        ...(body !== undefined && { body }),
        timeoutMs: left,
        maxResponseBytes: config.ServerScriptHttpClientMaxResponseBytes,
        allowList,
      });
      const next = hop < MAX_REDIRECTS ? redirected(url, method, response) : undefined;
      if (!next) return answered(response, verb, context);
      ({ url, method } = next);
      if (method === 'GET') body = undefined;
      // .NET drops the credentials of a request it redirects.
      headers = Object.fromEntries(
        Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'),
      );
    }
  } catch (error) {
    if (error instanceof RequestTimeoutError) {
      logger.info('server script httpClient timed out', { ...context.where, url });
      return { timeout: true };
    }
    if (error instanceof RefusedRequestError) return refused(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    const reason = `${code ? `${code}: ` : ''}${(error as Error).message}`;
    logger.warn('server script httpClient failed', { ...context.where, url, reason });
    return { error: `${verb}: ${reason}` };
  }
}

interface Prepared {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | undefined;
  readonly contentType: string;
}

/** The request as the fields describe it, or what is wrong with them (where .NET would throw too). */
function prepared(fields: HttpFields): Prepared | { error: string } {
  if (!Object.hasOwn(VERBS, fields.Method)) return { error: `no method ${fields.Method}` };
  let url: URL;
  try {
    url = new URL(fields.RequestUri);
  } catch {
    return { error: `RequestUri "${fields.RequestUri}" is not an absolute URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { error: `RequestUri "${fields.RequestUri}" is not an http or https URL` };
  const headers: Record<string, string> = {};
  const seen = new Map<string, string>();
  for (const [name, value] of fields.Headers) {
    if (REFUSED_HEADERS.has(name.toLowerCase())) {
      return { error: `RequestHeaders cannot set ${name}: the request's content and framing set it` };
    }
    // Two keys that differ only in case are two entries of the Dictionary, one header of the request.
    const key = seen.get(name.toLowerCase()) ?? name;
    seen.set(name.toLowerCase(), key);
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  const carriesBody = fields.Method === 'POST' || fields.Method === 'PUT' || fields.Method === 'PATCH';
  if (!carriesBody || fields.Content === '') {
    return { url: url.href, method: fields.Method, headers, body: undefined, contentType: '' };
  }
  if (!iconv.encodingExists(fields.Encoding)) return { error: `Encoding "${fields.Encoding}" is not known` };
  if (!MEDIA_TYPE.test(fields.MediaType))
    return { error: `MediaType "${fields.MediaType}" is not a media type` };
  return {
    url: url.href,
    method: fields.Method,
    headers,
    body: iconv.encode(fields.Content, fields.Encoding),
    contentType: `${fields.MediaType}; charset=${fields.Encoding.toLowerCase()}`,
  };
}

/** The reference's GetTimeOut, then bounded by the time the script has left. */
function timeOutMs(timeOut: number, left: number): number {
  const own =
    Number.isFinite(timeOut) && timeOut >= 0 && timeOut <= TIME_OUT_MAX ? timeOut : TIME_OUT_OUTSIDE;
  return Math.min(own === 0 ? Number.POSITIVE_INFINITY : own, left + DEADLINE_MARGIN_MS);
}

function notNamed(host: string, allowList: HostAllowList): string {
  return `${host} is not in ${allowList.setting}, so Kiroku does not ask it`;
}

/**
 * Where .NET's HttpClient goes next after `response`, or undefined when it stays: not a redirect, no
 * Location, a scheme other than http(s), or https to http. 301 and 302 turn a POST into a GET, 303 any
 * method but HEAD; 307 and 308 keep the method and the body.
 */
function redirected(
  from: string,
  method: string,
  response: OutboundResponse,
): { url: string; method: string } | undefined {
  const { status } = response;
  if (![300, 301, 302, 303, 307, 308].includes(status) || !response.headers.location) return undefined;
  let target: URL;
  try {
    target = new URL(response.headers.location, from);
  } catch {
    return undefined;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return undefined;
  if (target.protocol === 'http:' && new URL(from).protocol === 'https:') return undefined;
  target.hash = '';
  const toGet = status === 303 ? method !== 'HEAD' : status <= 302 && method === 'POST';
  return { url: target.href, method: toGet ? 'GET' : method };
}

function answered(response: OutboundResponse, verb: string, context: ScriptCallContext): HttpAnswer {
  const headers: [string, string][] = [];
  for (let at = 0; at + 1 < response.rawHeaders.length; at += 2) {
    headers.push([response.rawHeaders[at] as string, response.rawHeaders[at + 1] as string]);
  }
  if (response.truncated) {
    const limit = settings().Script.ServerScriptHttpClientMaxResponseBytes;
    const reason = `the answer's body is larger than Script.ServerScriptHttpClientMaxResponseBytes (${limit} bytes)`;
    logger.warn('server script httpClient answer too large', { ...context.where, reason });
    return { status: response.status, headers, error: `${verb}: ${reason}` };
  }
  return { status: response.status, headers, body: decoded(response) };
}

/** The body in the charset its Content-Type names, UTF-8 otherwise, as .NET's ReadAsStringAsync reads it. */
function decoded(response: OutboundResponse): string {
  const type = String(response.headers['content-type'] ?? '');
  const charset = /;\s*charset=([^;\s]+)/i.exec(type)?.[1]?.replace(/^"|"$/g, '');
  return iconv.decode(response.body, charset && iconv.encodingExists(charset) ? charset : 'utf-8');
}
