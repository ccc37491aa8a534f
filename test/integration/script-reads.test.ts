import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useSettings } from '../../lib/config/settings';
import { logger } from '../../lib/log';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// items.Get with a view, GetSite and its family (CONTRACT 13, reference/pleasanter-script-objects.md 1):
// each answer is compared with what the API itself answers the same user for the same body.

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let reader: TestUser;
let outsider: TestUser;
/** Listed in NumB's ReadColumnAccessControls, as the reader is not. */
let listed: TestUser;
const ids = { folder: 0, table: 0, hidden: 0, probe: 0, probeRecord: 0, foreign: 0, record: 0, big: 0 };

const post = (path: string, body?: unknown) => call(stack.url, path, body);

/**
 * Runs `expression` in a server script as `user` (the probe site's BeforeUpdate evaluates the record's
 * Body) and answers its JSON value.
 */
async function probe(user: TestUser, expression: string): Promise<unknown> {
  const updated = await post(`/api/items/${ids.probeRecord}/update`, {
    ApiKey: user.apiKey,
    Body: expression,
  });
  if (updated.body.StatusCode !== 200) throw new Error(`probe: ${updated.text}`);
  const read = await post(`/api/items/${ids.probeRecord}/get`, { ApiKey: admin });
  const [shown] = (read.body.Response as { Data: { DescriptionHash: { DescriptionA: string } }[] }).Data;
  return JSON.parse(shown?.DescriptionHash.DescriptionA ?? 'null');
}

/** What the API answers `user` for the body: the page's [id, Ver, Title]. */
async function apiPage(user: TestUser, id: number, body: object): Promise<unknown[]> {
  const read = await post(`/api/items/${id}/get`, { ApiKey: user.apiKey, ...body });
  if (read.body.StatusCode !== 200) return [];
  const data = (read.body.Response as { Data: { IssueId: number; Ver: number; Title: string }[] }).Data;
  return data.map((item) => [item.IssueId, item.Ver, item.Title]);
}

const pageOf = (id: number, body: string) =>
  `Array.from(items.Get(${id}, ${body})).map((m) => [m.IssueId, m.Ver, m.Title])`;

