import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Link columns (reference/pleasanter-columns.md 6): a Class column whose choices link to another site
 * holds the parent's id as text, and a filter on it is exact; `ClassA~{siteId},ClassB` names the parent's
 * ClassB through it, in filters, sorters and KeyValues. A parent the caller may not read is as if
 * unreadable: "" in KeyValues, never matching a filter, negated or not.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let parents: number;
let children: number;
let red: number;
let blue: number;
let wiki: number;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const titles = async (view: object, key = admin) => {
  const result = await post(`/api/items/${children}/get`, { ApiKey: key, View: view });
  if (result.body.StatusCode !== 200) throw new Error(result.text);
  return ((result.body.Response as { Data: { Title: string }[] }).Data ?? []).map((r) => r.Title);
};
const sorted = async (view: object, key = admin) => (await titles(view, key)).sort();
const keyValues = async (view: object, key = admin) => {
  const result = await post(`/api/items/${children}/get`, {
    ApiKey: key,
    View: { ApiDataType: 'KeyValues', ApiColumnKeyDisplayType: 'ColumnName', ...view },
  });
  if (result.body.StatusCode !== 200) throw new Error(result.text);
  return (result.body.Response as { Data: Record<string, unknown>[] }).Data;
};

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  // The parents' site: the plain user may not read it.
  parents = await createSite(stack.url, admin, 0, {
    Title: 'Customers',
    ReferenceType: 'Results',
    SiteSettings: { Columns: [{ ColumnName: 'ClassB', ChoicesText: 'A,Rank A\nB,Rank B' }] },
  });
  red = await createRecord(stack.url, admin, parents, {
    Title: 'Red Inc',
    ClassHash: { ClassB: 'A' },
    NumHash: { NumA: 30 },
  });
  blue = await createRecord(stack.url, admin, parents, {
    Title: 'Blue Ltd',
    ClassHash: { ClassB: 'B' },
    NumHash: { NumA: 10 },
  });
  // A wiki's page: the reference's createsite makes it from the site's Body; made here if it did not.
  const lines = '01,北海道\n13,東京都';
  wiki = await createSite(stack.url, admin, 0, { Title: 'Prefectures', ReferenceType: 'Wikis', Body: lines });
  const page = await post(`/api/items/${wiki}/get`, { ApiKey: admin });
  if ((page.body.Response as { TotalCount: number }).TotalCount === 0)
    await createRecord(stack.url, admin, wiki, { Title: 'Prefectures', Body: lines });
  children = await createSite(stack.url, admin, 0, {
    Title: 'Orders',
    ReferenceType: 'Results',
    Permissions: [`User,${accounts.user.userId},1`],
    SiteSettings: {
      Columns: [
        { ColumnName: 'ClassA', ChoicesText: `[[${parents}]]` },
        {
          ColumnName: 'ClassC',
          ChoicesText: JSON.stringify([{ SiteId: parents }]),
          MultipleSelections: true,
        },
        { ColumnName: 'ClassD', ChoicesText: `[[${wiki}]]` },
      ],
    },
  });
  const add = (body: object) => createRecord(stack.url, admin, children, body);
  await add({ Title: 'to red', ClassHash: { ClassA: String(red), ClassC: `["${red}"]`, ClassD: '13' } });
  await add({ Title: 'to blue', ClassHash: { ClassA: String(blue), ClassC: `["${blue}","${red}"]` } });
  // An id that holds the red parent's id inside it, and one of no record.
  await add({ Title: 'to 1red', ClassHash: { ClassA: `1${red}`, ClassC: `["1${red}"]` } });
  await add({ Title: 'to nobody' });
});
afterAll(() => stack.close());

