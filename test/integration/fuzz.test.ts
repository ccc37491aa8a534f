import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Route, routes } from '../../lib/routes';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { type Stack, startStack } from '../fixtures/stack';

let stack: Stack;
let accounts: TestAccounts;

/** An id that names nothing, so that a valid key with a random body cannot touch stored accounts. */
const ABSENT_ID = 987654321;
const GUARD = { SessionKey: 'fuzz-guard-☃', SessionValue: 'must survive', SavePerUser: true };

const jsonRoutes = (routes as readonly Route[]).filter(
  (route) => route.method === 'POST' && route.request && route.requestType !== 'multipart',
);

function fieldNames(route: Route): string[] {
  const shape = (route.request as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  return Object.keys(shape);
}

/** A field name as a client might spell it: any case. */
const spelled = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));

function bodies(route: Route) {
  const names = fieldNames(route);
  const apiKey = fc.constantFrom(accounts.admin.apiKey, accounts.user.apiKey, 'f'.repeat(128), '', 12);
  const field = fc.tuple(fc.constantFrom(...names).chain(spelled), fc.jsonValue({ maxDepth: 2 }));
  const object = fc
    .tuple(fc.option(apiKey, { nil: undefined }), fc.array(field, { maxLength: 6 }))
    .map(([key, fields]) =>
      JSON.stringify({ ...(key === undefined ? {} : { ApiKey: key }), ...Object.fromEntries(fields) }),
    );
  return fc.oneof(
    object,
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
    fc.string({ unit: 'binary', maxLength: 200 }),
    object.map((text) => text.slice(0, Math.max(1, text.length - 3))),
  );
}

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  null,
  'multipart/form-data',
);

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  await call(stack.url, '/api/sessions/set', { ApiKey: accounts.user.apiKey, ...GUARD });
});
afterAll(() => stack.close());

describe('every JSON endpoint', () => {
  it.each(jsonRoutes.map((route) => [route.path, route] as const))(
    '%s answers random and malformed bodies without a 500 and leaves stored values alone',
    async (_path, route) => {
      const path = route.path.replace('{id}', String(ABSENT_ID));
      const before = await snapshot();
      await fc.assert(
        fc.asyncProperty(bodies(route), contentTypes, async (raw, contentType) => {
          const result = await call(stack.url, path, undefined, { raw, contentType });
          expect(result.status).not.toBe(500);
          expect(result.status).toBeLessThan(500);
          expect(result.contentType).toBe('application/json; charset=utf-8');
          // 'processed' routes (background tasks) answer HTTP 200 with the outcome in the body.
          if (route.status === 'processed') expect(result.status).toBe(200);
          else expect(result.body.StatusCode).toBe(result.status);
          expect(result.body.StatusCode).toBeLessThan(500);
          if (result.body.StatusCode !== 200) expect(typeof result.body.Message).toBe('string');
        }),
        { numRuns: 40 },
      );
      expect(await snapshot()).toEqual(before);
    },
    120_000,
  );
});

/** What must not change: the guard value and every seeded user as the API shows them. */
async function snapshot() {
  const guard = await call(stack.url, '/api/sessions/get', { ApiKey: accounts.user.apiKey, ...GUARD });
  const users = await Promise.all(
    [accounts.admin, accounts.user].map((user) =>
      call(stack.url, `/api/users/${user.userId}/get`, { ApiKey: accounts.admin.apiKey }).then((r) => r.body),
    ),
  );
  const other = await call(stack.url, `/api/users/${accounts.other.userId}/get`, {
    ApiKey: accounts.other.apiKey,
  });
  return { guard: guard.body, users, other: other.body };
}
