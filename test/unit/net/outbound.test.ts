import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostAllowList } from '../../../lib/net/addresses';
import { outboundRequest, RefusedRequestError, RequestTimeoutError } from '../../../lib/net/outbound';

/** A receiver on 127.0.0.1: the only addresses a test can listen on are the ones the checks refuse. */
let server: Server;
let port: number;
let requests = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests++;
    if (request.url === '/redirect') {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    } else if (request.url === '/large') {
      response.writeHead(500).end('x'.repeat(200_000));
    } else if (request.url === '/hang') {
      // Never answers.
    } else {
      response.writeHead(200).end('ok');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const request = (url: string, allowed: readonly string[] = [], timeoutMs = 2_000) =>
  outboundRequest({
    url,
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'hello',
    timeoutMs,
    maxResponseBytes: 1024,
    allowList: hostAllowList(allowed, 'Notification.AllowedHosts'),
  });

describe('lib/net/outbound', () => {
  describe('outboundRequest', () => {
    it.each([
      ['an IPv4 loopback literal', (p: number) => `http://127.0.0.1:${p}/`, 'a loopback address'],
      ['a name that resolves to loopback', (p: number) => `http://localhost:${p}/`, 'a loopback address'],
      ['an IPv4-mapped IPv6 literal', (p: number) => `http://[::ffff:127.0.0.1]:${p}/`, 'a loopback address'],
      ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/', 'a linkLocal address'],
      ['a private literal', () => 'http://10.0.0.1/', 'a private address'],
      ['an unspecified address', (p: number) => `http://0.0.0.0:${p}/`, 'an unspecified address'],
      ['a file URL', () => 'file:///etc/passwd', 'only http and https'],
    ])('refuses %s before connecting', async (_case, url, why) => {
      const before = requests;
      const refused = request(url(port));
      await expect(refused).rejects.toBeInstanceOf(RefusedRequestError);
      await expect(refused).rejects.toThrow(why.replace(/^an? /, ''));
      expect(requests).toBe(before);
    });

    it.each([
      ['by address', ['127.0.0.1'], '127.0.0.1'],
      ['by CIDR range', ['127.0.0.0/8'], '127.0.0.1'],
      ['by name', ['localhost'], 'localhost'],
    ])('connects when the allow list names the host %s', async (_case, allowed, host) => {
      const response = await request(`http://${host}:${port}/`, allowed);
      expect(response.status).toBe(200);
      expect(response.body.toString()).toBe('ok');
    });

    it('does not follow a redirect: the 3xx is the answer', async () => {
      const response = await request(`http://127.0.0.1:${port}/redirect`, ['127.0.0.1']);
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe('http://169.254.169.254/latest/meta-data/');
    });

    it('reads at most maxResponseBytes of the answer', async () => {
      const response = await request(`http://127.0.0.1:${port}/large`, ['127.0.0.1']);
      expect(response.status).toBe(500);
      expect(response.body.length).toBe(1024);
      expect(response.truncated).toBe(true);
    });

    it('gives up on a receiver that does not answer in time', async () => {
      const started = Date.now();
      await expect(request(`http://127.0.0.1:${port}/hang`, ['127.0.0.1'], 300)).rejects.toBeInstanceOf(
        RequestTimeoutError,
      );
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('checks a kept-alive connection again under a list that no longer names its host', async () => {
      // A name, so that only the socket's own check stands between the reused connection and the request.
      await request(`http://localhost:${port}/`, ['localhost']);
      const before = requests;
      await expect(request(`http://localhost:${port}/`)).rejects.toBeInstanceOf(RefusedRequestError);
      expect(requests).toBe(before);
    });
  });
});
