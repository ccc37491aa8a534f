import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/** The `$default` function as AWS runs it: a stand-in for Lambda's Invoke API takes its invocations. */

let server: Server;
const invoked: { name: string; event: APIGatewayProxyEventV2 }[] = [];
let fail = false;
let handler: (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      const name = /functions\/([^/]+)\/invocations/.exec(request.url ?? '')?.[1] ?? '';
      invoked.push({ name, event: JSON.parse(body) });
      if (fail) response.setHeader('x-amz-function-error', 'Unhandled');
      response.end(JSON.stringify(fail ? { errorMessage: 'boom' } : { statusCode: 200, body: name }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'AKID',
    AWS_SECRET_ACCESS_KEY: 'secret',
    KIROKU_FUNCTION_PREFIX: 'KirokuStack-',
    KIROKU_LAMBDA_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
  ({ handler } = await import('../../../functions/route-fallback'));
});
afterAll(async () => {
  for (const name of [
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'KIROKU_FUNCTION_PREFIX',
    'KIROKU_LAMBDA_ENDPOINT',
  ])
    delete process.env[name];
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  invoked.length = 0;
  fail = false;
});

function event(method: string, path: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    requestContext: {
      accountId: '1',
      apiId: 'api',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: 'request-1',
      routeKey: '$default',
      stage: '$default',
      time: '',
      timeEpoch: 0,
    },
    body: '{}',
    isBase64Encoded: false,
  };
}

const context = { awsRequestId: 'r', functionName: 'f', getRemainingTimeInMillis: () => 1000 } as Context;
const run = async (method: string, path: string) =>
  (await handler(event(method, path), context)) as APIGatewayProxyStructuredResultV2;

describe('functions/route-fallback', () => {
  it('invokes the function of a route spelt in another case, with the event of its route key', async () => {
    expect(await run('POST', '/API/Items/42/GET')).toEqual({
      statusCode: 200,
      body: 'KirokuStack-items-get',
    });
    expect(invoked).toHaveLength(1);
    expect(invoked[0]?.name).toBe('KirokuStack-items-get');
    expect(invoked[0]?.event).toMatchObject({
      routeKey: 'POST /api/items/{id}/get',
      rawPath: '/API/Items/42/GET',
      pathParameters: { id: '42' },
      requestContext: { routeKey: 'POST /api/items/{id}/get', http: { path: '/API/Items/42/GET' } },
      body: '{}',
    });
  });

  it("answers API Gateway's 500 when the route's function fails", async () => {
    fail = true;
    expect(await run('POST', '/api/SESSIONS/get')).toMatchObject({
      statusCode: 500,
      body: '{"message":"Internal Server Error"}',
    });
  });

  it.each([
    [
      'POST',
      '/api/extended/sql',
      404,
      'The operation extended/sql of Pleasanter is not available in Kiroku.',
    ],
    [
      'POST',
      '/api/Items/7/SynchronizeSummaries',
      404,
      'The operation items/synchronizesummaries of Pleasanter is not available in Kiroku.',
    ],
    ['POST', '/api/nothing', 404, 'The specified information was not found.'],
    ['GET', '/api/Sessions/Get', 405, 'The method is not allowed for this path.'],
  ])('answers %s %s itself: %i', async (method, path, status, message) => {
    const answer = await run(method, path);
    expect(answer.statusCode).toBe(status);
    expect(JSON.parse(answer.body ?? '{}')).toMatchObject({ StatusCode: status, Message: message });
    expect(invoked).toEqual([]);
  });
});