async function indexed(name: string, expected: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const found = await post(`/api/items/${ids.folder}/GetClosestSiteId`, {
      ApiKey: admin,
      FindSiteNames: [name],
    });
    if ((found.body.Data as { SiteId: number }[] | undefined)?.[0]?.SiteId === expected) return;
    if (Date.now() - started > 10_000) throw new Error(`${name} not indexed after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  stack = await startStack({ streams: true });
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  reader = await createUser(stack.url, admin, `reader-${Date.now()}`);
  outsider = await createUser(stack.url, admin, `outsider-${Date.now()}`);
  listed = await createUser(stack.url, admin, `listed-${Date.now()}`);
  const both = [`User,${reader.userId},15`, `User,${outsider.userId},15`, `User,${listed.userId},15`];
  ids.folder = await createSite(stack.url, admin, 0, {
    Title: 'reads folder',
    Permissions: [`User,${reader.userId},1`],
  });
  ids.table = await createSite(stack.url, admin, ids.folder, {
    ReferenceType: 'Issues',
    Title: 'Reads Target',
    SiteName: 'reads-target',
    SiteGroupName: 'reads-group',
    InheritPermission: 0,
    Permissions: [`User,${reader.userId},1`, `User,${listed.userId},1`],
    SiteSettings: { ReadColumnAccessControls: [{ ColumnName: 'NumB', Users: [listed.userId] }] },
  });
  ids.hidden = await createSite(stack.url, admin, ids.folder, {
    ReferenceType: 'Issues',
    Title: 'Reads Target',
    SiteName: 'reads-target',
    InheritPermission: 0,
  });
  ids.probe = await createSite(stack.url, admin, 0, {
    ReferenceType: 'Issues',
    Permissions: both,
    SiteSettings: {
      ServerScripts: [
        {
          Body: `const out = new Function('return (' + model.Body + ');')();
                 model.DescriptionA = String(JSON.stringify(out === undefined ? null : out));`,
          BeforeUpdate: true,
        },
      ],
    },
  });
  ids.probeRecord = await createRecord(stack.url, reader.apiKey, ids.probe, { Title: 'probe' });
  for (let n = 0; n < 9; n++) {
    const id = await createRecord(stack.url, admin, ids.table, {
      Title: `r${n}`,
      Status: [100, 200, 900][n % 3],
      NumHash: { NumA: n * 10 - 25, NumB: n },
      ...(n % 2 === 0 && { DateHash: { DateA: `2026-01-${10 + n}T09:30:00` } }),
    });
    if (n === 0) ids.record = id;
  }
  // A version up: the History table holds r0's first version.
  await post(`/api/items/${ids.record}/update`, { ApiKey: admin, Title: 'r0 v2', VerUp: true });
  const theirs = await createSite(stack.url, accounts.other.apiKey, 0, { ReferenceType: 'Issues' });
  ids.foreign = await createRecord(stack.url, accounts.other.apiKey, theirs, { Title: 'foreign' });
  ids.big = await createSite(stack.url, admin, 0, {
    ReferenceType: 'Issues',
    Permissions: [`User,${reader.userId},1`],
  });
  const bulk = await post(`/api/items/${ids.big}/bulkupsert`, {
    ApiKey: admin,
    Keys: ['Title'],
    Data: Array.from({ length: 205 }, (_, n) => ({ Title: `b${n}` })),
  });
  if (bulk.body.StatusCode !== 200) throw new Error(`bulkupsert: ${bulk.text}`);
  await indexed('reads-target', ids.table);
});
afterAll(() => stack.close());
afterEach(() => {
  useSettings(undefined);
  vi.restoreAllMocks();
});

describe('items.Get', () => {
  it.each([
    ['no view', 'undefined', {}],
    ['an empty string', "''", {}],
    [
      'a Status filter',
      `'{"View":{"ColumnFilterHash":{"Status":"[\\\\"100\\\\",\\\\"900\\\\"]"}}}'`,
      { View: { ColumnFilterHash: { Status: '["100","900"]' } } },
    ],
    [
      'a sorter',
      `'{"View":{"ColumnSorterHash":{"NumA":"asc"}}}'`,
      { View: { ColumnSorterHash: { NumA: 'asc' } } },
    ],
    [
      'a numeric range',
      `'{"View":{"ColumnFilterHash":{"NumA":"[\\\\"20,50\\\\"]"}}}'`,
      { View: { ColumnFilterHash: { NumA: '["20,50"]' } } },
    ],
    ['Offset and PageSize', `'{"Offset":2,"PageSize":3}'`, { Offset: 2, PageSize: 3 }],
    ['a PageSize over the cap', `'{"PageSize":5000}'`, { PageSize: 5000 }],
    ['lower-case names', `'{"offset":1,"pagesize":2}'`, { Offset: 1, PageSize: 2 }],
    ['TableType History', `'{"TableType":"History"}'`, { TableType: 'History' }],
    ['TableType NormalAndHistory', `'{"TableType":"NormalAndHistory"}'`, { TableType: 'NormalAndHistory' }],
    [
      'an object for the body',
      `{ View: { ColumnFilterHash: { Status: '["200"]' } } }`,
      { View: { ColumnFilterHash: { Status: '["200"]' } } },
    ],
  ])('answers with %s what the API answers for the same body', async (_, body, apiBody) => {
    const expected = await apiPage(reader, ids.table, apiBody);
    expect(expected.length).toBeGreaterThan(0);
    expect(await probe(reader, pageOf(ids.table, body))).toEqual(expected);
  });

  it('pages a table of more than 200 records as the API does: at most 200, then Offset', async () => {
    const sizes = [
      '',
      '\'{"PageSize":5000}\'',
      '\'{"PageSize":199}\'',
      '\'{"Offset":200}\'',
      '\'{"Offset":195,"PageSize":3}\'',
    ];
    expect(
      await probe(reader, `[${sizes.map((body) => `items.Get(${ids.big}${body && `, ${body}`}).length`)}]`),
    ).toEqual([200, 200, 199, 5, 3]);
  });

  it('answers a record as one element when its View selects it, and none when not', async () => {
    const selected = `'{"View":{"ColumnFilterHash":{"Status":"[\\\\"100\\\\"]"}}}'`;
    const other = `'{"View":{"ColumnFilterHash":{"Status":"[\\\\"200\\\\"]"}}}'`;
    expect(await probe(reader, `[${pageOf(ids.record, selected)}, ${pageOf(ids.record, other)}]`)).toEqual([
      [[ids.record, 2, 'r0 v2']],
      [],
    ]);
  });

  it.each([
    ['a column that does not exist', `'{"View":{"ColumnFilterHash":{"NoSuchColumn":"1"}}}'`],
    [
      'a value that does not parse for its column',
      `'{"View":{"ColumnFilterHash":{"NumA":"[\\\\"abc\\\\"]"}}}'`,
    ],
    ['a View property Kiroku does not apply', `'{"View":{"KambanGroupByX":"Status"}}'`],
    ['text that is not JSON', "'{View:'"],
    ['JSON that is not an object', "'[1]'"],
    ['a number', '5'],
    ['a negative Offset', `'{"Offset":-1}'`],
    ['an unknown TableType', `'{"TableType":"Archive"}'`],
    ['KeyValues, which has no model form', `'{"View":{"ApiDataType":"KeyValues"}}'`],
    ['an ApiKey that is no key', `'{"ApiKey":"${'0'.repeat(128)}"}'`],
  ])('answers an empty array, and logs why, for %s: never every record', async (_, body) => {
    const warn = vi.spyOn(logger, 'warn');
    expect(await probe(reader, pageOf(ids.table, body))).toEqual([]);
    expect(warn).toHaveBeenCalledWith(
      'server script call refused',
      expect.objectContaining({ call: 'items.Get', siteId: ids.probe, condition: 'BeforeUpdate' }),
    );
  });

  it.each([
    ['the table', 'table', 'reader', 9],
    ['the table', 'table', 'outsider', 0],
    ['a record', 'record', 'reader', 1],
    ['a record', 'record', 'outsider', 0],
    ['a folder', 'folder', 'reader', 0],
    ["another tenant's record", 'foreign', 'reader', 0],
  ] as const)('reads %s as the script user (%s, %s): %i elements', async (_, id, who, count) => {
    const user = who === 'reader' ? reader : outsider;
    expect(await probe(user, `[items.Get(${ids[id]}).length, items.Get(999999999).length]`)).toEqual([
      count,
      0,
    ]);
  });

  it('reads as the ApiKey of the body, as the reference does', async () => {
    expect(await probe(outsider, `items.Get(${ids.table}, '{"ApiKey":"${reader.apiKey}"}').length`)).toBe(9);
  });

  it('answers real arrays with Length and Count that are not enumerable', async () => {
    const list = `items.Get(${ids.table})`;
    expect(
      await probe(
        reader,
        `[Array.isArray(${list}), ${list}.Length, ${list}.Count, Object.keys(${list}).length]`,
      ),
    ).toEqual([true, 9, 9, 9]);
  });
});

describe('items.GetSite and its family', () => {
  it.each([
    ['GetSite by id', 'items.GetSite(TABLE)', 'reader', ['table']],
    ['GetSite of a site the user may not read', 'items.GetSite(HIDDEN)', 'reader', []],
    ['GetSite by the outsider', 'items.GetSite(TABLE)', 'outsider', []],
    ['GetSiteByName', "items.GetSiteByName('reads-target')", 'reader', ['table']],
    ['GetSiteByName', "items.GetSiteByName('reads-target')", 'admin', ['table', 'hidden']],
    ['GetSiteByTitle', "items.GetSiteByTitle('Reads Target')", 'reader', ['table']],
    ['GetSiteByTitle', "items.GetSiteByTitle('Reads Target')", 'admin', ['table', 'hidden']],
    ['GetSiteByGroupName', "items.GetSiteByGroupName('reads-group')", 'reader', ['table']],
    ['GetSiteByName of nothing', "items.GetSiteByName('nothing-here')", 'reader', []],
    ['GetSiteByName of an empty name', "items.GetSiteByName('')", 'reader', []],
  ] as const)('%s: %s as %s answers the sites the user may read', async (_, expression, who, expected) => {
    const user = who === 'reader' ? reader : who === 'outsider' ? outsider : accounts.admin;
    const code = expression.replace('TABLE', String(ids.table)).replace('HIDDEN', String(ids.hidden));
    expect(await probe(user, `Array.from(${code}).map((site) => site.SiteId)`)).toEqual(
      expected.map((name) => ids[name]),
    );
  });

  it('answers a site as the API shows it, as the manual uses it: GetSite(id)[0]', async () => {
    expect(
      await probe(
        reader,
        `[items.GetSite(${ids.table})[0].Title, items.GetSite(${ids.table})[0].ReferenceType, items.GetSite(${ids.table}).Length]`,
      ),
    ).toEqual(['Reads Target', 'Issues', 1]);
  });
});

describe('aggregates', () => {
  type Shown = { Status: number; NumHash?: { NumA?: number }; DateHash?: { DateA?: string } };
  /** What the API answers the reader for the View, aggregated here. */
  async function expected(aggregate: string, view: object | undefined): Promise<number> {
    const read = await post(`/api/items/${ids.table}/get`, {
      ApiKey: reader.apiKey,
      ...(view && { View: view }),
    });
    const { Data, TotalCount } = read.body.Response as { Data: Shown[]; TotalCount: number };
    if (aggregate === 'Count') return TotalCount;
    const dates = Data.flatMap((item) =>
      item.DateHash?.DateA ? [Date.parse(`${item.DateHash.DateA}+09:00`)] : [],
    );
    const numbers = Data.map((item) => item.NumHash?.NumA ?? 0);
    switch (aggregate) {
      case 'Sum':
        return numbers.reduce((sum, value) => sum + value, 0);
      case 'Average':
        return numbers.reduce((sum, value) => sum + value, 0) / numbers.length;
      case 'Max':
        return Math.max(...numbers);
      case 'Min':
        return Math.min(...numbers);
      case 'MaxDate':
        return Math.max(...dates);
      default:
        return Math.min(...dates);
    }
  }
  const views = [
    ['no view', undefined],
    ['a Status filter', { ColumnFilterHash: { Status: '["100","900"]' } }],
    ['a numeric range', { ColumnFilterHash: { NumA: '["0,40"]' } }],
    [
      'a Status filter and a sorter',
      { ColumnFilterHash: { Status: '["200"]' }, ColumnSorterHash: { NumA: 'desc' } },
    ],
  ] as const;
  const cases = ['Sum', 'Average', 'Max', 'Min', 'MaxDate', 'MinDate', 'Count'].flatMap((aggregate) =>
    views.map(([name, view]) => [aggregate, name, view] as const),
  );

  it.each(cases)('items.%s with %s equals the API answer for the same View', async (aggregate, _, view) => {
    const body = view === undefined ? '' : `, ${JSON.stringify(JSON.stringify({ View: view }))}`;
    const column = aggregate === 'Count' ? '' : aggregate.endsWith('Date') ? ", 'DateA'" : ", 'NumA'";
    const code = `items.${aggregate}(${ids.table}${column}${body})`;
    const answer = await probe(reader, aggregate.endsWith('Date') ? `${code}.getTime()` : code);
    const wanted = await expected(aggregate, view);
    expect(answer).toBeCloseTo(wanted, 6);
  });

  const EMPTY_TIME = Date.parse('0001-01-01T00:00:00Z');
  it.each([
    ['a text column', `items.Sum(TABLE, 'ClassA')`, 'reader', 0],
    ['Status, an integer column', `items.Sum(TABLE, 'Status')`, 'reader', 0],
    ['a column that does not exist', `items.Max(TABLE, 'NumZZ')`, 'reader', 0],
    ['a date aggregate of a number column', `items.MaxDate(TABLE, 'NumA').getTime()`, 'reader', EMPTY_TIME],
    ['a date column without values', `items.MinDate(TABLE, 'DateB').getTime()`, 'reader', EMPTY_TIME],
    ['a column the user may not read', `items.Sum(TABLE, 'NumB')`, 'reader', 0],
    ['a column the user is listed for', `items.Sum(TABLE, 'NumB')`, 'listed', 36],
    ['a site the user may not read', `items.Sum(TABLE, 'NumA')`, 'outsider', 0],
    ['Count of a site the user may not read', 'items.Count(TABLE)', 'outsider', 0],
    ['Count of a folder', 'items.Count(FOLDER)', 'reader', 0],
    ['a body without View', `items.Count(TABLE, '{}')`, 'reader', 0],
    ['a body with paging', `items.Count(TABLE, '{"View":{},"PageSize":2}')`, 'reader', 0],
    [
      'a View that cannot be applied',
      `items.Count(TABLE, '{"View":{"ColumnFilterHash":{"Nope":"1"}}}')`,
      'reader',
      0,
    ],
    [
      'a View as an object',
      `items.Count(TABLE, { View: { ColumnFilterHash: { Status: '["100"]' } } })`,
      'reader',
      3,
    ],
    ['an empty View: every record', `items.Count(TABLE, '{"View":{}}')`, 'reader', 9],
  ] as const)('answers %s: %s as %s is %s', async (_, expression, who, answer) => {
    const user = who === 'reader' ? reader : who === 'listed' ? listed : outsider;
    const code = expression.replace('TABLE', String(ids.table)).replace('FOLDER', String(ids.folder));
    expect(await probe(user, code)).toBe(answer);
  });

  it('logs why it answered its failure result', async () => {
    const warn = vi.spyOn(logger, 'warn');
    expect(await probe(reader, `items.Sum(${ids.table}, 'NumB')`)).toBe(0);
    expect(warn).toHaveBeenCalledWith(
      'server script call refused',
      expect.objectContaining({ call: 'items.Sum', reason: 'no Read on NumB', siteId: ids.probe }),
    );
  });
});
