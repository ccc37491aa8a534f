import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { endpoint } from '../../../../lib/http/api';
import { apiResult } from '../../../../lib/http/response';

/** A form route (the login's options) whose business answers 200: what the middleware lets through. */
const handler = endpoint(
  {
    method: 'POST',
    path: '/test',
    handler: 'test',
    tables: {},
    summary: 'test',
    response: z.unknown(),
    auth: false,
    form: true,
  },
  async () => apiResult({ message: 'passed' }),
);

/** A request to https://kiroku.example.com (as API Gateway hands it over) with `headers`. */
function event(headers: Record<string, string>, host = 'kiroku.example.com'): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /test',
    rawPath: '/prod/test',
    rawQueryString: '',
    headers: { host, 'x-forwarded-proto': 'https', 'content-type': 'application/json', ...headers },
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: host,
      domainPrefix: 'kiroku',
      http: {
        method: 'POST',
        path: '/prod/test',
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'test',
      },
      requestId: 'request-1',
      routeKey: 'POST /test',
      stage: '$default',
      time: '',
      timeEpoch: 0,
    },
    body: '{}',
    isBase64Encoded: false,
  };
}

const context = {
  awsRequestId: 'request-1',
  functionName: 'test',
  getRemainingTimeInMillis: () => 1000,
} as Context;

async function statusOf(headers: Record<string, string>): Promise<number | undefined> {
  return ((await handler(event(headers), context)) as APIGatewayProxyStructuredResultV2).statusCode;
}

describe('sameOrigin', () => {
  describe('before', () => {
    it.each([
      ['no Origin and no Sec-Fetch-Site (curl, a script)', {}],
      ['its own Origin', { origin: 'https://kiroku.example.com' }],
      ['its own Origin, written with the default port', { origin: 'https://kiroku.example.com:443' }],
      ['its own Origin in other case', { origin: 'HTTPS://Kiroku.Example.com' }],
      [
        'its own Origin, same-origin',
        { origin: 'https://kiroku.example.com', 'sec-fetch-site': 'same-origin' },
      ],
      ['Sec-Fetch-Site none (the address bar)', { 'sec-fetch-site': 'none' }],
    ])('lets through %s', async (_case, headers) => {
      expect(await statusOf(headers)).toBe(200);
    });

    it.each([
      ['another origin', { origin: 'https://evil.example' }],
      ['a sibling subdomain', { origin: 'https://evil.example.com' }],
      ['its own host over http', { origin: 'http://kiroku.example.com' }],
      ['its own host on another port', { origin: 'https://kiroku.example.com:8443' }],
      ['Origin null', { origin: 'null' }],
      ['an Origin that is no URL', { origin: 'kiroku.example.com' }],
      ['Sec-Fetch-Site cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site same-site without Origin', { 'sec-fetch-site': 'same-site' }],
      [
        'its own Origin marked cross-site',
        { origin: 'https://kiroku.example.com', 'sec-fetch-site': 'cross-site' },
      ],
    ])('refuses %s with 403', async (_case, headers) => {
      const response = (await handler(event(headers), context)) as APIGatewayProxyStructuredResultV2;
      expect(response.statusCode).toBe(403);
      expect(JSON.parse(String(response.body)).Message).toMatch(/another site/);
      expect(response.cookies ?? []).toEqual([]);
    });
  });
});
