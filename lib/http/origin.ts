import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** Whether the caller came over https, as API Gateway (or the local gateway) saw it. */
export function isHttps(event: APIGatewayProxyEventV2): boolean {
  return (event.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim() === 'https';
}

/**
 * The origin the request was sent to (`https://kiroku.example.com`), as a browser writes it in `Origin`:
 * the scheme API Gateway saw and the `Host` the browser asked for. A base path is no part of an origin.
 */
export function ownOrigin(event: APIGatewayProxyEventV2): string | undefined {
  const host = event.headers.host ?? event.requestContext.domainName;
  return canonicalOrigin(`${isHttps(event) ? 'https' : 'http'}://${host}`);
}

/** An origin as the URL parser writes it (lower case, no default port); undefined for `null` or garbage. */
export function canonicalOrigin(text: string): string | undefined {
  try {
    const origin = new URL(text.trim()).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
