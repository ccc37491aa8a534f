import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { NotFoundError } from '../../../lib/errors';
import { endpoint } from '../../../lib/http/api';
import { apiResult } from '../../../lib/http/response';
import type { Route } from '../../../lib/routes/route';

/** A route entry for a test handler that anyone may call. */
function route(options: Partial<Route> = {}): Route {
  return {
    method: 'POST',
    path: '/test/{id}',
    handler: 'test',
    tables: {},
    summary: 'test',
    response: z.unknown(),
    auth: false,
    ...options,
  };
}

function event(body: string, id?: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /test/{id}',
    rawPath: '/test',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    pathParameters: id === undefined ? undefined : { id },
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: 'POST', path: '/test', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: 'request-1',
      routeKey: 'POST /test/{id}',
      stage: '$default',
      time: '',
      timeEpoch: 0,
    },
    body,
    isBase64Encoded: false,
  };
}

const context = {
  awsRequestId: 'request-1',
  functionName: 'test',
  getRemainingTimeInMillis: () => 1000,
} as Context;

async function invoke(handler: (e: APIGatewayProxyEventV2, c: Context) => unknown, body = '{}', id?: string) {
  return (await handler(event(body, id), context)) as APIGatewayProxyStructuredResultV2;
}

describe('http stack', () => {
  describe('envelope', () => {
    it('turns an unexpected failure into the generic 500, with no stack trace', async () => {
      const handler = endpoint(route(), async () => {
        throw new TypeError('secret detail at /var/task/index.mjs:1');
      });
      const response = await invoke(handler);
      expect(response.statusCode).toBe(500);
      expect(JSON.parse(String(response.body))).toEqual({
        Id: 0,
        StatusCode: 500,
        Message: 'An internal server error occurred.',
      });
    });

    it('answers a known error with its status, message and the path id', async () => {
      const handler = endpoint(route(), async () => {
        throw new NotFoundError('reason for the log only');
      });
      const response = await invoke(handler, '{}', '42');
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe(
        '{"Id":42,"StatusCode":404,"Message":"The specified information was not found."}',
      );
    });

    it('leaves out null properties and keeps zero and false', async () => {
      const handler = endpoint(route(), async () =>
        apiResult({ message: 'ok' }, { Nothing: null, Zero: 0, No: false }),
      );
      expect((await invoke(handler)).body).toBe(
        '{"Id":0,"StatusCode":200,"Message":"ok","Zero":0,"No":false}',
      );
    });

    it('answers HTTP 200 with the outcome in the body for "processed" endpoints', async () => {
      const handler = endpoint(
        route({ request: z.object({ Id: z.number() }), status: 'processed' }),
        async () => apiResult({ message: 'ok' }),
      );
      const response = await invoke(handler, '{"Id":"x"}');
      expect(response.statusCode).toBe(200);
      expect(JSON.parse(String(response.body)).StatusCode).toBe(400);
    });
  });
});
