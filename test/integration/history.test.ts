import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useClock } from '../../lib/clock';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/** Issue 28, item 1: versions (Ver, VerUp, AutoVerUpType) and TableType History / NormalAndHistory. */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
/** Read, Create, Update, Delete on every table here. */
let writer: TestUser;
/** Read only. */
let reader: TestUser;
/** No permission at all. */
let stranger: TestUser;
const sites: Record<'Default' | 'Always' | 'Disabled', number> = { Default: 0, Always: 0, Disabled: 0 };

type Row = Record<string, unknown> & { Ver: number };
type Page = { TotalCount: number; Data: Row[] };
const post = (path: string, body?: unknown) => call(stack.url, path, body);
const update = (id: number, key: string, body: object = {}) =>
  post(`/api/items/${id}/update`, { ApiKey: key, ...body });
const get = (id: number, body: object = {}, key = admin) =>
  post(`/api/items/${id}/get`, { ApiKey: key, ...body });
const page = async (id: number, body: object = {}, key = admin) => {
  const answer = await get(id, body, key);
  expect(answer.body.StatusCode, answer.text).toBe(200);
  return answer.body.Response as Page;
};
const DAY = 86_400_000;

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  writer = await createUser(stack.url, admin, `writer-${Date.now()}`);
  reader = await createUser(stack.url, admin, `reader-${Date.now()}`);
  stranger = await createUser(stack.url, admin, `stranger-${Date.now()}`);
  const Permissions = [`User,${writer.userId},15`, `User,${reader.userId},1`];
  for (const [name, type] of [
    ['Default', undefined],
    ['Always', 2],
    ['Disabled', 3],
  ] as const) {
    sites[name] = await createSite(stack.url, admin, 0, {
      Title: name,
      ReferenceType: 'Results',
      Permissions,
      SiteSettings: type === undefined ? {} : { AutoVerUpType: type },
    });
  }
});
afterEach(() => useClock(undefined));
afterAll(() => stack.close());

describe('the version rule', () => {
  // [case, site rule, who updates, days after the create, VerUp, Ver after, versions kept]
  it.each([
    ['Default, same user, same day', 'Default', 'admin', 0, undefined, 1, 0],
    ['Default, another user', 'Default', 'writer', 0, undefined, 2, 1],
    ['Default, another day', 'Default', 'admin', 1, undefined, 2, 1],
    ['Default, VerUp', 'Default', 'admin', 0, true, 2, 1],
    ['Default, VerUp false', 'Default', 'admin', 0, false, 1, 0],
    ['Always, same user, same day', 'Always', 'admin', 0, undefined, 2, 1],
    ['Disabled, another user', 'Disabled', 'writer', 0, undefined, 1, 0],
    ['Disabled, another day', 'Disabled', 'admin', 1, undefined, 1, 0],
    ['Disabled, VerUp', 'Disabled', 'admin', 0, true, 2, 1],
  ] as const)('%s', async (_, rule, who, days, verUp, ver, kept) => {
    const start = Date.now();
    useClock(() => start);
    const id = await createRecord(stack.url, admin, sites[rule], { Title: 'v1', ClassA: 'first' });
    useClock(() => start + days * DAY);
    const key = who === 'admin' ? admin : writer.apiKey;
    const answer = await update(id, key, { Title: 'v2', ClassA: 'second', VerUp: verUp });
    expect(answer.body.StatusCode, answer.text).toBe(200);
    const current = (await page(id)).Data[0];
    expect(current).toMatchObject({ Ver: ver, Title: 'v2', ClassHash: { ClassA: 'second' } });
    const history = await page(id, { TableType: 'History' });
    expect(history.TotalCount).toBe(kept);
    if (kept) expect(history.Data[0]).toMatchObject({ Ver: 1, Title: 'v1', ClassHash: { ClassA: 'first' } });
  });

  // The day is the caller's (Asia/Tokyo by default): 23:30 and 00:30 there are two days, one UTC day.
  it.each([
    ['23:30 then 00:30 in Tokyo (one UTC day)', '2026-11-27T14:30:00Z', '2026-11-27T15:30:00Z', 2],
    ['00:30 then 23:30 in Tokyo (two UTC days)', '2026-11-27T15:30:00Z', '2026-11-28T14:30:00Z', 1],
  ])('Default compares days in the caller zone: %s', async (_, created, updated, ver) => {
    useClock(() => Date.parse(created));
    const id = await createRecord(stack.url, admin, sites.Default);
    useClock(() => Date.parse(updated));
    expect((await update(id, admin, { Title: 'later' })).body.StatusCode).toBe(200);
    expect((await page(id)).Data[0]?.Ver).toBe(ver);
  });

  it.each([
    ['an unknown number', 4],
    ['an unknown name', 'Sometimes'],
    ['a list', [1]],
  ])('a site whose AutoVerUpType is %s is refused with 400 naming it', async (_, value) => {
    const answer = await post('/api/items/0/createsite', {
      ApiKey: admin,
      Title: 'Bad',
      ReferenceType: 'Results',
      SiteSettings: { AutoVerUpType: value },
    });
    expect(answer.body.StatusCode).toBe(400);
    expect(answer.text).toContain('AutoVerUpType');
  });

  it('upsert and bulkupsert keep versions by the same rule', async () => {
    const id = await createRecord(stack.url, admin, sites.Always, { Title: 'kept', ClassA: 'k' });
    const upsert = await post(`/api/items/${sites.Always}/upsert`, {
      ApiKey: admin,
      Keys: ['ClassA'],
      ClassA: 'k',
      Title: 'upserted',
    });
    expect(upsert.body.StatusCode, upsert.text).toBe(200);
    const bulk = await post(`/api/items/${sites.Always}/bulkupsert`, {
      ApiKey: admin,
      Keys: ['ClassA'],
      Data: [{ ClassA: 'k', Title: 'bulk' }],
    });
    expect(bulk.body.StatusCode, bulk.text).toBe(200);
    const history = await page(id, { TableType: 'History' });
    expect(history.Data.map((row) => [row.Ver, row.Title])).toEqual([
      [2, 'upserted'],
      [1, 'kept'],
    ]);
    expect((await page(id)).Data[0]).toMatchObject({ Ver: 3, Title: 'bulk' });
  });
});

