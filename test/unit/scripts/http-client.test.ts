import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import iconv from 'iconv-lite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSettings, useSettings } from '../../../lib/config/settings';
import { logger } from '../../../lib/log';
import { runScript, runScripts } from '../../fixtures/script-runs';

// httpClient against a receiver on 127.0.0.1, the one address a test can listen on, which is also one
// the checks refuse unless the setting names it.

let server: Server;
let port: number;
let base: string;
let received: { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const path = request.url ?? '';
      if (path === '/hang') return;
      if (path === '/large') return void response.writeHead(200).end('x'.repeat(300_000));
      if (path === '/sjis') {
        response.writeHead(200, { 'Content-Type': 'text/plain; charset=Shift_JIS' });
        return void response.end(iconv.encode('日本語の答え', 'Shift_JIS'));
      }
      if (path === '/missing')
        return void response.writeHead(404, { 'X-Reason': 'none' }).end('no such page');
      const redirects: Record<string, [number, string]> = {
        '/to-metadata': [302, 'http://169.254.169.254/latest/meta-data/'],
        '/to-localhost': [302, `http://localhost:${port}/echo`],
        '/to-echo': [302, '/echo'],
        '/keep-method': [307, '/echo'],
        '/loop': [302, '/loop'],
      };
      const redirect = redirects[path];
      if (redirect) return void response.writeHead(redirect[0], { Location: redirect[1] }).end();
      response.writeHead(200, [
        ['Content-Type', 'application/json'],
        ['X-Custom', 'one'],
        ['Set-Cookie', 'a=1'],
        ['Set-Cookie', 'b=2'],
        ['__proto__', 'p'],
      ]);
      response.end(JSON.stringify({ method: request.method, body: body.toString('utf8') }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  await runScript('model.Title = "warm";');
}, 60_000);
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received = [];
  allow(['127.0.0.1']);
  vi.restoreAllMocks();
  vi.spyOn(logger, 'warn');
});
afterEach(() => useSettings(undefined));

function allow(hosts: string[], script: Record<string, number> = {}): void {
  const base = loadSettings();
  useSettings({
    ...base,
    Script: { ...base.Script, ServerScriptHttpClientAllowedHosts: hosts, ...script },
  });
}

/** Runs the script and answers what it put in `model.Body` (JSON). */
async function seen(body: string, options = {}): Promise<unknown> {
  const model = await runScript(`model.Body = JSON.stringify((() => { ${body} })());`, options);
  return JSON.parse(String(model.Body));
}

/** What the script caught when it called the verb, or 'no error'. */
const caught = (call: string) => `try { ${call}; return 'no error'; } catch (e) { return e.message; }`;

