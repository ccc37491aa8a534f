import { createHash, createHmac } from 'node:crypto';

/**
 * A synchronous Lambda Invoke (RequestResponse), for the fallback function that runs a route's function
 * when the path was spelt in another case (lib/routes/fallback.ts). Signed here with Signature Version 4
 * over fetch rather than through @aws-sdk/client-lambda: the one call needs no retries, paginators or
 * waiters, and the bundle of the function that sits in front of mis-cased requests stays small.
 * Credentials are the function's own (Lambda puts its role's in the environment).
 */

export interface Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

export interface SignInput {
  readonly method: string;
  readonly url: URL;
  /** Headers to sign besides host and x-amz-date (lower- or mixed-case names). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: string;
  readonly service: string;
  readonly region: string;
  readonly credentials: Credentials;
  readonly now: Date;
}

/** The headers that make the request signed: every header to send, `authorization` included. */
export function signedHeaders(input: SignInput): Record<string, string> {
  const amzDate = input.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    host: input.url.host,
    'x-amz-date': amzDate,
    ...(input.credentials.sessionToken && { 'x-amz-security-token': input.credentials.sessionToken }),
  };
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  const names = Object.keys(headers).sort();
  const query = [...input.url.searchParams]
    .map(([key, value]) => `${rfc3986(key)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const canonical = [
    input.method,
    // Services other than S3 sign the path encoded once more (each segment of the already-encoded path).
    input.url.pathname
      .split('/')
      .map((segment) => rfc3986(segment))
      .join('/'),
    query,
    ...names.map((name) => `${name}:${(headers[name] ?? '').trim().replace(/\s+/g, ' ')}`),
    '',
    names.join(';'),
    sha256(input.body),
  ].join('\n');
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  let key: Buffer = hmac(`AWS4${input.credentials.secretAccessKey}`, day);
  for (const part of [input.region, input.service, 'aws4_request']) key = hmac(key, part);
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
}

/** The function failed (it threw, timed out or ran out of memory): what API Gateway answers with a 500. */
export class FunctionFailedError extends Error {
  override name = 'FunctionFailedError';
}

/** Lambda refused the payload as over its 6 MB: the re-sent event is a little larger than the one received. */
export class PayloadTooLargeError extends Error {
  override name = 'PayloadTooLargeError';
}

/**
 * Invokes `functionName` with `payload` and answers what the function returned. KIROKU_LAMBDA_ENDPOINT
 * replaces the regional endpoint (a test's stand-in for Lambda).
 */
export async function invokeFunction(
  functionName: string,
  payload: unknown,
  env: NodeJS.ProcessEnv = process.env,
): Promise<unknown> {
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!region || !accessKeyId || !secretAccessKey)
    throw new Error('no AWS region or credentials to invoke with');
  const endpoint = env.KIROKU_LAMBDA_ENDPOINT ?? `https://lambda.${region}.amazonaws.com`;
  const url = new URL(`/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`, endpoint);
  const body = JSON.stringify(payload);
  const headers = signedHeaders({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    body,
    service: 'lambda',
    region,
    credentials: { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN },
    now: new Date(),
  });
  // fetch sets host itself and refuses it as a header.
  const { host: _host, ...sent } = headers;
  const response = await fetch(url, { method: 'POST', headers: sent, body });
  const text = await response.text();
  if (response.status === 413)
    throw new PayloadTooLargeError(`Invoke ${functionName}: ${text.slice(0, 200)}`);
  if (!response.ok)
    throw new Error(`Invoke ${functionName} answered ${response.status}: ${text.slice(0, 500)}`);
  const failure = response.headers.get('x-amz-function-error');
  if (failure) throw new FunctionFailedError(`${functionName} failed (${failure}): ${text.slice(0, 500)}`);
  return text === '' ? null : JSON.parse(text);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** RFC 3986 percent-encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
function rfc3986(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
