import { request } from 'node:http';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pathsOf, type Route, routes } from '../../lib/routes';
import { dynamo } from '../../lib/storage/clients';
import { tableName } from '../../lib/storage/tables';
import { type Gateway, type LambdaHandler, MAX_EVENT_BYTES, startGateway } from '../../local/gateway';
import { startStack } from '../fixtures/stack';

interface Invocation {
  name: string;
  event: APIGatewayProxyEventV2;
  context: Context;
}

const invocations: Invocation[] = [];
/** Per-handler behaviour; the default echoes nothing and answers 200. */
const behaviours: Record<string, LambdaHandler> = {};

const loadHandler =
  async (name: string): Promise<LambdaHandler> =>
  (event, context) => {
    invocations.push({ name, event, context });
    const behaviour = behaviours[name];
    return behaviour ? behaviour(event, context) : { statusCode: 200, body: name };
  };

async function only(): Promise<Invocation> {
  expect(invocations).toHaveLength(1);
  return invocations[0] as Invocation;
}

/** Sends a body in 64 KiB chunks with node:http, which (unlike fetch) reports an early answer. */
function rawPost(url: string, size: number, contentType: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': contentType } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('local/gateway', () => {
  let gateway: Gateway;
  let based: Gateway;

  beforeAll(async () => {
    gateway = await startGateway({ port: 0, basePath: '', loadHandler, onError: () => undefined });
    based = await startGateway({ port: 0, basePath: '/kiroku/', loadHandler, onError: () => undefined });
  });
  afterAll(async () => {
    await gateway.close();
    await based.close();
  });
  beforeEach(() => {
    invocations.length = 0;
    for (const name of Object.keys(behaviours)) delete behaviours[name];
  });

  describe('startGateway', () => {
    it('builds a payload format 2.0 event for a JSON request', async () => {
      const response = await fetch(`${gateway.url}/api/users/a%20b/get?x=1&x=2&y=%C3%A9&z`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'X-Custom': 'Value',
          cookie: 'Kiroku_SessionGuid=ABC; other=1',
          'user-agent': 'kiroku-test',
        },
        body: JSON.stringify({ ApiKey: 'k', Text: '日本語' }),
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('users-get');
      const { name, event, context } = await only();
      expect(name).toBe('users-get');
      expect(event).toMatchObject({
        version: '2.0',
        routeKey: 'POST /api/users/{id}/get',
        rawPath: '/api/users/a%20b/get',
        rawQueryString: 'x=1&x=2&y=%C3%A9&z',
        cookies: ['Kiroku_SessionGuid=ABC', 'other=1'],
        queryStringParameters: { x: '1,2', y: 'é', z: '' },
        pathParameters: { id: 'a b' },
        body: '{"ApiKey":"k","Text":"日本語"}',
        isBase64Encoded: false,
        requestContext: {
          accountId: expect.any(String),
          apiId: expect.any(String),
          domainName: '127.0.0.1',
          requestId: expect.any(String),
          routeKey: 'POST /api/users/{id}/get',
          stage: '$default',
          time: expect.stringMatching(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/),
          timeEpoch: expect.any(Number),
          http: {
            method: 'POST',
            path: '/api/users/a%20b/get',
            protocol: 'HTTP/1.1',
            sourceIp: '127.0.0.1',
            userAgent: 'kiroku-test',
          },
        },
      });
      expect(event.headers['x-custom']).toBe('Value');
      expect(event.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(event.headers.cookie).toBeUndefined();
      expect(Object.keys(event.headers).every((key) => key === key.toLowerCase())).toBe(true);
      expect(context).toMatchObject({
        functionName: 'users-get',
        functionVersion: '$LATEST',
        memoryLimitInMB: '1024',
      });
      expect(context.getRemainingTimeInMillis()).toBeGreaterThan(29_000);
      expect(context.getRemainingTimeInMillis()).toBeLessThanOrEqual(30_000);
    });

    it('joins repeated headers with commas', async () => {
      await new Promise<void>((resolve, reject) => {
        // Raw header pairs, so that Node sends the header twice; a raw list must carry Host itself.
        const req = request(`${gateway.url}/api/sessions/get`, {
          method: 'POST',
          headers: ['Host', new URL(gateway.url).host, 'X-Multi', 'a', 'X-Multi', 'b'],
        });
        req.on('response', (res) => res.resume().on('end', resolve));
        req.on('error', reject);
        req.end();
      });
      const { event } = await only();
      expect(event.headers['x-multi']).toBe('a,b');
      expect(event.body).toBeUndefined();
      expect(event.isBase64Encoded).toBe(false);
    });

    it('passes a multipart body base64-encoded, byte for byte', async () => {
      const form = new FormData();
      const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
      form.append('file', new Blob([bytes]), 'bytes.bin');
      await fetch(`${gateway.url}/api/users/1/update`, { method: 'POST', body: form });
      const { event } = await only();
      expect(event.isBase64Encoded).toBe(true);
      expect(event.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      const body = Buffer.from(event.body ?? '', 'base64');
      expect(body.includes(Buffer.from(bytes))).toBe(true);
    });

    it('writes set-cookie headers, status and a base64 body from a structured result', async () => {
      behaviours['users-authenticate'] = () => ({
        statusCode: 201,
        headers: { 'content-type': 'application/octet-stream', 'x-count': 3 },
        cookies: ['a=1; Path=/; HttpOnly', 'b=2; Path=/'],
        body: Buffer.from([0, 1, 2, 255]).toString('base64'),
        isBase64Encoded: true,
      });
      const response = await fetch(`${gateway.url}/users/authenticate`, { method: 'POST' });
      expect(response.status).toBe(201);
      expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/; HttpOnly', 'b=2; Path=/']);
      expect(response.headers.get('x-count')).toBe('3');
      expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from([0, 1, 2, 255]));
    });

    it('answers a simple result as 200 JSON', async () => {
      behaviours['sessions-get'] = () => ({ Hello: 'world' });
      const response = await fetch(`${gateway.url}/api/sessions/get`, { method: 'POST' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({ Hello: 'world' });
    });

    it('answers 500 like API Gateway when the handler throws', async () => {
      behaviours['sessions-set'] = () => {
        throw new Error('boom');
      };
      const response = await fetch(`${gateway.url}/api/sessions/set`, { method: 'POST' });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ message: 'Internal Server Error' });
    });

    it('sends unknown paths and wrong methods to the $default route', async () => {
      for (const [method, path] of [
        ['POST', '/api/nothing'],
        ['GET', '/api/sessions/get'],
        ['GET', '/API/Sessions/get'],
        ['POST', '/api/users//get'],
        ['POST', '/api/sessions/get/'],
      ] as const) {
        invocations.length = 0;
        await fetch(`${gateway.url}${path}`, { method });
        const { name, event } = await only();
        expect({ path, name, routeKey: event.routeKey }).toEqual({
          path,
          name: 'route-fallback',
          routeKey: '$default',
        });
        expect(event.pathParameters).toBeUndefined();
      }
    });

    // Generated from the route table: each path with its literal segments in another case reaches the
    // route's handler with the route key and path parameters API Gateway gives its own spelling, and
    // the values (here a lower-case GUID, a mixed-case asset name) exactly as they were sent.
    it.each(
      (routes as readonly Route[]).flatMap((route) =>
        pathsOf(route).map((path) => [route.method, path, route.handler]),
      ),
    )('runs %s %s spelt in another case by its own handler', async (method, path, handler) => {
      const values: Record<string, string> = { guid: '0123456789abcdef0123456789abcdef', file: 'App-X.js' };
      const parameters: Record<string, string> = {};
      const spelt = path
        .split('/')
        .map((segment) => {
          const name = /^\{(\w+)\}$/.exec(segment)?.[1];
          if (!name) return [...segment].map((c, i) => (i % 2 ? c.toLowerCase() : c.toUpperCase())).join('');
          parameters[name] = values[name] ?? '12';
          return parameters[name];
        })
        .join('/');
      await fetch(`${gateway.url}${spelt}`, { method });
      const { name, event } = await only();
      // A case-only alias (`/api/backgroundtasks/...`) is the same path: its route's own spelling answers.
      const key = `${method} ${path}`.toLowerCase();
      expect(name).toBe(handler);
      expect(event.routeKey.toLowerCase()).toBe(key);
      expect(event.requestContext.routeKey).toBe(event.routeKey);
      expect(event.rawPath).toBe(spelt);
      expect(event.pathParameters).toEqual(Object.keys(parameters).length > 0 ? parameters : undefined);
    });

    it('strips the base path before matching and keeps it in rawPath', async () => {
      expect(based.url).toMatch(/\/kiroku$/);
      await fetch(`${based.url}/api/groups/7/get`, { method: 'POST' });
      const { name, event } = await only();
      expect(name).toBe('groups-get');
      expect(event.rawPath).toBe('/kiroku/api/groups/7/get');
      expect(event.requestContext.http.path).toBe('/kiroku/api/groups/7/get');
      expect(event.pathParameters).toEqual({ id: '7' });

      invocations.length = 0;
      await fetch(`${based.url.replace('/kiroku', '')}/api/groups/7/get`, { method: 'POST' });
      expect((await only()).name).toBe('route-fallback');
      invocations.length = 0;
      await fetch(`${based.url.replace('/kiroku', '/kirokux')}/api/groups/7/get`, { method: 'POST' });
      expect((await only()).name).toBe('route-fallback');
    });

    it('answers 413 without invoking when the event would exceed 6 MB', async () => {
      // 4.8 MB of binary is 6.4 MB of base64: too large, though the raw body is under 6 MB.
      const binary = await rawPost(
        `${gateway.url}/api/users/1/update`,
        4_800_000,
        'multipart/form-data; boundary=x',
      );
      expect(binary.status).toBe(413);
      expect(JSON.parse(binary.body)).toEqual({
        Id: 0,
        StatusCode: 413,
        Message: 'The request is too large.',
      });
      const text = await rawPost(
        `${gateway.url}/api/users/1/update`,
        MAX_EVENT_BYTES + 1,
        'application/json',
      );
      expect(text.status).toBe(413);
      expect(invocations).toHaveLength(0);

      const response = await fetch(`${gateway.url}/api/users/1/update`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'x'.repeat(MAX_EVENT_BYTES + 10),
      });
      expect(response.status).toBe(413);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(invocations).toHaveLength(0);

      // Just under the limit still arrives.
      await rawPost(`${gateway.url}/api/users/1/update`, 4_000_000, 'application/octet-stream');
      expect((await only()).event.body?.length).toBe(Math.ceil(4_063_232 / 3) * 4);
    });
  });
});