describe('httpClient', () => {
  describe('verbs', () => {
    it.each([
      ['Get', 'GET', ''],
      ['Delete', 'DELETE', ''],
      ['Post', 'POST', '{"a":1}'],
      ['Put', 'PUT', '{"a":1}'],
      ['Patch', 'PATCH', '{"a":1}'],
    ])('%s sends %s (body for the ones that carry it) and answers the body', async (verb, method, body) => {
      const answer = await seen(`
        httpClient.RequestUri = '${base}/echo';
        httpClient.Content = '{"a":1}';
        const text = httpClient.${verb}();
        return [JSON.parse(text), httpClient.StatusCode, httpClient.IsSuccess, httpClient.IsTimeOut];`);
      expect(answer).toEqual([{ method, body }, 200, true, false]);
      const [request] = received;
      expect(request?.headers['content-type']).toBe(body ? 'application/json; charset=utf-8' : undefined);
    });

    it('sends no body when Content is empty, as StringContent is made only for a text', async () => {
      await seen(`httpClient.RequestUri = '${base}/echo'; httpClient.Post(); return 0;`);
      expect(received[0]?.body.length).toBe(0);
      expect(received[0]?.headers['content-type']).toBeUndefined();
    });

    it('encodes the body in Encoding with MediaType, and decodes the answer in its charset', async () => {
      const answer = await seen(`
        httpClient.RequestUri = '${base}/sjis';
        httpClient.Encoding = 'Shift_JIS';
        httpClient.MediaType = 'text/plain';
        httpClient.Content = '日本語';
        return httpClient.Post();`);
      expect(answer).toBe('日本語の答え');
      expect(received[0]?.headers['content-type']).toBe('text/plain; charset=shift_jis');
      expect(iconv.decode(received[0]?.body ?? Buffer.alloc(0), 'Shift_JIS')).toBe('日本語');
    });

    it('answers a 4xx as a response, IsSuccess false', async () => {
      const answer = await seen(`
        httpClient.RequestUri = '${base}/missing';
        return [httpClient.Get(), httpClient.StatusCode, httpClient.IsSuccess,
          httpClient.ResponseHeaders.Item.get('x-reason')];`);
      expect(answer).toEqual(['no such page', 404, false, ['none']]);
    });
  });

  describe('headers', () => {
    it('sends RequestHeaders; Add throws on a key it has; Clear and Remove empty it', async () => {
      const answer = await seen(`
        const h = httpClient.RequestHeaders;
        h.Add('X-Api-Key', 'k1');
        const duplicate = (() => { try { h.Add('X-Api-Key', 'k2'); return 'added'; } catch (e) { return e.message; } })();
        h.Add('X-Other', 'o');
        const removed = h.Remove('X-Other');
        httpClient.RequestUri = '${base}/echo';
        httpClient.Get();
        const count = h.Count;
        h.Clear();
        return [duplicate, removed, count, h.Count, h.ContainsKey('X-Api-Key')];`);
      expect(answer).toEqual([
        'An item with the same key has already been added. Key: X-Api-Key',
        true,
        1,
        0,
        false,
      ]);
      expect(received[0]?.headers['x-api-key']).toBe('k1');
      expect(received[0]?.headers['x-other']).toBeUndefined();
    });

    it('reads ResponseHeaders by Item.get in any case and as properties, every value of a repeated one', async () => {
      const answer = await seen(`
        httpClient.RequestUri = '${base}/echo';
        httpClient.Get();
        const r = httpClient.ResponseHeaders;
        const missing = (() => { ${caught("r.Item.get('nope')")} })();
        return [r.Item.get('x-custom'), r['X-Custom'], r.Item.get('Set-Cookie'), r.ContainsKey('nope'), missing];`);
      expect(answer).toEqual([
        ['one'],
        ['one'],
        ['a=1', 'b=2'],
        false,
        "The given key 'nope' was not present in the dictionary.",
      ]);
    });

    it('keeps a header named __proto__ a header, and lists the names as they came', async () => {
      const answer = await seen(`
        httpClient.RequestUri = '${base}/echo';
        httpClient.Get();
        const r = httpClient.ResponseHeaders;
        return [Object.getPrototypeOf(r) === Object.prototype, r.Item.get('__proto__'),
          r.Keys.slice(0, 4),
          r.Remove('x-custom'), r.ContainsKey('X-Custom'), r['X-Custom']];`);
      expect(answer).toEqual([
        true,
        ['p'],
        ['Content-Type', 'X-Custom', 'Set-Cookie', '__proto__'],
        true,
        false,
        null,
      ]);
    });

    it('resets the response fields at each call', async () => {
      const answer = await seen(`
        httpClient.RequestUri = '${base}/echo';
        httpClient.Get();
        const before = httpClient.ResponseHeaders.ContainsKey('X-Custom');
        httpClient.RequestUri = '${base}/missing';
        httpClient.Get();
        return [before, httpClient.ResponseHeaders.ContainsKey('X-Custom'), httpClient.StatusCode];`);
      expect(answer).toEqual([true, false, 404]);
    });

    it.each([
      ['Content-Type', 'the request'],
      ['Host', 'the request'],
    ])('refuses %s in RequestHeaders, which the content and framing set', async (name) => {
      const answer = await seen(`
        httpClient.RequestHeaders.Add('${name}', 'x');
        httpClient.RequestUri = '${base}/echo';
        ${caught('httpClient.Get()')}`);
      expect(answer).toBe(
        `httpClient.Get: RequestHeaders cannot set ${name}: the request's content and framing set it`,
      );
      expect(received).toHaveLength(0);
    });
  });

  describe('what it may ask', () => {
    it.each([
      [
        'no host is allowed',
        [],
        'BASE/echo',
        'refused: 127.0.0.1 is not in Script.ServerScriptHttpClientAllowedHosts',
      ],
      ['another host is allowed', ['example.com'], 'BASE/echo', 'refused: 127.0.0.1 is not in'],
      [
        'a pattern names the host, which resolves to a loopback address',
        ['*'],
        'http://localhost:PORT/echo',
        'refused: localhost is 127.0.0.1, a loopback address, which Kiroku does not connect to unless Script.ServerScriptHttpClientAllowedHosts names it',
      ],
      [
        'the address, not the name, is allowed',
        ['127.0.0.1'],
        'http://localhost:PORT/echo',
        'refused: localhost is not in',
      ],
      ['the metadata address', ['*'], 'http://169.254.169.254/latest/meta-data/', 'a linkLocal address'],
      ['a file URL', ['*'], 'file:///etc/passwd', 'is not an http or https URL'],
      ['a relative URL', ['*'], '/echo', 'is not an absolute URL'],
    ])('refuses when %s, throwing to the script', async (_case, hosts, url, why) => {
      allow(hosts);
      const target = url.replace('BASE', base).replace('PORT', String(port));
      const answer = await seen(`httpClient.RequestUri = '${target}'; ${caught('httpClient.Get()')}`);
      expect(answer).toContain(`httpClient.Get: `);
      expect(answer).toContain(why);
      expect(received).toHaveLength(0);
    });

    it.each([
      ['by address', ['127.0.0.1'], '127.0.0.1'],
      ['by range', ['127.0.0.0/8'], '127.0.0.1'],
      ['by name', ['LocalHost'], 'localhost'],
    ])('asks a private host the setting names %s', async (_case, hosts, host) => {
      allow(hosts);
      const answer = await seen(
        `httpClient.RequestUri = 'http://${host}:${port}/echo'; return httpClient.Get();`,
      );
      expect(JSON.parse(String(answer))).toEqual({ method: 'GET', body: '' });
    });

    it('logs a refusal with the script, its site and condition', async () => {
      allow([]);
      await seen(`httpClient.RequestUri = '${base}/echo'; ${caught('httpClient.Get()')}`);
      expect(logger.warn).toHaveBeenCalledWith(
        'server script httpClient refused',
        expect.objectContaining({
          siteId: 10,
          condition: 'BeforeUpdate',
          script: 'test',
          url: `${base}/echo`,
        }),
      );
    });

    it('an uncaught refusal fails the run, naming the script', async () => {
      allow([]);
      const outcome = await runScripts([
        {
          Name: 'caller',
          Body: `httpClient.RequestUri = '${base}/echo'; httpClient.Get();`,
          BeforeUpdate: true,
        },
      ]);
      expect(outcome).toEqual({
        kind: 'failed',
        reason: expect.stringMatching(/"caller".*threw.*httpClient\.Get: refused/),
      });
    });
  });

  describe('redirects', () => {
    it('follows one to an allowed host, a POST becoming a GET after a 302', async () => {
      const answer = await seen(`
        httpClient.RequestUri = '${base}/to-echo';
        httpClient.Content = 'x';
        httpClient.RequestHeaders.Add('Authorization', 'secret');
        return [JSON.parse(httpClient.Post()), httpClient.StatusCode];`);
      expect(answer).toEqual([{ method: 'GET', body: '' }, 200]);
      expect(received.map((request) => request.url)).toEqual(['/to-echo', '/echo']);
      // .NET drops the credentials of a request it redirects.
      expect(received[1]?.headers.authorization).toBeUndefined();
    });

    it('keeps the method and body after a 307', async () => {
      const answer = await seen(`
        httpClient.RequestUri = '${base}/keep-method';
        httpClient.Content = 'kept';
        return JSON.parse(httpClient.Post());`);
      expect(answer).toEqual({ method: 'POST', body: 'kept' });
    });

    it.each([
      ['a private address', '/to-metadata', ['127.0.0.1', '*'], 'a linkLocal address'],
      ['a host the setting does not name', '/to-localhost', ['127.0.0.1'], 'localhost is not in'],
    ])('refuses one to %s', async (_case, path, hosts, why) => {
      allow(hosts);
      const answer = await seen(`httpClient.RequestUri = '${base}${path}'; ${caught('httpClient.Get()')}`);
      expect(answer).toContain('httpClient.Get: refused: ');
      expect(answer).toContain(why);
      expect(received).toHaveLength(1);
    });

    it('answers the last 3xx after 50 redirects, as .NET does', async () => {
      const answer = await seen(
        `httpClient.RequestUri = '${base}/loop'; httpClient.Get(); return httpClient.StatusCode;`,
      );
      expect(answer).toBe(302);
      expect(received).toHaveLength(51);
    });
  });

  describe('limits', () => {
    it('sets IsTimeOut and answers null after TimeOut', async () => {
      const started = Date.now();
      const answer = await seen(`
        httpClient.RequestUri = '${base}/hang';
        httpClient.TimeOut = 300;
        const text = httpClient.Get();
        return [text, httpClient.IsTimeOut, httpClient.IsSuccess, httpClient.StatusCode, httpClient.TimeOut];`);
      expect(answer).toEqual([null, true, false, 0, 300]);
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('reads TimeOut from the setting until the script sets it', async () => {
      allow(['127.0.0.1'], { ServerScriptHttpClientTimeOut: 1234 });
      expect(await seen('return httpClient.TimeOut;')).toBe(1234);
    });

    it('stops the script at its own time limit when that comes before TimeOut', async () => {
      allow(['127.0.0.1'], { ServerScriptTimeOut: 500 });
      const started = Date.now();
      const outcome = await runScripts([
        {
          Name: 'slow',
          Body: `httpClient.RequestUri = '${base}/hang'; httpClient.Get(); model.Title = 'after';`,
          BeforeUpdate: true,
        },
      ]);
      expect(outcome).toEqual({ kind: 'failed', reason: expect.stringMatching(/"slow".*ran out of time/) });
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('fails a call whose answer is over the size cap, the status and headers set', async () => {
      allow(['127.0.0.1'], { ServerScriptHttpClientMaxResponseBytes: 100_000 });
      const answer = await seen(`
        httpClient.RequestUri = '${base}/large';
        return [(() => { ${caught('httpClient.Get()')} })(), httpClient.StatusCode];`);
      expect(answer).toEqual([
        "httpClient.Get: the answer's body is larger than Script.ServerScriptHttpClientMaxResponseBytes (100000 bytes)",
        200,
      ]);
    });

    it.each([
      [
        'Encoding',
        `httpClient.Encoding = 'klingon'; httpClient.Content = 'x';`,
        'Encoding "klingon" is not known',
      ],
      [
        'MediaType',
        `httpClient.MediaType = 'not a type'; httpClient.Content = 'x';`,
        'MediaType "not a type" is not a media type',
      ],
    ])('throws for an unknown %s, as .NET does', async (_case, setup, why) => {
      const answer = await seen(
        `${setup} httpClient.RequestUri = '${base}/echo'; ${caught('httpClient.Post()')}`,
      );
      expect(answer).toBe(`httpClient.Post: ${why}`);
    });

    it('throws for a connection refused', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const answer = await seen(
        `httpClient.RequestUri = 'http://127.0.0.1:${closedPort}/'; ${caught('httpClient.Get()')}`,
      );
      expect(answer).toMatch(/^httpClient\.Get: ECONNREFUSED/);
    });
  });
});
