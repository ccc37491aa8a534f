import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BULK } from '../../lib/bounds';
import { createUser, seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

let stack: Stack;
let accounts: TestAccounts;
let admin: string;

const post = (path: string, body?: unknown) => call(stack.url, path, body);

interface Row {
  ResultId: number;
  Title: string;
  Status?: number;
  ClassHash?: Record<string, string>;
  NumHash?: Record<string, number>;
}
const rows = async (siteId: number) => {
  const result = await post(`/api/items/${siteId}/get`, {
    ApiKey: admin,
    View: { ColumnSorterHash: { ResultId: 'asc' } },
  });
  return (result.body.Response as { Data: Row[] }).Data;
};

/** A table with records A (code a1), B (code b1), C and D (both code dup). */
async function table(): Promise<number> {
  const site = await createSite(stack.url, admin, 0, { Title: 'Codes', ReferenceType: 'Results' });
  for (const [title, code] of [
    ['A', 'a1'],
    ['B', 'b1'],
    ['C', 'dup'],
    ['D', 'dup'],
  ]) {
    await createRecord(stack.url, admin, site, { Title: title, ClassHash: { ClassA: code } });
  }
  return site;
}

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
});
afterAll(() => stack.close());

describe('upsert', () => {
  it('updates the one record whose Keys match', async () => {
    const site = await table();
    const result = await post(`/api/items/${site}/upsert`, {
      ApiKey: admin,
      Keys: ['ClassA'],
      Title: 'A2',
      Status: 200,
      ClassHash: { ClassA: 'a1' },
    });
    const [a] = await rows(site);
    expect(result.body).toEqual({ Id: a?.ResultId, StatusCode: 200, Message: '" A2 " has been updated.' });
    expect(a).toMatchObject({ Title: 'A2', Status: 200 });
    expect(await rows(site)).toHaveLength(4);
  });

  it('creates a record when none matches', async () => {
    const site = await table();
    const result = await post(`/api/items/${site}/upsert`, {
      ApiKey: admin,
      Keys: ['ClassA', 'Title'],
      Title: 'A',
      ClassHash: { ClassA: 'new' },
    });
    expect(result.body).toMatchObject({ StatusCode: 200, Message: '" A " has been created.' });
    expect(await rows(site)).toHaveLength(5);
  });

  it('refuses two matches, writing nothing', async () => {
    const site = await table();
    const result = await post(`/api/items/${site}/upsert`, {
      ApiKey: admin,
      Keys: ['ClassA'],
      Title: 'X',
      ClassHash: { ClassA: 'dup' },
    });
    expect(result.body).toEqual({
      Id: site,
      StatusCode: 400,
      Message: 'There are multiple records that match the condition.',
      Errors: expect.any(Array),
    });
    expect((await rows(site)).map((r) => r.Title)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('matches within the View only', async () => {
    const site = await table();
    await post(`/api/items/${site}/upsert`, {
      ApiKey: admin,
      Keys: ['ClassA'],
      View: { ColumnFilterHash: { Title: 'D' } },
      Title: 'D2',
      ClassHash: { ClassA: 'dup' },
    });
    expect((await rows(site)).map((r) => r.Title)).toEqual(['A', 'B', 'C', 'D2']);
  });

  it.each([
    [
      'a key that is no column',
      ['ClassA', 'Nope'],
      { ClassHash: { ClassA: 'a1' } },
      'Upsert Key is invalid.(Nope)',
    ],
    [
      'keys the body does not carry',
      ['ClassB', 'NumA'],
      { ClassHash: { ClassA: 'a1' } },
      'Upsert Key is invalid.(ClassB, NumA)',
    ],
    ['an empty text key', ['ClassA'], { ClassHash: { ClassA: '' } }, 'Upsert Key is invalid.(ClassA)'],
    ['no Keys', [], { ClassHash: { ClassA: 'a1' } }, 'Invalid json data.'],
  ])('refuses %s', async (_case, keys, body, message) => {
    const site = await table();
    const result = await post(`/api/items/${site}/upsert`, {
      ApiKey: admin,
      Keys: keys,
      Title: 'Z',
      ...body,
    });
    expect(result.body).toEqual({ Id: site, StatusCode: 400, Message: message, Errors: expect.any(Array) });
    expect(await rows(site)).toHaveLength(4);
  });
});

describe('bulkupsert', () => {
  it('updates matches and creates the rest, counting both, in order', async () => {
    const site = await table();
    const result = await post(`/api/items/${site}/bulkupsert`, {
      ApiKey: admin,
      Keys: ['ClassA'],
      Data: [
        { Title: 'A2', ClassHash: { ClassA: 'a1' } },
        { Title: 'E', ClassHash: { ClassA: 'e1' } },
        // Matches the record the item before it created.
        { Title: 'E2', ClassHash: { ClassA: 'e1' } },
        { Title: 'F', ClassHash: { ClassA: 'f1' } },
      ],
    });
    expect(result.body).toEqual({
      Id: site,
      StatusCode: 200,
      Message: 'Codes: 2 entries have been added and 2 entries updated.',
    });
    expect((await rows(site)).map((r) => r.Title)).toEqual(['A2', 'B', 'C', 'D', 'E2', 'F']);
  });

  it('creates every item without Keys, and skips unmatched ones with KeyNotFoundCreate false', async () => {
    const site = await table();
    const plain = await post(`/api/items/${site}/bulkupsert`, {
      ApiKey: admin,
      Data: [{ Title: 'P' }, { Title: 'Q' }],
    });
    expect(plain.body.Message).toBe('Codes: 2 entries have been added and 0 entries updated.');
    const skipped = await post(`/api/items/${site}/bulkupsert`, {
      ApiKey: admin,
      Keys: ['ClassA'],
      KeyNotFoundCreate: false,
      Data: [
        { Title: 'B2', ClassHash: { ClassA: 'b1' } },
        { Title: 'G', ClassHash: { ClassA: 'g1' } },
      ],
    });
    expect(skipped.body.Message).toBe('Codes: 0 entries have been added and 1 entries updated.');
    expect((await rows(site)).map((r) => r.Title)).toEqual(['A', 'B2', 'C', 'D', 'P', 'Q']);
  });

  it.each([
    [
      'an item with a bad date',
      { Title: 'E', ClassHash: { ClassA: 'e1' }, DateHash: { DateA: 'not a date' } },
      400,
    ],
    ['an item missing a key', { Title: 'E', ClassHash: { ClassB: 'x' } }, 400],
    ['an item matching two records', { Title: 'E', ClassHash: { ClassA: 'dup' } }, 400],
    [
      'an item of a feature Kiroku lacks',
      { Title: 'E', ClassHash: { ClassA: 'e1' }, MigrationMode: true },
      400,
    ],
    [
      'an item with a bad image',
      { Title: 'E', ClassHash: { ClassA: 'e1' }, ImageHash: { Body: { Base64: '*' } } },
      400,
    ],
  ])('writes nothing when one item is invalid: %s', async (_case, bad, status) => {
    const site = await table();
    const result = await post(`/api/items/${site}/bulkupsert`, {
      ApiKey: admin,
      Keys: ['ClassA'],
      Data: [{ Title: 'A2', ClassHash: { ClassA: 'a1' } }, { Title: 'N', ClassHash: { ClassA: 'n1' } }, bad],
    });
    expect(result.body.StatusCode).toBe(status);
    expect((await rows(site)).map((r) => r.Title)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('refuses more items than the bound before any work, naming it (issue 23)', async () => {
    const site = await table();
    const data = Array.from({ length: MAX_BULK.bulkUpsertItems + 1 }, (_, i) => ({ Title: `n${i}` }));
    const result = await post(`/api/items/${site}/bulkupsert`, { ApiKey: admin, Data: data });
    expect(result.body).toEqual({
      Id: site,
      StatusCode: 400,
      Message: 'Invalid request.',
      Errors: [{ Property: 'Data', Problem: `more than ${MAX_BULK.bulkUpsertItems} items` }],
    });
    expect(await rows(site)).toHaveLength(4);
  });

  it('answers Invalid json data. without Data', async () => {
    const site = await table();
    expect((await post(`/api/items/${site}/bulkupsert`, { ApiKey: admin })).body).toEqual({
      Id: site,
      StatusCode: 400,
      Message: 'Invalid json data.',
      Errors: expect.any(Array),
    });
  });
});

describe('the new operations refuse what the caller may not do', () => {
  it.each([
    ['upsert', { Keys: ['ClassA'], Title: 'X', ClassHash: { ClassA: 'a1' } }],
    ['bulkupsert', { Data: [{ Title: 'X' }] }],
    ['bulkdelete', { All: true }],
  ])('%s: another tenant sees no site (404), a reader may not write (403)', async (route, body) => {
    const site = await table();
    const foreign = await post(`/api/items/${site}/${route}`, { ApiKey: accounts.other.apiKey, ...body });
    expect(foreign.body.StatusCode).toBe(404);
    const reader = await createUser(stack.url, admin, `reader-${route}-${Date.now()}`);
    await post(`/api/items/${site}/updatesite`, { ApiKey: admin, Permissions: [`User,${reader.userId},1`] });
    const denied = await post(`/api/items/${site}/${route}`, { ApiKey: reader.apiKey, ...body });
    expect(denied.body.StatusCode).toBe(403);
    expect((await rows(site)).map((r) => r.Title)).toEqual(['A', 'B', 'C', 'D']);
  });
});
