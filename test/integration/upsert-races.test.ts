import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// Concurrent upserts with one key create one record, the others update it (issue 23 item 5): retrying
// sync clients send exactly this, and duplicates made every later upsert on the key fail for good.

let stack: Stack;
let admin: string;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
interface Row {
  ResultId: number;
  Ver: number;
  ClassHash?: Record<string, string>;
}
/** The site's records whose ClassA is `code`. */
const holding = async (site: number, code: string) => {
  const result = await post(`/api/items/${site}/get`, { ApiKey: admin });
  return (result.body.Response as { Data: Row[] }).Data.filter((row) => row.ClassHash?.ClassA === code);
};
const upsert = (site: number, code: string, title: string) =>
  post(`/api/items/${site}/upsert`, {
    ApiKey: admin,
    Keys: ['ClassA'],
    Title: title,
    ClassHash: { ClassA: code },
  });

/** `count` upserts of `code` at once: their answers' messages, sorted, and the ids they name. */
async function race(site: number, code: string, count = 8) {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => upsert(site, code, `t${i}`)));
  expect(answers.map((answer) => answer.body.StatusCode)).toEqual(answers.map(() => 200));
  const created = answers.filter((answer) => String(answer.body.Message).endsWith('has been created.'));
  return { created: created.length, ids: new Set(answers.map((answer) => answer.body.Id)) };
}

beforeAll(async () => {
  stack = await startStack();
  admin = (await seedAccounts(stack.url)).admin.apiKey;
});
afterAll(() => stack.close());

// Eight requests at once, each reading the whole site: minutes on a loaded two-core machine, not seconds.
describe('concurrent upserts with one key', { timeout: 120_000 }, () => {
  it.each([1, 2, 3, 4])(
    'round %i: 8 at once create exactly one record, the others update it',
    async (round) => {
      const site = await createSite(stack.url, admin, 0, {
        Title: `Race ${round}`,
        ReferenceType: 'Results',
        // A version on every update: Ver then counts the updates applied.
        SiteSettings: { AutoVerUpType: 2 },
      });
      const { created, ids } = await race(site, 'k');
      expect(created).toBe(1);
      expect(ids.size).toBe(1);
      const [only, ...others] = await holding(site, 'k');
      expect(others).toEqual([]);
      expect(only?.Ver).toBe(8);
      // And the key stays usable.
      expect((await upsert(site, 'k', 'later')).body).toMatchObject({ StatusCode: 200, Id: only?.ResultId });
    },
  );

  it('all update a record that create made (it holds no claim), and create one once it is deleted', async () => {
    const site = await createSite(stack.url, admin, 0, { Title: 'Plain', ReferenceType: 'Results' });
    const id = await createRecord(stack.url, admin, site, { ClassHash: { ClassA: 'k' } });
    expect(await race(site, 'k')).toEqual({ created: 0, ids: new Set([id]) });
    await post(`/api/items/${id}/delete`, { ApiKey: admin });
    expect((await race(site, 'k')).created).toBe(1);
    expect(await holding(site, 'k')).toHaveLength(1);
  });

  it.each([
    ['deleted', (id: number) => post(`/api/items/${id}/delete`, { ApiKey: admin })],
    [
      'given another key value',
      (id: number) => post(`/api/items/${id}/update`, { ApiKey: admin, ClassHash: { ClassA: 'moved' } }),
    ],
  ])('create one record again once the claimed record was %s', async (_case, change) => {
    const site = await createSite(stack.url, admin, 0, { Title: 'Stale', ReferenceType: 'Results' });
    const first = await upsert(site, 'k', 'first');
    expect(first.body.Message).toBe('" first " has been created.');
    expect((await change(Number(first.body.Id))).body.StatusCode).toBe(200);
    const { created, ids } = await race(site, 'k');
    expect(created).toBe(1);
    expect(ids.size).toBe(1);
    expect(ids.has(first.body.Id)).toBe(false);
    expect(await holding(site, 'k')).toHaveLength(1);
  });
});
