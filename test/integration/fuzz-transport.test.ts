import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../lib/messages';
import { logIn, seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { expectWellFormed } from '../fixtures/hostile';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Hostile transport details: cookies (malformed percent-encoding, very long, many) and multipart part
 * headers (malformed `filename*`, odd quoting, long names, junk Content-Range). Never a 500 that is not the
 * spec's own, never a stack trace.
 */

let stack: Stack;
let accounts: TestAccounts;
let table: number;
let login: string[];

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  table = await createSite(stack.url, accounts.admin.apiKey, 0, { ReferenceType: 'Results' });
  login = await logIn(stack.url, accounts.user.loginId, accounts.user.password);
});
afterAll(() => stack.close());

// Header values must be printable Latin-1 for fetch; `;` separates cookies.
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
});
const percentJunk = fc
  .array(
    fc.constantFrom(
      '%',
      '%z',
      '%zz',
      '%E0',
      '%A4%',
      '%ED%A0%80',
      '%2',
      '%25',
      '%C0%AF',
      '%00',
      'a',
      '=',
      ' ',
    ),
    {
      maxLength: 20,
    },
  )
  .map((parts) => parts.join(''));
const cookieValue = fc.oneof(
  percentJunk,
  printable.map((text) => text.replace(/;/g, '')),
  fc.integer({ min: 500, max: 3000 }).map((length) => '%'.repeat(length)),
  fc.constant('0'.repeat(4000)),
);
const cookieName = fc.constantFrom(
  'Kiroku_Auth',
  'Kiroku_SessionGuid',
  'kiroku_auth',
  'Kiroku_Auth ',
  'Other',
  '',
);
const cookies = fc
  .tuple(fc.array(fc.tuple(cookieName, cookieValue), { maxLength: 60 }), fc.boolean())
  .map(([pairs, withLogin]) => [
    ...pairs.map(([name, value]) => `${name}=${value}`),
    ...(withLogin ? login : []),
  ])
  .filter((list) => list.join('; ').length < 12_000);

describe('malformed, long and many cookies', () => {
  const xhr = { 'x-requested-with': 'XMLHttpRequest' };
  const requests: [string, (list: string[]) => ReturnType<typeof call>][] = [
    [
      'an API route',
      (list) => call(stack.url, `/api/items/${table}/get`, {}, { cookies: list, headers: xhr }),
    ],
    [
      'a download',
      (list) =>
        call(stack.url, '/binaries/0123456789abcdef0123456789abcdef/download', undefined, {
          method: 'GET',
          cookies: list,
        }),
    ],
    ['sign-out', (list) => call(stack.url, '/users/signout', {}, { cookies: list, headers: xhr })],
    [
      'a session value',
      (list) =>
        call(
          stack.url,
          '/api/sessions/set',
          { ApiKey: accounts.user.apiKey, SessionKey: 'k', SessionValue: 'v' },
          { cookies: list },
        ),
    ],
  ];

  it.each(requests)(
    '%s answers within the envelope',
    async (_name, send) => {
      await fc.assert(
        fc.asyncProperty(cookies, async (list) => {
          const result = await send(list);
          expectWellFormed(result);
          expect([200, 401, 403, 404]).toContain(result.status);
        }),
        { numRuns: 40 },
      );
    },
    60_000,
  );
});

describe('malformed multipart part headers', () => {
  const filenameParam = fc.oneof(
    printable.map((name) => `filename="${name.replace(/["\\]/g, '')}"`),
    printable.map((name) => `filename=${name.replace(/[";\\]/g, '')}`),
    percentJunk.map((junk) => `filename*=UTF-8''${junk}`),
    fc
      .tuple(fc.constantFrom('UTF-8', 'utf-8', 'ISO-8859-1', 'x', ''), percentJunk)
      .map(([charset, junk]) => `filename*=${charset}'en'${junk}.txt`),
    fc.integer({ min: 1000, max: 1100 }).map((length) => `filename="${'n'.repeat(length)}"`),
    fc.constant('filename="unterminated'),
    fc.constant('filename*='),
  );
  const part = fc.record({
    params: fc.array(filenameParam, { minLength: 1, maxLength: 3 }),
    contentType: fc.constantFrom('text/plain', '', 'x/y; charset=%zz', 'application/octet-stream'),
    range: fc.option(fc.constantFrom('bytes 0-4/5', 'bytes x', 'bytes 0-99/5', 'bytes 5-4/5', '%zz'), {
      nil: undefined,
    }),
  });

  it('an upload answers within the envelope, never the generic 500', async () => {
    await fc.assert(
      fc.asyncProperty(part, async ({ params, contentType, range }) => {
        const boundary = 'fuzzboundary';
        const headers = [
          `Content-Disposition: form-data; name="file"; ${params.join('; ')}`,
          ...(contentType ? [`Content-Type: ${contentType}`] : []),
          ...(range ? [`Content-Range: ${range}`] : []),
        ];
        const raw = `--${boundary}\r\n${headers.join('\r\n')}\r\n\r\nhello\r\n--${boundary}--\r\n`;
        const result = await call(stack.url, `/api/binaries/upload?id=${table}`, undefined, {
          raw,
          contentType: `multipart/form-data; boundary=${boundary}`,
          headers: { authorization: `Bearer ${accounts.admin.apiKey}` },
        });
        expect(result.contentType).toBe('application/json; charset=utf-8');
        expect(result.body.Message).not.toBe(messages.internalServerError);
        expect(result.text).not.toMatch(/\n\s+at |Error:|node_modules|\.ts:\d+/);
        if (result.status === 500) expect(result.body.Message).toBe(messages.unreadableMultipart);
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
