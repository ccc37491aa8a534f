import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { normalizeBasePath, pathBelowBase } from '../lib/config/base-path';
import { logger } from '../lib/log';
import { fallbackHandler, type Route, routes } from '../lib/routes';
import { resolveFallback } from '../lib/routes/fallback';
import { compileRoutes, matchRoute } from '../lib/routes/match';
import { buildEvent, TEXT_TYPES } from './http-api-event';
import { DEFAULT_TIMEOUT_MS, lambdaContext } from './lambda-context';

/**
 * The local API Gateway HTTP API: payload format 2.0 events built from plain HTTP requests, routed by
 * lib/routes to the same handler modules Lambda runs, with API Gateway's matching (and the `$default`
 * fallback's matching in another case), size limit and error answers, so that a handler cannot behave
 * differently locally than deployed.
 */

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => unknown;
export type HandlerLoader = (name: string) => Promise<LambdaHandler>;

export interface GatewayOptions {
  readonly port?: number;
  readonly host?: string;
  /** Sub-directory deployment, e.g. '/kiroku'; defaults to KIROKU_BASE_PATH. */
  readonly basePath?: string;
  /** Where `<handler>.ts` modules live; the repository's functions/ by default. */
  readonly functionsDir?: string;
  /** Replaces module loading, for tests with fixture handlers. */
  readonly loadHandler?: HandlerLoader;
  readonly routes?: readonly Route[];
  readonly timeoutMs?: number;
  /** Where a handler's failure is reported; stderr by default. */
  readonly onError?: (error: unknown, event: APIGatewayProxyEventV2) => void;
}

export interface Gateway {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Lambda's synchronous invocation payload limit, which the event must fit (binary bodies as base64). */
export const MAX_EVENT_BYTES = 6 * 1024 * 1024;

export async function startGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const basePath = normalizeBasePath(options.basePath ?? process.env.KIROKU_BASE_PATH);
  const functionsDir = options.functionsDir ?? fileURLToPath(new URL('../functions', import.meta.url));
  const modules = new Map<string, Promise<LambdaHandler>>();
  const load: HandlerLoader =
    options.loadHandler ??
    (async (name) => {
      const module: { handler?: unknown } = await import(
        pathToFileURL(join(functionsDir, `${name}.ts`)).href
      );
      if (typeof module.handler !== 'function') throw new Error(`functions/${name}.ts exports no handler`);
      return module.handler as LambdaHandler;
    });
  const handlerFor = (name: string) => {
    let loaded = modules.get(name);
    if (!loaded) {
      loaded = load(name);
      modules.set(name, loaded);
      loaded.catch(() => modules.delete(name)); // a module fixed on disk is retried on the next request
    }
    return loaded;
  };
  const table = compileRoutes(options.routes ?? routes);
  const onError = options.onError ?? ((error: unknown) => logger.error('handler failed', error as Error));

  // Idle keep-alive connections live longer than a client's own pool keeps them (API Gateway and load
  // balancers keep them about a minute): with Node's 5 s, a client reusing a socket just as the server
  // closes it gets a connection reset instead of an answer.
  const server = createServer(
    { maxHeaderSize: MAX_HEADER_BYTES, keepAliveTimeout: 65_000, headersTimeout: 66_000 },
    (request, response) => {
      void serve(request, response).catch((error: unknown) => {
        logger.error('local gateway failed', error as Error);
        if (!response.headersSent) send(response, 500, { message: 'Internal Server Error' });
        else response.destroy();
      });
    },
  );

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const rawPath = url.pathname;
    const method = request.method ?? 'GET';
    const contentType = header(request, 'content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
    const isText = TEXT_TYPES.test(contentType);
    const body = await readBody(request, isText);
    if (!body) return tooLarge(request, response);

    const routePath = pathBelowBase(rawPath, basePath);
    const match =
      routePath !== undefined
        ? (matchRoute(table, method, routePath) ?? inOtherCase(method, routePath))
        : undefined;
    const routeKey = match ? `${match.route.method} ${match.route.path}` : '$default';
    const event = buildEvent(request, {
      rawPath,
      url,
      routeKey,
      body,
      isText,
      pathParameters: match?.parameters,
    });
    if (mayExceedLimit(body, isText) && eventBytes(event) > MAX_EVENT_BYTES) {
      return tooLarge(request, response);
    }

    const handlerName = match ? match.route.handler : fallbackHandler;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let result: unknown;
    try {
      const handler = await handlerFor(handlerName);
      result = await withTimeout(
        Promise.resolve(handler(event, lambdaContext(handlerName, timeoutMs))),
        timeoutMs,
      );
    } catch (error) {
      if (error === TIMEOUT) return send(response, 503, { message: 'Service Unavailable' }, event);
      onError(error, event);
      return send(response, 500, { message: 'Internal Server Error' }, event);
    }
    writeResult(response, result, event);
  }

