import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FunctionFailedError, invokeFunction, PayloadTooLargeError } from '../../../lib/http/lambda-invoke';

let server: Server;
let endpoint: string;
const received: { url: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body });
      if (request.url?.includes('too-large')) {
        response.statusCode = 413;
        response.setHeader('x-amzn-errortype', 'RequestTooLargeException');
      }
      if (request.url?.includes('failing')) response.setHeader('x-amz-function-error', 'Unhandled');
      response.end(
        request.url?.includes('failing') ? '{"errorMessage":"boom"}' : JSON.stringify({ statusCode: 201 }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const env = () => ({
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'AKID',
  AWS_SECRET_ACCESS_KEY: 'secret',
  AWS_SESSION_TOKEN: 'token',
  KIROKU_LAMBDA_ENDPOINT: endpoint,
});

describe('lib/http/lambda-invoke', () => {
  describe('invokeFunction', () => {
    it('posts the payload to the Invoke API, signed with the session token, and answers the result', async () => {
      received.length = 0;
      expect(await invokeFunction('Stack-items-get', { a: 1 }, env())).toEqual({ statusCode: 201 });
      expect(received).toEqual([
        expect.objectContaining({
          url: '/2015-03-31/functions/Stack-items-get/invocations',
          body: '{"a":1}',
        }),
      ]);
      expect(received[0]?.headers).toMatchObject({
        'x-amz-security-token': 'token',
        authorization: expect.stringMatching(
          /^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-west-1\/lambda\/aws4_request, /,
        ),
      });
    });

    it('throws FunctionFailedError when the function failed', async () => {
      await expect(invokeFunction('failing', {}, env())).rejects.toBeInstanceOf(FunctionFailedError);
    });

    it('throws PayloadTooLargeError when Lambda refuses the payload as too large', async () => {
      await expect(invokeFunction('too-large', {}, env())).rejects.toBeInstanceOf(PayloadTooLargeError);
    });

    it('refuses to run without credentials', async () => {
      await expect(invokeFunction('x', {}, { AWS_REGION: 'eu-west-1' })).rejects.toThrow(/credentials/);
    });
  });
});
