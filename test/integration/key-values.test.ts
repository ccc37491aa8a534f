import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings, useSettings } from '../../lib/config/settings';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * `ApiDataType: "KeyValues"` (reference/pleasanter-columns.md 8): every row of the note's table in each
 * value form, keys by LabelText (the column model's, in the caller's language) or ColumnName, the grid's
 * columns from the View, the site or the built-in list, and the first key winning a clash.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let site: number;
let parent: number;
let parentRecord: number;
let one: number;
let two: number;
let dept: number;
let group: number;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const rows = async (siteId: number, view: object, key = admin) => {
  const result = await post(`/api/items/${siteId}/get`, { ApiKey: key, View: view });
  if (result.body.StatusCode !== 200) throw new Error(result.text);
  return (result.body.Response as { Data: Record<string, unknown>[] }).Data;
};
const byTitle = async (view: object) => {
  const data = await rows(site, {
    ApiDataType: 'KeyValues',
    ...view,
    GridColumns: ['IssueId', ...((view as { GridColumns?: string[] }).GridColumns ?? [])],
  });
  return new Map(data.map((row) => [Number(row.IssueId ?? row.ID), row]));
};

const products = 'AC7459,製品A\nAC7460,製品B';

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  const made = async (path: string, body: object) =>
    Number((await post(path, { ApiKey: admin, ...body })).body.Id);
  dept = await made('/api/depts/create', { DeptCode: 'S1', DeptName: 'Sales' });
  group = await made('/api/groups/create', {
    GroupName: 'Sellers',
    Members: [`User,${accounts.user.userId}`],
  });
  parent = await createSite(stack.url, admin, 0, { Title: 'Parents', ReferenceType: 'Results' });
  parentRecord = await createRecord(stack.url, admin, parent, { Title: 'Parent title' });
  site = await createSite(stack.url, admin, 0, {
    Title: 'Grid',
    ReferenceType: 'Issues',
    SiteSettings: {
      Columns: [
        { ColumnName: 'ClassA', ChoicesText: products },
        { ColumnName: 'ClassB', ChoicesText: products, MultipleSelections: true },
        { ColumnName: 'ClassC', ChoicesText: `[[${parent}]]` },
        { ColumnName: 'ClassD', ChoicesText: '[[Users]]' },
        { ColumnName: 'ClassF', ChoicesText: products, LabelText: '分類A' },
        { ColumnName: 'ClassG', LabelText: '製品' },
        { ColumnName: 'ClassH', ChoicesText: '[[Depts]]' },
        { ColumnName: 'ClassI', ChoicesText: '[[Groups*]]' },
        { ColumnName: 'NumA', DecimalPlaces: 2, Unit: '円' },
        { ColumnName: 'NumB', Nullable: true },
      ],
    },
  });
  one = await createRecord(stack.url, admin, site, {
    Title: 'One',
    Status: 100,
    Manager: accounts.admin.userId,
    Owner: accounts.user.userId,
    StartTime: '2024/05/01',
    CompletionTime: '2024/05/10',
    ClassHash: {
      ClassA: 'AC7459',
      ClassB: '["AC7459","X"]',
      ClassC: String(parentRecord),
      ClassD: String(accounts.user.userId),
      ClassF: 'AC7460',
      ClassH: String(dept),
      ClassI: String(group),
    },
    NumHash: { NumA: 1234.5 },
    DateHash: { DateA: '2024/05/01' },
    CheckHash: { CheckA: true },
  });
  two = await createRecord(stack.url, admin, site, {
    Title: 'Two',
    ClassHash: { ClassA: 'X', ClassC: '99999999' },
  });
});
afterAll(async () => {
  useSettings(undefined);
  await stack.close();
});

type Form = 'DisplayValue' | 'Value' | 'Text';

