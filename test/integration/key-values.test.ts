import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/** `ApiDataType: "KeyValues"` with GridColumns and the key and value display types (reference 2.3). */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let site: number;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const data = async (view: object) => {
  const result = await post(`/api/items/${site}/get`, { ApiKey: admin, View: view });
  return {
    status: result.body.StatusCode,
    text: result.text,
    data: (result.body.Response as { Data: unknown[] })?.Data,
  };
};

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  site = await createSite(stack.url, admin, 0, {
    Title: 'Grid',
    ReferenceType: 'Results',
    SiteSettings: {
      Columns: [
        { ColumnName: 'ClassB', ChoicesText: '1,Open\n2,Closed', LabelText: 'State' },
        { ColumnName: 'DateA', EditorFormat: 'Ymdhm' },
        // One decimal place, so that 12.5 is stored as given (a write rounds by DecimalPlaces).
        { ColumnName: 'NumA', DecimalPlaces: 1 },
      ],
    },
  });
  await createRecord(stack.url, admin, site, {
    Title: 'One',
    Manager: accounts.admin.userId,
    ClassHash: { ClassB: '2' },
    DateHash: { DateA: '2025/01/20 10:30' },
    NumHash: { NumA: 12.5 },
  });
});
afterAll(() => stack.close());

describe('KeyValues', () => {
  it('answers the GridColumns keyed by label with display values', async () => {
    const result = await data({
      ApiDataType: 'KeyValues',
      GridColumns: ['Title', 'ClassB', 'Manager', 'DateA', 'NumA', 'DateB'],
    });
    expect(result.data).toEqual([
      {
        Title: 'One',
        State: 'Closed',
        Manager: 'Administrator',
        'Date A': '2025/01/20 10:30',
        'Numeric A': 12.5,
      },
    ]);
  });

  it('keys by column name and answers raw values when asked, per View and per column', async () => {
    const result = await data({
      ApiDataType: 1,
      GridColumns: ['Title', 'ClassB', 'Manager', 'DateA'],
      ApiColumnKeyDisplayType: 'ColumnName',
      ApiColumnValueDisplayType: 'Value',
      ApiColumnHash: { ClassB: { KeyDisplayType: 'LabelText', ValueDisplayType: 'DisplayValue' } },
    });
    expect(result.data).toEqual([
      { Title: 'One', State: 'Closed', Manager: accounts.admin.userId, DateA: '2025-01-20T10:30:00' },
    ]);
  });

  it('uses the site grid columns when the View names none', async () => {
    const result = await data({ ApiDataType: 'KeyValues', ApiColumnKeyDisplayType: 'ColumnName' });
    expect(Object.keys((result.data?.[0] ?? {}) as object)).toEqual([
      'ResultId',
      'Title',
      'Status',
      'Manager',
      'Owner',
      'UpdatedTime',
    ]);
  });

  it('ignores GridColumns in the Default shape', async () => {
    const result = await data({ GridColumns: ['Title'] });
    expect(result.data?.[0]).toMatchObject({ Title: 'One', ClassHash: { ClassB: '2' } });
  });

  it.each([
    ['an unknown grid column', { ApiDataType: 'KeyValues', GridColumns: ['Nope'] }, 'Nope'],
    ['an unknown data type', { ApiDataType: 'Table' }, 'ApiDataType'],
    [
      'the grid text value type',
      { ApiDataType: 'KeyValues', ApiColumnValueDisplayType: 'Text' },
      'ApiColumnValueDisplayType',
    ],
  ])('refuses %s, naming it', async (_case, view, named) => {
    const result = await data(view);
    expect(result.status).toBe(400);
    expect(result.text).toContain(named);
  });
});