  /**
   * What API Gateway's case-sensitive matching sends to `$default` is, when a route matches it ignoring
   * case, run by that route's function (functions/route-fallback.ts invokes it in AWS). The local gateway
   * takes that step itself, with the same resolution and the same route key and path parameters, so that
   * the handler sees the event it sees in AWS; the fallback handler then answers only the 404s and 405s.
   */
  function inOtherCase(method: string, path: string) {
    const found = resolveFallback(method, path, table);
    return found.kind === 'route' ? found.match : undefined;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}${basePath}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** Reads the body, or answers undefined as soon as it cannot fit the event, without buffering further. */
function readBody(request: IncomingMessage, isText: boolean): Promise<Buffer | undefined> {
  const encoded = (bytes: number) => (isText ? bytes : Math.ceil(bytes / 3) * 4);
  const declared = Number(request.headers['content-length'] ?? 0);
  if (encoded(declared) > MAX_EVENT_BYTES) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (encoded(size) > MAX_EVENT_BYTES) {
        request.removeAllListeners('data');
        request.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/**
 * Whether the event could be over the limit: everything but the body is bounded by Node's 16 KiB header
 * limit, so only an event whose body comes near the limit is serialized to be measured exactly.
 */
function mayExceedLimit(body: Buffer, isText: boolean): boolean {
  // JSON escaping turns one byte into at most six (\u0000); base64 turns three into four.
  const encoded = isText ? body.length * 6 : Math.ceil(body.length / 3) * 4;
  return encoded + EVENT_OVERHEAD_BOUND > MAX_EVENT_BYTES;
}

/**
 * The event's size as Lambda receives it (JSON). A base64 body needs no escaping, so it is counted rather
 * than serialized again: for a 4 MiB upload chunk that saves copying 5.6 MB once more per request.
 */
function eventBytes(event: APIGatewayProxyEventV2): number {
  if (!event.isBase64Encoded || event.body === undefined) return Buffer.byteLength(JSON.stringify(event));
  return Buffer.byteLength(JSON.stringify({ ...event, body: '' })) + event.body.length;
}

const MAX_HEADER_BYTES = 16 * 1024;
/** Headers (repeated as cookies and in requestContext, escaped) plus the event's fixed fields. */
const EVENT_OVERHEAD_BOUND = 8 * MAX_HEADER_BYTES;

/**
 * The 413 as API Gateway gives it, readable by a client that is still sending (it reads only once its
 * body is out). Closing the socket with the rest of the body unread would make the kernel answer the
 * incoming bytes with a reset, which discards the 413 on the client's side before it reads it; so the
 * rest is read and dropped (a lingering close, as nginx does) until the client is done, for at most
 * LINGER_MS and LINGER_BYTES, and the connection closes after that.
 */
function tooLarge(request: IncomingMessage, response: ServerResponse): void {
  response.setHeader('connection', 'close');
  lingerOnClose(request.socket);
  request.removeAllListeners('data');
  request.resume();
  response.writeHead(413, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify({ Id: 0, StatusCode: 413, Message: 'The request is too large.' }));
}

const LINGER_MS = 10_000;
const LINGER_BYTES = 64 * 1024 * 1024;

/**
 * Node's HTTP server ends a `Connection: close` exchange with socket.destroySoon() once the answer is
 * flushed; for this socket that becomes: send FIN, keep reading and dropping, destroy when the client
 * closes its side or the bounds are reached.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    let dropped = 0;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) socket.destroy();
    });
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(timer));
    socket.resume();
  };
}

function send(response: ServerResponse, status: number, body: unknown, event?: APIGatewayProxyEventV2): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    ...(event && { 'apigw-requestid': event.requestContext.requestId }),
  });
  response.end(JSON.stringify(body));
}

function writeResult(response: ServerResponse, result: unknown, event: APIGatewayProxyEventV2): void {
  if (typeof result !== 'object' || result === null || !('statusCode' in result)) {
    // A "simple" 2.0 response: whatever the function returned becomes a 200 JSON body.
    send(response, 200, result ?? null, event);
    return;
  }
  const structured = result as APIGatewayProxyStructuredResultV2;
  if (typeof structured.statusCode !== 'number') {
    send(response, 500, { message: 'Internal Server Error' }, event);
    return;
  }
  response.statusCode = structured.statusCode;
  response.setHeader('apigw-requestid', event.requestContext.requestId);
  for (const [name, value] of Object.entries(structured.headers ?? {}))
    response.setHeader(name, String(value));
  if (structured.cookies?.length) response.setHeader('set-cookie', structured.cookies);
  const body = structured.body ?? '';
  response.end(structured.isBase64Encoded ? Buffer.from(body, 'base64') : body);
}

const TIMEOUT = Symbol('timeout');

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(TIMEOUT), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
