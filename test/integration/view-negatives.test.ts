import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useClock } from '../../lib/clock';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * View.ColumnFilterNegatives (reference/pleasanter-columns.md 9), applied whenever it is sent (CONTRACT
 * 11): each kind of column negated as the reference's SQL negates it (the complement of the positive
 * filter, NULL included), inside groups by `group\Column`, the preset filters by `ViewFilters_<flag>`,
 * and what cannot be applied refused with a 400 naming it.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let site: number;
let issues: number;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const titles = async (siteId: number, view: object) => {
  const result = await post(`/api/items/${siteId}/get`, { ApiKey: admin, View: view });
  if (result.body.StatusCode !== 200) throw new Error(result.text);
  return ((result.body.Response as { Data: { Title: string }[] }).Data ?? []).map((r) => r.Title).sort();
};

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  useClock(() => Date.parse('2025-01-19T20:00:00Z'));
  site = await createSite(stack.url, admin, 0, {
    Title: 'Negatives',
    ReferenceType: 'Results',
    SiteSettings: {
      Columns: [
        { ColumnName: 'ClassB', ChoicesText: 'a\nb\nc' },
        { ColumnName: 'ClassC', ChoicesText: 'a\nb\nc', MultipleSelections: true },
        { ColumnName: 'ClassD', ChoicesText: '[[Users]]' },
        { ColumnName: 'ClassE', ChoicesText: '[[Depts]]' },
        { ColumnName: 'NumB', Nullable: true },
      ],
    },
  });
  const me = accounts.admin.userId;
  const add = (body: object) => createRecord(stack.url, admin, site, body);
  await add({
    Title: 'Alpha report',
    Status: 100,
    Manager: me,
    NumHash: { NumA: 5, NumB: 0 },
    DateHash: { DateA: '2025-01-10' },
    CheckHash: { CheckA: true },
    ClassHash: { ClassA: 'apple pie', ClassB: 'a', ClassC: '["a","b"]', ClassD: String(me) },
  });
  await add({
    Title: 'Beta',
    Status: 200,
    NumHash: { NumA: 15 },
    DateHash: { DateA: '2025/1/20 10:00' },
    CheckHash: { CheckA: false },
    ClassHash: { ClassA: 'Apple', ClassB: 'b', ClassC: '["b"]' },
  });
  await add({
    Title: 'gamma',
    Status: 910,
    NumHash: { NumA: -3, NumB: 2 },
    DateHash: { DateA: '2025-02-01' },
    ClassHash: { ClassA: 'banana', ClassB: 'c', ClassC: '["c","a"]' },
  });
  await add({ Title: 'delta', Status: 910 });
  await add({
    Title: 'Alpha two',
    Status: 900,
    NumHash: { NumA: 100 },
    DateHash: { DateA: '2024-12-31 23:59:59' },
    ClassHash: { ClassA: 'pineapple' },
  });
  issues = await createSite(stack.url, admin, 0, { Title: 'Tasks', ReferenceType: 'Issues' });
  // A create without Manager or Owner makes the caller both (DefaultInput [[Self]]): tasks that are not
  // mine name another user.
  const other = accounts.user.userId;
  const task = (body: object) =>
    createRecord(stack.url, admin, issues, { Manager: other, Owner: other, ...body });
  await task({ Title: 'late', Status: 100, Manager: me, StartTime: '2024/1/1', CompletionTime: '2024/6/1' });
  await task({ Title: 'done', Status: 900, StartTime: '2024/1/1', CompletionTime: '2024/6/1' });
  await task({
    Title: 'later',
    Status: 100,
    StartTime: '2025/1/19',
    CompletionTime: '2025/2/19',
    ProgressRate: 50,
  });
});
afterAll(async () => {
  useClock(undefined);
  await stack.close();
});

const ALL = ['Alpha report', 'Alpha two', 'Beta', 'delta', 'gamma'];