describe('KeyValues', () => {
  it.each<[string, 'one' | 'two', Form, unknown]>([
    ['Status', 'one', 'DisplayValue', '未着手'],
    ['Status', 'one', 'Value', 100],
    ['Status', 'one', 'Text', '未着手'],
    ['ClassA', 'one', 'DisplayValue', '製品A'],
    ['ClassA', 'one', 'Value', 'AC7459'],
    ['ClassA', 'one', 'Text', '製品A'],
    ['ClassA', 'two', 'DisplayValue', '? X'],
    ['ClassA', 'two', 'Value', 'X'],
    ['ClassB', 'one', 'DisplayValue', '製品A, X'],
    ['ClassB', 'one', 'Value', '["AC7459","X"]'],
    ['ClassB', 'one', 'Text', '製品A, X'],
    ['ClassC', 'one', 'DisplayValue', 'Parent title'],
    ['ClassC', 'one', 'Text', 'Parent title'],
    ['ClassC', 'two', 'DisplayValue', '? 99999999'],
    ['ClassC', 'two', 'Value', '99999999'],
    ['Manager', 'one', 'DisplayValue', 'Administrator'],
    ['Manager', 'one', 'Text', 'Administrator'],
    ['DateA', 'one', 'DisplayValue', '2024/05/01'],
    ['DateA', 'one', 'Value', '2024-05-01T00:00:00'],
    ['DateA', 'one', 'Text', '2024/05/01'],
    ['StartTime', 'one', 'DisplayValue', '2024/05/01'],
    ['StartTime', 'one', 'Value', '2024-05-01T00:00:00'],
    ['CompletionTime', 'one', 'DisplayValue', '2024-05-10T00:00:00'],
    ['CompletionTime', 'one', 'Value', '2024-05-11T00:00:00'],
    ['CompletionTime', 'one', 'Text', '2024/05/10'],
    ['NumA', 'one', 'DisplayValue', 1234.5],
    ['NumA', 'one', 'Value', 1234.5],
    ['NumA', 'one', 'Text', '1234.5円'],
    ['NumA', 'two', 'DisplayValue', 0],
    ['NumA', 'two', 'Text', '0円'],
    ['CheckA', 'one', 'DisplayValue', true],
    ['CheckA', 'one', 'Value', true],
    ['CheckA', 'one', 'Text', 'True'],
    ['CheckA', 'two', 'Text', 'False'],
    ['Title', 'one', 'DisplayValue', 'One'],
    ['Title', 'one', 'Value', 'One'],
  ])('answers %s of record %s as %s: %j', async (column, which, form, expected) => {
    const data = await byTitle({
      GridColumns: [column],
      ApiColumnKeyDisplayType: 'ColumnName',
      ApiColumnValueDisplayType: form,
    });
    expect(data.get(which === 'one' ? one : two)?.[column]).toEqual(expected);
  });

  it.each<[string, Form, (a: TestAccounts) => unknown]>([
    ['ClassH', 'DisplayValue', () => 'Sales'],
    ['ClassH', 'Value', () => String(dept)],
    ['ClassH', 'Text', () => 'Sales'],
    ['ClassI', 'DisplayValue', () => 'Sellers'],
    ['ClassI', 'Value', () => String(group)],
    ['Owner', 'DisplayValue', (a) => a.user.loginId],
    ['Owner', 'Value', (a) => a.user.userId],
    ['ClassD', 'DisplayValue', (a) => a.user.loginId],
    ['ClassD', 'Value', (a) => String(a.user.userId)],
    ['ClassD', 'Text', (a) => a.user.loginId],
  ])('answers the user, dept or group column %s as %s', async (column, form, expected) => {
    const data = await byTitle({
      GridColumns: [column],
      ApiColumnKeyDisplayType: 'ColumnName',
      ApiColumnValueDisplayType: form,
    });
    expect(data.get(one)?.[column]).toEqual(expected(accounts));
  });

  it('keys by the LabelText of the caller language, the site own labels first, the first key winning', async () => {
    const view = { GridColumns: ['Title', 'ClassA', 'NumA', 'DateA', 'ClassG', 'ClassF'] };
    expect(Object.keys((await byTitle(view)).get(one) ?? {})).toEqual([
      'ID',
      'タイトル',
      '分類A',
      '数値A',
      '日付A',
    ]);
    expect((await byTitle(view)).get(one)?.分類A).toBe('製品A');
    useSettings({ ...settings(), Service: { ...settings().Service, DefaultLanguage: 'en' } });
    try {
      const row = (await byTitle(view)).get(one);
      expect(row).toEqual({
        ID: one,
        Title: 'One',
        ClassA: '製品A',
        'Numeric valueA': 1234.5,
        DateA: '05/01/2024',
        分類A: '製品B',
      });
    } finally {
      useSettings(undefined);
    }
  });

  it('takes the key and value forms per column from ApiColumnHash', async () => {
    const data = await byTitle({
      GridColumns: ['Title', 'ClassA', 'Manager'],
      ApiColumnKeyDisplayType: 'ColumnName',
      ApiColumnValueDisplayType: 1,
      ApiColumnHash: { ClassA: { KeyDisplayType: 'LabelText', ValueDisplayType: 'DisplayValue' } },
    });
    expect(data.get(one)).toEqual({
      IssueId: one,
      Title: 'One',
      分類A: '製品A',
      Manager: accounts.admin.userId,
    });
  });

  it("uses the site's GridColumns, else the built-in grid", async () => {
    const own = await createSite(stack.url, admin, 0, {
      Title: 'Own grid',
      ReferenceType: 'Results',
      SiteSettings: { GridColumns: ['Status', 'Title'] },
    });
    await createRecord(stack.url, admin, own, { Title: 'x', Status: 200 });
    expect(await rows(own, { ApiDataType: 'KeyValues' })).toEqual([{ 状況: '実施中', タイトル: 'x' }]);
    const plain = await createSite(stack.url, admin, 0, { Title: 'Plain', ReferenceType: 'Results' });
    await createRecord(stack.url, admin, plain, { Title: 'y', Status: 100, Manager: accounts.admin.userId });
    const [row] = await rows(plain, { ApiDataType: 'KeyValues', ApiColumnKeyDisplayType: 'ColumnName' });
    // Comments are empty, and empty values are left out (CONTRACT 1); Owner defaults to the caller.
    expect(Object.keys(row ?? {})).toEqual([
      'ResultId',
      'TitleBody',
      'Status',
      'Manager',
      'Owner',
      'Updator',
      'UpdatedTime',
    ]);
    expect(row).toMatchObject({ TitleBody: 'y', Status: '未着手', Manager: 'Administrator' });
  });

  it('keeps raw values in the Default shape, and ignores GridColumns there', async () => {
    const [record] = (await rows(one, { GridColumns: ['Title'] })) as { ClassHash: object; Status: number }[];
    expect(record).toMatchObject({
      Status: 100,
      ClassHash: { ClassA: 'AC7459', ClassC: String(parentRecord) },
    });
  });

  it.each([
    ['an unknown grid column', { ApiDataType: 'KeyValues', GridColumns: ['Nope'] }, 'Nope'],
    ['an unknown data type', { ApiDataType: 'Table' }, 'ApiDataType'],
    [
      'an unknown value type',
      { ApiDataType: 'KeyValues', ApiColumnValueDisplayType: 'Html' },
      'ApiColumnValueDisplayType',
    ],
    [
      'an unknown value type of a column',
      { ApiDataType: 'KeyValues', GridColumns: ['Title'], ApiColumnHash: { Title: { ValueDisplayType: 7 } } },
      'ApiColumnHash.Title',
    ],
  ])('refuses %s, naming it', async (_case, view, named) => {
    const result = await post(`/api/items/${site}/get`, { ApiKey: admin, View: view });
    expect(result.body.StatusCode).toBe(400);
    expect(result.text).toContain(named);
  });
});
