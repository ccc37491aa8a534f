import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * API Gateway HTTP API's side of an invocation: the payload format 2.0 event, as API Gateway builds it
 * (local/gateway.ts serves it over HTTP; the matching is lib/routes/match.ts).
 */

/** Bodies of these media types reach the handler as UTF-8 text; all others base64-encoded. */
export const TEXT_TYPES =
  /^(text\/.*|application\/json|application\/x-www-form-urlencoded|application\/xml)$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export interface EventParts {
  rawPath: string;
  url: URL;
  routeKey: string;
  body: Buffer;
  isText: boolean;
  pathParameters: Record<string, string> | undefined;
}

export function buildEvent(request: IncomingMessage, parts: EventParts): APIGatewayProxyEventV2 {
  const sourceIp = (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  const headers: Record<string, string> = {};
  let cookies: string[] = [];
  for (const [name, values] of Object.entries(request.headersDistinct)) {
    if (!values) continue;
    // API Gateway hands cookies over only in `cookies`, one entry per cookie.
    if (name === 'cookie') cookies = values.flatMap((value) => value.split(/;\s*/)).filter(Boolean);
    else headers[name] = values.join(',');
  }
  headers['x-forwarded-for'] = headers['x-forwarded-for']
    ? `${headers['x-forwarded-for']}, ${sourceIp}`
    : sourceIp;
  headers['x-forwarded-proto'] = 'http';
  headers['x-forwarded-port'] = String(request.socket.localPort ?? '');
  const query: Record<string, string> = {};
  for (const [key, value] of parts.url.searchParams)
    query[key] = key in query ? `${query[key]},${value}` : value;
  const domainName = (headers.host ?? 'localhost').replace(/:\d+$/, '');
  const now = new Date();
  return {
    version: '2.0',
    routeKey: parts.routeKey,
    rawPath: parts.rawPath,
    rawQueryString: parts.url.search.slice(1),
    ...(cookies.length > 0 && { cookies }),
    headers,
    ...(parts.url.search.length > 1 && { queryStringParameters: query }),
    ...(parts.pathParameters &&
      Object.keys(parts.pathParameters).length > 0 && { pathParameters: parts.pathParameters }),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: {
        method: request.method ?? 'GET',
        path: parts.rawPath,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: parts.routeKey,
      stage: '$default',
      time: apiGatewayTime(now),
      timeEpoch: now.getTime(),
    },
    ...(parts.body.length > 0 && { body: parts.body.toString(parts.isText ? 'utf8' : 'base64') }),
    isBase64Encoded: parts.body.length > 0 && !parts.isText,
  };
}

/** `12/Mar/2020:19:03:58 +0000`, as API Gateway writes `requestContext.time`. */
function apiGatewayTime(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}