describe('View.ColumnFilterNegatives', () => {
  it.each<[string, Record<string, unknown>, string[], string[]]>([
    // Numbers: NOT IN, NOT BETWEEN, open ranges, "\t" as "set"; NULL where the reference ORs it
    ['a number: != the value', { Status: '910' }, ['Status'], ['Alpha report', 'Alpha two', 'Beta']],
    ['a number list: NOT IN', { Status: '["100","200"]' }, ['Status'], ['Alpha two', 'delta', 'gamma']],
    ['a range: NOT BETWEEN', { NumA: '["5,15"]' }, ['NumA'], ['Alpha two', 'delta', 'gamma']],
    ['an open range: below it', { NumA: '["10,"]' }, ['NumA'], ['Alpha report', 'delta', 'gamma']],
    [
      '"\\t" on a number: set and not 0',
      { NumA: '["\\t"]' },
      ['NumA'],
      ['Alpha report', 'Alpha two', 'Beta', 'gamma'],
    ],
    ['"\\t" on a nullable number: not NULL', { NumB: '["\\t"]' }, ['NumB'], ['Alpha report', 'gamma']],
    ['a nullable range: outside it, or NULL', { NumB: '[",5"]' }, ['NumB'], ['Alpha two', 'Beta', 'delta']],
    // Dates
    [
      'a date range: outside it, or NULL',
      { DateA: '["2025/01/01,2025/01/31"]' },
      ['DateA'],
      ['Alpha two', 'delta', 'gamma'],
    ],
    [
      '"\\t" on a date: any date',
      { DateA: '["\\t"]' },
      ['DateA'],
      ['Alpha report', 'Alpha two', 'Beta', 'gamma'],
    ],
    [
      'Today: another day, or none',
      { DateA: '["Today"]' },
      ['DateA'],
      ['Alpha report', 'Alpha two', 'delta', 'gamma'],
    ],
    // Booleans: the value inverted
    ['a check "1": off or empty', { CheckA: '1' }, ['CheckA'], ['Alpha two', 'Beta', 'delta', 'gamma']],
    ['a check "2": on', { CheckA: '2' }, ['CheckA'], ['Alpha report']],
    // Text: NOT LIKE or empty, != or NULL, " " as "not empty"
    ['text: NOT LIKE, or empty', { ClassA: 'apple' }, ['ClassA'], ['delta', 'gamma']],
    ['text " ": not empty', { ClassA: ' ' }, ['ClassA'], ['Alpha report', 'Alpha two', 'Beta', 'gamma']],
    ['Title: NOT LIKE', { Title: 'alpha' }, ['Title'], ['Beta', 'delta', 'gamma']],
    // Choices
    [
      'choices: none of them, or none chosen',
      { ClassB: '["a","c"]' },
      ['ClassB'],
      ['Alpha two', 'Beta', 'delta'],
    ],
    ['choices "\\t": one chosen', { ClassB: '["\\t"]' }, ['ClassB'], ['Alpha report', 'Beta', 'gamma']],
    ['multi-select: not containing it', { ClassC: '["a"]' }, ['ClassC'], ['Alpha two', 'Beta', 'delta']],
    // Beside a positive filter, and inside a group by its `group\Column` name
    [
      'one negated beside one not',
      { Status: '910', Title: 'a' },
      ['Status'],
      ['Alpha report', 'Alpha two', 'Beta'],
    ],
    [
      'inside an or_ group',
      { or_1: { Status: '100', NumA: '["10,"]' } },
      ['or_1\\NumA'],
      ['Alpha report', 'delta', 'gamma'],
    ],
  ])('%s', async (_case, hash, negatives, expected) => {
    const positive = await titles(site, { ColumnFilterHash: hash });
    expect(await titles(site, { ColumnFilterHash: hash, ColumnFilterNegatives: negatives })).toEqual(
      expected,
    );
    expect(expected).not.toEqual(ALL);
    if (!Object.keys(hash).some((key) => key.startsWith('or_')) && Object.keys(hash).length === 1)
      expect([...positive, ...expected].sort()).toEqual(ALL);
  });

  it.each<[string, object, string[]]>([
    ['ViewFilters_Incomplete: complete', { Incomplete: true }, ['done']],
    ['ViewFilters_Own: neither Manager nor Owner is me', { Own: true }, ['done', 'later']],
    ['ViewFilters_Overdue: complete or not yet due', { Overdue: true }, ['done', 'later']],
    ['ViewFilters_Delay: complete or on plan', { Delay: true }, ['done', 'later']],
    [
      'ViewFilters_NearCompletionTime: due outside the window',
      { NearCompletionTime: true },
      ['done', 'late', 'later'],
    ],
  ])('%s', async (_case, view, expected) => {
    const name = `ViewFilters_${Object.keys(view)[0]}`;
    expect(await titles(issues, { ...view, ColumnFilterNegatives: [name] })).toEqual(expected);
  });

  it.each<[string, object, string]>([
    [
      'a Manager column (users)',
      { ColumnFilterHash: { Manager: 'Own' }, ColumnFilterNegatives: ['Manager'] },
      'Manager',
    ],
    [
      'a [[Users]] Class column',
      { ColumnFilterHash: { ClassD: '["1"]' }, ColumnFilterNegatives: ['ClassD'] },
      'ClassD',
    ],
    [
      'a [[Depts]] Class column',
      { ColumnFilterHash: { ClassE: '["1"]' }, ColumnFilterNegatives: ['ClassE'] },
      'ClassE',
    ],
    [
      'a name that is no filter',
      { ColumnFilterHash: { Status: '100' }, ColumnFilterNegatives: ['NumA'] },
      'NumA',
    ],
    [
      'a name outside its group',
      { ColumnFilterHash: { or_1: { NumA: '1' } }, ColumnFilterNegatives: ['NumA'] },
      'NumA',
    ],
    [
      'a group itself',
      { ColumnFilterHash: { or_1: { NumA: '1' } }, ColumnFilterNegatives: ['or_1'] },
      'or_1',
    ],
    ['a preset whose flag is not set', { ColumnFilterNegatives: ['ViewFilters_Own'] }, 'ViewFilters_Own'],
    [
      'a value that is not a list',
      { ColumnFilterHash: { Status: '100' }, ColumnFilterNegatives: 'Status' },
      'ColumnFilterNegatives',
    ],
  ])('refuses %s with a 400 naming it', async (_case, view, named) => {
    const result = await post(`/api/items/${site}/get`, { ApiKey: admin, View: view });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ StatusCode: 400, Message: expect.stringContaining(named) });
  });

  it('negates what bulkdelete deletes too: only the records outside the filter go', async () => {
    const table = await createSite(stack.url, admin, 0, { Title: 'Bulk', ReferenceType: 'Results' });
    await createRecord(stack.url, admin, table, { Title: 'keep', Status: 100 });
    await createRecord(stack.url, admin, table, { Title: 'drop', Status: 200 });
    const deleted = await post(`/api/items/${table}/bulkdelete`, {
      ApiKey: admin,
      View: { ColumnFilterHash: { Status: '100' }, ColumnFilterNegatives: ['Status'] },
    });
    expect(deleted.body.StatusCode).toBe(200);
    expect(await titles(table, {})).toEqual(['keep']);
  });
});