describe('TableType', () => {
  let results: number;
  let issues: number;
  beforeAll(async () => {
    results = sites.Always;
    issues = await createSite(stack.url, admin, 0, {
      Title: 'Issues',
      ReferenceType: 'Issues',
      SiteSettings: { AutoVerUpType: 'Always' },
    });
  });

  /** A record written three times: Ver 1 (a), 2 (b), 3 (c, current). */
  const threeVersions = async (siteId: number) => {
    const id = await createRecord(stack.url, admin, siteId, { Title: 'a', ClassA: 'a', NumA: 1 });
    for (const [title, num] of [
      ['b', 2],
      ['c', 3],
    ] as const) {
      expect((await update(id, admin, { Title: title, ClassA: title, NumA: num })).body.StatusCode).toBe(200);
    }
    return id;
  };

  it.each([
    [
      'Results',
      () => results,
      {},
      'ResultId',
      (row: Row) => (row.ClassHash as Record<string, string>).ClassA,
    ],
    ['Issues', () => issues, {}, 'IssueId', (row: Row) => (row.ClassHash as Record<string, string>).ClassA],
    ['ApiVersion 1.0 (flat)', () => results, { ApiVersion: 1.0 }, 'ResultId', (row: Row) => row.ClassA],
  ])(
    '%s: History answers the kept versions newest first, NormalAndHistory the current one too',
    async (_, site, extra, idName, classA) => {
      const id = await threeVersions(site());
      const history = await page(id, { TableType: 'History', ...extra });
      expect(history).toMatchObject({ Offset: 0, PageSize: 200, TotalCount: 2 });
      expect(history.Data.map((row) => [row.Ver, row.Title, classA(row), row[idName]])).toEqual([
        [2, 'b', 'b', id],
        [1, 'a', 'a', id],
      ]);
      expect(history.Data[0]).toMatchObject({ Updator: 1, Creator: 1 });
      const both = await page(id, { TableType: 'NormalAndHistory', ...extra });
      expect(both.Data.map((row) => [row.Ver, classA(row)])).toEqual([
        [3, 'c'],
        [2, 'b'],
        [1, 'a'],
      ]);
      const normal = await page(id, { ...extra });
      expect(normal.Data.map((row) => row.Ver)).toEqual([3]);
      expect(await page(id, { TableType: 'normal', ...extra })).toEqual(normal);
    },
  );

  it('the View filters and pages the versions', async () => {
    const id = await threeVersions(results);
    const filtered = await page(id, {
      TableType: 'NormalAndHistory',
      View: {
        ColumnFilterHash: { ClassA: '["a","c"]' },
        ColumnFilterSearchTypes: { ClassA: 'ExactMatchMultiple' },
      },
    });
    expect(filtered.Data.map((row) => row.Ver)).toEqual([3, 1]);
    const second = await page(id, { TableType: 'History', Offset: 1, PageSize: 1 });
    expect(second).toMatchObject({ TotalCount: 2, Offset: 1, PageSize: 1 });
    expect(second.Data.map((row) => row.Ver)).toEqual([1]);
  });

  it('ApiDataType KeyValues shows the versions by the grid columns, as it shows records', async () => {
    const id = await threeVersions(results);
    const history = await page(id, {
      TableType: 'History',
      View: { ApiDataType: 'KeyValues', GridColumns: ['Ver', 'Title'] },
    });
    // Keyed by the columns' labels in the caller's language (Japanese by default).
    expect(history.Data).toEqual([
      { バージョン: 2, タイトル: 'b' },
      { バージョン: 1, タイトル: 'a' },
    ]);
  });

  it("a table's History answers the kept versions of its records", async () => {
    const site = await createSite(stack.url, admin, 0, {
      Title: 'Table',
      ReferenceType: 'Results',
      SiteSettings: { AutoVerUpType: 2 },
    });
    const first = await threeVersions(site);
    const second = await createRecord(stack.url, admin, site, { Title: 'only' });
    const history = await page(site, { TableType: 'History' });
    expect(history.TotalCount).toBe(2);
    expect(history.Data.every((row) => row.ResultId === first)).toBe(true);
    const both = await page(site, { TableType: 'NormalAndHistory' });
    expect(both.TotalCount).toBe(4);
    expect(both.Data.filter((row) => row.ResultId === second).map((row) => row.Ver)).toEqual([1]);
  });

  // Deleted and NormalAndDeleted are the recycle bin's (test/integration/recycle-bin.test.ts).
  it.each([
    ['Archive', 'is not Normal, History, NormalAndHistory, Deleted or NormalAndDeleted'],
    ['', 'is not Normal, History, NormalAndHistory, Deleted or NormalAndDeleted'],
  ])('TableType %s is a 400 saying why', async (type, why) => {
    const id = await createRecord(stack.url, admin, results);
    const answer = await get(id, { TableType: type });
    expect(answer.body.StatusCode).toBe(400);
    expect(answer.text).toContain('TableType');
    expect(answer.text).toContain(why);
  });

  it('TableType History on a folder is a 400, never ignored', async () => {
    const folder = await createSite(stack.url, admin, 0, { Title: 'Folder' });
    const answer = await get(folder, { TableType: 'History' });
    expect(answer.body.StatusCode).toBe(400);
    expect(answer.text).toContain('TableType');
  });
});

