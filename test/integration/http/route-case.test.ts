import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../lib/messages';
import { pathsOf, type Route, routes } from '../../../lib/routes';
import { operationName, unavailableOperations } from '../../../lib/routes/unavailable';
import { call } from '../../fixtures/client';
import { type Stack, startStack } from '../../fixtures/stack';

/**
 * CONTRACT section 1: every literal segment of every route matches in any case, through the gateway
 * and the real handlers; an operation of the reference that Kiroku lacks is a 404 that names it.
 */

let stack: Stack;
let asset: string;

beforeAll(async () => {
  stack = await startStack();
  const page = await (await fetch(`${stack.url}/`)).text();
  asset = /src="assets\/(app-[A-Z0-9]+\.js)"/.exec(page)?.[1] ?? '';
});
afterAll(() => stack.close());

/** `sessions` → `SeSsIoNs`: every other letter's case flipped, so no spelling of the table is hit by luck. */
const mixed = (segment: string) =>
  [...segment].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');

/** A route-table path with its values filled in and its literal segments spelt by `spell`. */
function pathFor(path: string, spell: (segment: string) => string): string {
  const values: Record<string, string> = { guid: '0123456789ABCDEF0123456789ABCDEF', file: asset };
  return path
    .split('/')
    .map((segment) => {
      const name = /^\{(\w+)\}$/.exec(segment)?.[1];
      return name ? (values[name] ?? '1') : spell(segment);
    })
    .join('/');
}

const isGenericNotFound = (answer: { status: number; body: Record<string, unknown> }) =>
  answer.status === 404 && answer.body.Message === messages.notFound;

describe('paths in any case', () => {
  const cases = (routes as readonly Route[]).flatMap((route) =>
    pathsOf(route).map((path) => [route.method, path] as const),
  );

  it.each(cases)('%s %s answers in mixed case as in its own spelling', async (method, path) => {
    const own = await call(
      stack.url,
      pathFor(path, (s) => s),
      {},
      { method },
    );
    const other = await call(stack.url, pathFor(path, mixed), {}, { method });
    expect(isGenericNotFound(own)).toBe(false);
    expect(isGenericNotFound(other)).toBe(false);
    expect({ status: other.status, message: other.body.Message }).toEqual({
      status: own.status,
      message: own.body.Message,
    });
  });

  it.each([
    '/Api/sessions/get',
    '/api/sessions/sEt',
    '/api/BACKGROUNDTASKS/rebuildSearchIndexes',
    '/API/ITEMS/1/GETCLOSESTSITEID',
  ])('%s reaches its route (401 without an ApiKey)', async (path) => {
    const answer = await call(stack.url, path, {});
    expect(answer.status === 401 || answer.body.StatusCode === 401).toBe(true);
  });

  it('keeps the 405 for a known path in another case with another method', async () => {
    const answer = await call(stack.url, '/API/Sessions/Get', undefined, { method: 'GET' });
    expect(answer.status).toBe(405);
  });
});

describe('operations Kiroku does not offer', () => {
  it.each(unavailableOperations.map((path) => [path]))('%s answers the named 404', async (path) => {
    for (const spelling of [pathFor(path, (s) => s), pathFor(path, (s) => s.toUpperCase())]) {
      const answer = await call(stack.url, spelling, {});
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({
        Id: 0,
        StatusCode: 404,
        Message: `The operation ${operationName(path)} of Pleasanter is not available in Kiroku.`,
      });
    }
  });

  it('names /api/extended/sql as the contract shows', async () => {
    const answer = await call(stack.url, '/api/extended/sql', { ApiKey: 'x' });
    expect(answer.body.Message).toBe('The operation extended/sql of Pleasanter is not available in Kiroku.');
  });

  it.each(['/api/nothing', '/api/items/1/nothing', '/api/extended/sql/more'])(
    '%s, a path of no operation at all, keeps the generic 404',
    async (path) => {
      const answer = await call(stack.url, path, {});
      expect(answer.status).toBe(404);
      expect(answer.body.Message).toBe(messages.notFound);
    },
  );
});