describe('test/fixtures/stack', () => {
  describe('startStack', () => {
    it('gives each stack its own tables and bucket, and serves the handlers under the base path', async () => {
      const handler: LambdaHandler = async (event) => {
        const Key = { SessionGuid: 'g', Key: 'k' };
        await dynamo().send(
          new PutCommand({ TableName: tableName('sessions'), Item: { ...Key, Value: event.body } }),
        );
        const { Item } = await dynamo().send(new GetCommand({ TableName: tableName('sessions'), Key }));
        return {
          statusCode: 200,
          body: JSON.stringify({ value: Item?.Value, bucket: process.env.KIROKU_BUCKET }),
        };
      };
      const first = await startStack({ basePath: '/kiroku', loadHandler: async () => handler });
      try {
        expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/kiroku$/);
        expect(process.env.KIROKU_TABLE_SESSIONS).toBe(first.tables.sessions);
        const response = await fetch(`${first.url}/api/sessions/set`, { method: 'POST', body: 'v1' });
        expect(await response.json()).toEqual({ value: 'v1', bucket: first.bucket });
      } finally {
        await first.close();
      }
      const second = await startStack();
      try {
        expect(second.tables.sessions).not.toBe(first.tables.sessions);
        expect(second.bucket).not.toBe(first.bucket);
        const { Item } = await dynamo().send(
          new GetCommand({ TableName: second.tables.sessions, Key: { SessionGuid: 'g', Key: 'k' } }),
        );
        expect(Item).toBeUndefined();
      } finally {
        await second.close();
      }
    });
  });
});