describe('permissions and tenant isolation of history', () => {
  let id: number;
  beforeAll(async () => {
    id = await createRecord(stack.url, admin, sites.Always, { Title: 'secret v1' });
    expect((await update(id, admin, { Title: 'secret v2' })).body.StatusCode).toBe(200);
  });

  it.each([
    ['the administrator', () => admin, 200, 1],
    ['a writer of the site', () => writer.apiKey, 200, 1],
    ['a reader of the site', () => reader.apiKey, 200, 1],
    ['a user of the tenant without permission', () => stranger.apiKey, 404, 0],
    ["another tenant's manager", () => accounts.other.apiKey, 404, 0],
  ])('%s asking for the History', async (_, key, status, rows) => {
    for (const TableType of ['History', 'NormalAndHistory']) {
      const record = await get(id, { TableType }, key());
      expect(record.body.StatusCode, record.text).toBe(status);
      const site = await get(sites.Always, { TableType }, key());
      expect(site.body.StatusCode, site.text).toBe(status);
      if (status !== 200) {
        expect(record.text).not.toContain('secret');
        expect(site.text).not.toContain('secret');
        continue;
      }
      const history = (record.body.Response as Page).Data.filter((row) => row.Ver === 1);
      expect(history.map((row) => row.Title)).toEqual(rows ? ['secret v1'] : []);
    }
  });
});

describe('concurrent updates', () => {
  it('8 simultaneous version ups keep every version exactly once', async () => {
    const id = await createRecord(stack.url, admin, sites.Default, { Title: 'w', ClassA: 'initial' });
    const writers = Array.from({ length: 8 }, (_, index) => `writer ${index}`);
    const answers = await Promise.all(
      writers.map((name) => update(id, admin, { ClassA: name, VerUp: true })),
    );
    expect(answers.map((answer) => answer.body.StatusCode)).toEqual(writers.map(() => 200));
    const both = await page(id, { TableType: 'NormalAndHistory' });
    expect(both.Data.map((row) => row.Ver)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const values = both.Data.map((row) => (row.ClassHash as Record<string, string>).ClassA);
    expect(values.at(-1)).toBe('initial');
    expect([...values].sort()).toEqual(['initial', ...writers].sort());
  });

  it('8 simultaneous updates by other users under Default: one version per change of updator', async () => {
    const id = await createRecord(stack.url, admin, sites.Default, { Title: 'w' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => update(id, index % 2 ? admin : writer.apiKey, { NumA: index })),
    );
    expect(answers.map((answer) => answer.body.StatusCode)).toEqual(answers.map(() => 200));
    const both = await page(id, { TableType: 'NormalAndHistory' });
    const vers = both.Data.map((row) => row.Ver);
    // Each kept version once, numbered without gaps, and each kept row's next writer was another user.
    expect(vers).toEqual(Array.from({ length: vers.length }, (_, index) => vers.length - index));
    expect(new Set(vers).size).toBe(vers.length);
  });
});
