import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../fixtures/stack';

/** The browser UI's page and assets as the gateway serves them (lib/http/web-assets.ts). */

let stack: Stack;
let page: string;
let script: string;

beforeAll(async () => {
  stack = await startStack({ basePath: '/ui-base' });
  page = await (await fetch(`${stack.url}/`)).text();
  script = /src="(assets\/app-[A-Z0-9]+\.js)"/.exec(page)?.[1] ?? '';
});
afterAll(() => stack.close());

/** A GET whose body comes back as sent (fetch would decode it). */
function raw(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      }).on('error', reject);
    },
  );
}

describe('the UI page', () => {
  it('names the base path in <base href>, and its hashed script and style sheet', () => {
    expect(page).toContain('<base href="/ui-base/" />');
    expect(script).toMatch(/^assets\/app-\w+\.js$/);
    expect(page).toMatch(/href="assets\/app-\w+\.css"/);
  });

  it('is revalidated by its ETag, and answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(`${stack.url}/`);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(first.headers.get('x-frame-options')).toBe('DENY');
    const etag = first.headers.get('etag') ?? '';
    const again = await fetch(`${stack.url}/`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });
});

describe('the assets', () => {
  it.each([
    ['br', (bytes: Buffer) => brotliDecompressSync(bytes)],
    ['gzip', (bytes: Buffer) => gunzipSync(bytes)],
    ['identity', (bytes: Buffer) => bytes],
  ])('answers %s when asked, the same script', async (encoding, decode) => {
    const response = await raw(`${stack.url}/${script}`, { 'accept-encoding': encoding });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
    const text = decode(response.body).toString('utf8');
    expect(text).toContain('apiGetClosestSiteId');
  });

  it.each(['app-NOPE.js', '..%2Findex.html', '..%2F..%2Fpackage.json', 'index.html', 'app.exe'])(
    'answers 404 in the JSON envelope for %s',
    async (name) => {
      const response = await fetch(`${stack.url}/assets/${name}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ StatusCode: 404 });
    },
  );
});