describe('link columns', () => {
  it.each<[string, () => Record<string, unknown>, string[]]>([
    ['a link filter is exact', () => ({ ClassA: `["${red}"]` }), ['to red']],
    [
      'a multi-select link filter matches the element exactly',
      () => ({ ClassC: `["${red}"]` }),
      ['to blue', 'to red'],
    ],
    ['"\\t" is no link', () => ({ ClassA: '["\\t"]' }), ['to nobody']],
    ["a parent's choice column", () => ({ [`ClassA~${parents},ClassB`]: '["A"]' }), ['to red']],
    ["a parent's number range", () => ({ [`ClassA~${parents},NumA`]: '["20,"]' }), ['to red']],
    ["a parent's title", () => ({ [`ClassA~${parents},Title`]: 'blue' }), ['to blue']],
    [
      "a parent's column inside a group",
      () => ({ or_1: { [`ClassA~${parents},ClassB`]: '["B"]', Title: 'nobody' } }),
      ['to blue', 'to nobody'],
    ],
  ])('%s', async (_case, hash, expected) => {
    expect(await sorted({ ColumnFilterHash: hash() })).toEqual(expected);
  });

  it("negates a parent's column: records with another or no parent value", async () => {
    const name = `ClassA~${parents},ClassB`;
    expect(await sorted({ ColumnFilterHash: { [name]: '["A"]' }, ColumnFilterNegatives: [name] })).toEqual([
      'to 1red',
      'to blue',
      'to nobody',
    ]);
  });

  it("sorts by a parent's column", async () => {
    const name = `ClassA~${parents},NumA`;
    const order = await titles({
      ColumnFilterHash: { ClassA: `["${red}","${blue}"]` },
      ColumnSorterHash: { [name]: 'desc' },
    });
    expect(order).toEqual(['to red', 'to blue']);
  });

  it("sorts a link column by its parents' titles, as the reference does", async () => {
    expect(await titles({ ColumnSorterHash: { ClassA: 'asc' } })).toEqual([
      'to nobody',
      'to 1red',
      'to blue',
      'to red',
    ]);
  });

  it("shows link titles, a wiki's line, and a parent's column in KeyValues", async () => {
    const rows = await keyValues({
      GridColumns: [
        'Title',
        'ClassA',
        'ClassC',
        'ClassD',
        `ClassA~${parents},ClassB`,
        `ClassA~${parents},Title`,
      ],
      ColumnSorterHash: { Title: 'asc' },
    });
    expect(rows).toEqual([
      { Title: 'to 1red', ClassA: `? 1${red}`, ClassC: `1${red}` },
      {
        Title: 'to blue',
        ClassA: 'Blue Ltd',
        ClassC: 'Blue Ltd, Red Inc',
        [`ClassA~${parents},ClassB`]: 'Rank B',
        [`ClassA~${parents},Title`]: 'Blue Ltd',
      },
      { Title: 'to nobody' },
      {
        Title: 'to red',
        ClassA: 'Red Inc',
        ClassC: 'Red Inc',
        ClassD: '東京都',
        [`ClassA~${parents},ClassB`]: 'Rank A',
        [`ClassA~${parents},Title`]: 'Red Inc',
      },
    ]);
  });

  it("keys a parent's column by the parent's LabelText", async () => {
    const [row] = await keyValues({
      GridColumns: [`ClassA~${parents},ClassB`],
      ApiColumnKeyDisplayType: 'LabelText',
      ColumnFilterHash: { Title: 'to red' },
    });
    expect(row).toEqual({ 分類B: 'Rank A' });
  });

  it('treats a parent the caller may not read as unreadable', async () => {
    const key = accounts.user.apiKey;
    const name = `ClassA~${parents},ClassB`;
    const rows = await keyValues(
      { GridColumns: ['Title', 'ClassA', name], ColumnFilterHash: { Title: 'to red' } },
      key,
    );
    expect(rows).toEqual([{ Title: 'to red', ClassA: `? ${red}`, [name]: '' }]);
    expect(await sorted({ ColumnFilterHash: { [name]: '["A"]' } }, key)).toEqual([]);
    // Never matching, negated or not: only the records without a parent pass a negated filter.
    expect(
      await sorted({ ColumnFilterHash: { [name]: '["A"]' }, ColumnFilterNegatives: [name] }, key),
    ).toEqual(['to nobody']);
  });

  it.each<[string, () => object, string]>([
    [
      'a link column that links elsewhere',
      () => ({ ColumnFilterHash: { [`ClassA~${wiki},Title`]: 'x' } }),
      'ClassA is not a link to site',
    ],
    [
      'a column that is no link',
      () => ({ ColumnFilterHash: { [`ClassB~${parents},Title`]: 'x' } }),
      'ClassB',
    ],
    ['a multi-select link', () => ({ ColumnFilterHash: { [`ClassC~${parents},Title`]: 'x' } }), 'ClassC'],
    [
      "a parent's unknown column",
      () => ({ ColumnSorterHash: { [`ClassA~${parents},Nope`]: 'asc' } }),
      'Nope',
    ],
    ['a malformed name', () => ({ ColumnFilterHash: { 'ClassA~x': 'x' } }), 'ClassA~x'],
    [
      'a joined grid column through no link',
      () => ({ ApiDataType: 'KeyValues', GridColumns: [`ClassB~${parents},Title`] }),
      'ClassB',
    ],
  ])('refuses %s with a 400 naming it', async (_case, view, named) => {
    const result = await post(`/api/items/${children}/get`, { ApiKey: admin, View: view() });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ StatusCode: 400, Message: expect.stringContaining(named) });
  });

  it("drops a parent's column the site's own GridColumns name that no longer resolves", async () => {
    const stale = await createSite(stack.url, admin, 0, {
      Title: 'Stale grid',
      ReferenceType: 'Results',
      SiteSettings: { GridColumns: ['Title', `ClassB~${parents},Title`] },
    });
    await createRecord(stack.url, admin, stale, { Title: 'kept' });
    const result = await post(`/api/items/${stale}/get`, {
      ApiKey: admin,
      View: { ApiDataType: 'KeyValues', ApiColumnKeyDisplayType: 'ColumnName' },
    });
    expect((result.body.Response as { Data: unknown[] }).Data).toEqual([{ Title: 'kept' }]);
  });

  it("refuses a parent's column where only get reads parents (bulkdelete), deleting nothing", async () => {
    const result = await post(`/api/items/${children}/bulkdelete`, {
      ApiKey: admin,
      View: { ColumnFilterHash: { [`ClassA~${parents},ClassB`]: '["A"]' } },
    });
    expect(result.body.StatusCode).toBe(400);
    expect(await sorted({})).toHaveLength(4);
  });
});
