import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useClock } from '../../lib/clock';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Every row of the ColumnFilterHash syntax (reference/pleasanter-items-api.md 2.2), each against records
 * that make the expected set differ from "all records", and every filter Kiroku cannot apply refused.
 * The clock stands at 2025-01-19T20:00:00Z: 2025-01-20 05:00 in Asia/Tokyo (the default zone), still
 * the 19th in UTC, so "Today" shows which zone it is read in.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let site: number;
let issues: number;
const NOW = Date.parse('2025-01-19T20:00:00Z');

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const titles = async (siteId: number, view: object) => {
  const result = await post(`/api/items/${siteId}/get`, { ApiKey: admin, View: view });
  if (result.body.StatusCode !== 200) throw new Error(result.text);
  return ((result.body.Response as { Data: { Title: string }[] }).Data ?? []).map((r) => r.Title);
};
const sorted = async (siteId: number, view: object) => (await titles(siteId, view)).sort();

const ALL = ['Alpha report', 'Alpha two', 'Beta', 'delta', 'gamma'];

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  useClock(() => NOW);
  site = await createSite(stack.url, admin, 0, {
    Title: 'Filters',
    ReferenceType: 'Results',
    SiteSettings: {
      Columns: [
        { ColumnName: 'ClassB', ChoicesText: 'a\nb\nc' },
        { ColumnName: 'ClassC', ChoicesText: 'a\nb\nc', MultipleSelections: true },
        { ColumnName: 'NumB', Nullable: true },
        // No defaults for the user columns: a record names only the Manager and Owner it is given.
        { ColumnName: 'Manager', DefaultInput: '' },
        { ColumnName: 'Owner', DefaultInput: '' },
      ],
    },
  });
  const add = (body: object) => createRecord(stack.url, admin, site, body);
  const me = accounts.admin.userId;
  await add({
    Title: 'Alpha report',
    Status: 100,
    Manager: me,
    NumA: 5,
    NumB: 0,
    DateA: '2025-01-10',
    CheckA: true,
    ClassA: 'apple pie',
    ClassB: 'a',
    ClassC: '["a","b"]',
  });
  await add({
    Title: 'Beta',
    Status: 200,
    Owner: me,
    NumA: 15,
    DateA: '2025/1/20 10:00',
    CheckA: false,
    ClassA: 'Apple',
    ClassB: 'b',
    ClassC: '["b"]',
  });
  await add({
    Title: 'gamma',
    Status: 910,
    Manager: accounts.user.userId,
    NumA: -3,
    NumB: 2,
    DateA: '2025-02-01',
    ClassA: 'banana',
    ClassB: 'c',
    ClassC: '["c","a"]',
  });
  await add({ Title: 'delta', Status: 910 });
  await add({
    Title: 'Alpha two',
    Status: 900,
    NumA: 100,
    DateA: '2024-12-31 23:59:59',
    ClassA: 'pineapple',
  });
  issues = await createSite(stack.url, admin, 0, {
    Title: 'Tasks',
    ReferenceType: 'Issues',
    SiteSettings: {
      Columns: [
        { ColumnName: 'Manager', DefaultInput: '' },
        { ColumnName: 'Owner', DefaultInput: '' },
      ],
    },
  });
  const task = (body: object) => createRecord(stack.url, admin, issues, body);
  // Due today (2025-01-20 in Tokyo), half done, started ten days ago: behind plan, not yet overdue.
  await task({
    Title: 'due today',
    Status: 200,
    StartTime: '2025/1/10',
    CompletionTime: '2025/1/20',
    ProgressRate: 10,
  });
  // Due long ago and open: overdue and delayed.
  await task({ Title: 'late', Status: 100, Manager: me, StartTime: '2024/1/1', CompletionTime: '2024/6/1' });
  // Due long ago but complete.
  await task({ Title: 'done', Status: 900, Owner: me, StartTime: '2024/1/1', CompletionTime: '2024/6/1' });
  // Due in a month, on plan.
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

describe('View.ColumnFilterHash', () => {
  it.each([
    // Numeric columns
    ['a plain integer is =', { Status: '910' }, ['delta', 'gamma']],
    ['a JSON-text list is IN', { Status: '["100","200"]' }, ['Alpha report', 'Beta']],
    ['a real JSON array is IN too', { Status: [100, 910] }, ['Alpha report', 'delta', 'gamma']],
    ['a number is its text', { Status: 200 }, ['Beta']],
    ['a range is inclusive', { NumA: '["5,15"]' }, ['Alpha report', 'Beta']],
    [
      'a range open below (an empty non-nullable value is 0)',
      { NumA: '[",5"]' },
      ['Alpha report', 'delta', 'gamma'],
    ],
    ['a range open above', { NumA: '["10,"]' }, ['Alpha two', 'Beta']],
    ['several items are OR-ed', { NumA: '["-5,0","100"]' }, ['Alpha two', 'delta', 'gamma']],
    ['"\\t" is empty (or 0 when not nullable)', { NumA: '["\\t"]' }, ['delta']],
    ['"\\t" on a nullable column is NULL only', { NumB: '["\\t"]' }, ['Alpha two', 'Beta', 'delta']],
    ['a nullable column range skips NULL', { NumB: '[",5"]' }, ['Alpha report', 'gamma']],
    ['Own on a user column is me', { Manager: 'Own' }, ['Alpha report']],
    ['["Own"] on a user column', { Owner: '["Own"]' }, ['Beta']],
    ['"\\t" on a user column is nobody', { Manager: '["\\t"]' }, ['Alpha two', 'Beta', 'delta']],
    // Dates
    [
      'a date range (user zone)',
      { DateA: '["2025/01/01 00:00:00,2025/01/31 23:59:59"]' },
      ['Alpha report', 'Beta'],
    ],
    ['a date from', { DateA: '["2025/01/15,"]' }, ['Beta', 'gamma']],
    [
      'a date to: a bare end date is its midnight',
      { DateA: '[",2025/01/10"]' },
      ['Alpha report', 'Alpha two'],
    ],
    ['a date without comma is "on or after"', { DateA: '["2025/01/15"]' }, ['Beta', 'gamma']],
    ['Today in the caller zone', { DateA: '["Today"]' }, ['Beta']],
    ['ThisMonth', { DateA: '["ThisMonth"]' }, ['Alpha report', 'Beta']],
    ['ThisYear', { DateA: '["ThisYear"]' }, ['Alpha report', 'Beta', 'gamma']],
    ['"\\t" is no date', { DateA: '["\\t"]' }, ['delta']],
    ['a real array of dates', { DateA: ['2025-01-15T00:00:00,'] }, ['Beta', 'gamma']],
    // Booleans
    ['"1" is on', { CheckA: '1' }, ['Alpha report']],
    ['"true" in any case is on', { CheckA: 'True' }, ['Alpha report']],
    ['"2" is off or empty', { CheckA: '2' }, ['Alpha two', 'Beta', 'delta', 'gamma']],
    ['"false" is off or empty', { CheckA: 'false' }, ['Alpha two', 'Beta', 'delta', 'gamma']],
    // Text without choices
    ['text is a partial match without case', { ClassA: 'APPLE' }, ['Alpha report', 'Alpha two', 'Beta']],
    ['" " is empty', { ClassA: ' ' }, ['delta']],
    ['the full-width space is empty too', { ClassA: '\u3000' }, ['delta']],
    ['Title is text', { Title: 'alpha' }, ['Alpha report', 'Alpha two']],
    // Single-select choices
    ['choices: a list of values', { ClassB: '["a","c"]' }, ['Alpha report', 'gamma']],
    ['choices: "\\t" is none', { ClassB: '["\\t"]' }, ['Alpha two', 'delta']],
    // Multi-select choices
    ['multi-select: contains a value', { ClassC: '["a"]' }, ['Alpha report', 'gamma']],
    ['multi-select: contains any of the values', { ClassC: '["b","c"]' }, ['Alpha report', 'Beta', 'gamma']],
    // Groups
    [
      'or_ groups OR their filters',
      { or_1: '{"Status":"100","NumA":"[\\"10,\\"]"}' },
      ['Alpha report', 'Alpha two', 'Beta'],
    ],
    ['or_ takes a JSON object too', { or_x: { Status: '200', ClassB: '["c"]' } }, ['Beta', 'gamma']],
    ['and_ groups AND theirs', { and_1: { Status: '910', NumA: '["\\t"]' } }, ['delta']],
    [
      'groups sit beside other filters',
      { Title: 'a', or_1: { Status: '910', CheckA: '1' } },
      ['Alpha report', 'delta', 'gamma'],
    ],
    ['the id column', { ResultId: '0' }, []],
  ])('%s', async (_case, hash, expected) => {
    expect(await sorted(site, { ColumnFilterHash: hash })).toEqual(expected);
    expect(expected).not.toEqual(ALL);
  });

  it.each([
    ['ExactMatch', { ClassA: 'Apple' }, { ClassA: 'ExactMatch' }, ['Beta']],
    ['ExactMatch by number', { ClassA: 'Apple' }, { ClassA: 2 }, ['Beta']],
    ['ForwardMatch', { ClassA: 'apple' }, { ClassA: 'ForwardMatch' }, ['Alpha report', 'Beta']],
    ['PartialMatch', { ClassA: 'nan' }, { ClassA: 'PartialMatch' }, ['gamma']],
    [
      'ExactMatchMultiple',
      { ClassA: '["Apple","banana"]' },
      { ClassA: 'ExactMatchMultiple' },
      ['Beta', 'gamma'],
    ],
    [
      'ForwardMatchMultiple',
      { ClassA: '["pine","ban"]' },
      { ClassA: 'ForwardMatchMultiple' },
      ['Alpha two', 'gamma'],
    ],
    [
      'PartialMatchMultiple with "\\t"',
      { ClassA: '["pie","\\t"]' },
      { ClassA: 'partialmatchmultiple' },
      ['Alpha report', 'delta'],
    ],
    [
      'multi-select ExactMatch is the whole list',
      { ClassC: '["a","b"]' },
      { ClassC: 'ExactMatch' },
      ['Alpha report'],
    ],
    [
      'multi-select ForwardMatch is the first values',
      { ClassC: '["c"]' },
      { ClassC: 'ForwardMatch' },
      ['gamma'],
    ],
  ])('ColumnFilterSearchTypes %s', async (_case, hash, types, expected) => {
    expect(await sorted(site, { ColumnFilterHash: hash, ColumnFilterSearchTypes: types })).toEqual(expected);
  });

  it.each([
    ['an unknown column', { ColumnFilterHash: { Nope: '1' } }, 'View.ColumnFilterHash.Nope'],
    ['a column of another kind of site', { ColumnFilterHash: { WorkValue: '1' } }, 'WorkValue'],
    ['a decimal where a whole number or list is expected', { ColumnFilterHash: { NumA: '1.5' } }, 'NumA'],
    ['text on a number', { ColumnFilterHash: { Status: 'abc' } }, 'Status'],
    ['a list item that is no number', { ColumnFilterHash: { Status: '["x"]' } }, 'Status'],
    ['an empty list', { ColumnFilterHash: { Status: '[]' } }, 'Status'],
    ['a range without bounds', { ColumnFilterHash: { NumA: '[","]' } }, 'NumA'],
    ['a date that is not a list', { ColumnFilterHash: { DateA: '2025/01/01' } }, 'DateA'],
    ['a date that does not parse', { ColumnFilterHash: { DateA: '["yesterday"]' } }, 'DateA'],
    ['a day that does not exist', { ColumnFilterHash: { DateA: '["2025/02/30"]' } }, 'DateA'],
    ['"0" on a check', { ColumnFilterHash: { CheckA: '0' } }, 'CheckA'],
    ['"yes" on a check', { ColumnFilterHash: { CheckA: 'yes' } }, 'CheckA'],
    ['a raw value on a choice column', { ColumnFilterHash: { ClassB: 'a' } }, 'ClassB'],
    [
      'a *Multiple search type without a list',
      { ColumnFilterHash: { ClassA: 'x' }, ColumnFilterSearchTypes: { ClassA: 11 } },
      'ClassA',
    ],
    [
      'an unknown search type',
      { ColumnFilterSearchTypes: { ClassA: 'Fuzzy' } },
      'ColumnFilterSearchTypes.ClassA',
    ],
    ['an empty value', { ColumnFilterHash: { Title: '' } }, 'Title'],
    ['a null value', { ColumnFilterHash: { Title: null } }, 'Title'],
    ['an object value', { ColumnFilterHash: { Title: { a: 1 } } }, 'Title'],
    ['broken JSON text', { ColumnFilterHash: { Status: '["100"' } }, 'Status'],
    ['a column-to-column compare', { ColumnFilterHash: { eq_1: 'NumA|NumB' } }, 'eq_1'],
    ['an or_ group that is not an object', { ColumnFilterHash: { or_1: '[1]' } }, 'or_1'],
    ['a bad filter inside a group', { ColumnFilterHash: { or_1: { Nope: '1' } } }, 'or_1.Nope'],
    ['Search that is not text', { Search: 5 }, 'View.Search'],
    ['an unsupported View property', { CalendarDate: '2025/01/01' }, 'View.CalendarDate'],
    ['an unknown sorter column', { ColumnSorterHash: { Nope: 'asc' } }, 'ColumnSorterHash.Nope'],
    ['a bad sort direction', { ColumnSorterHash: { Title: 'up' } }, 'ColumnSorterHash.Title'],
    ['NearCompletionTime on a Results site', { NearCompletionTime: true }, 'NearCompletionTime'],
    ['a flag that is no boolean', { Incomplete: 'yes' }, 'Incomplete'],
  ])('refuses %s with a 400 naming it', async (_case, view, named) => {
    const result = await post(`/api/items/${site}/get`, { ApiKey: admin, View: view });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ StatusCode: 400, Message: expect.stringContaining(named) });
  });

  it('applies the View to a record get: outside the filter is an empty page', async () => {
    const [first] = (
      (await post(`/api/items/${site}/get`, { ApiKey: admin, View: { ColumnFilterHash: { Title: 'Beta' } } }))
        .body.Response as { Data: { ResultId: number }[] }
    ).Data;
    const id = Number(first?.ResultId);
    const inside = await post(`/api/items/${id}/get`, {
      ApiKey: admin,
      View: { ColumnFilterHash: { Status: '200' } },
    });
    expect(inside.body.Response).toMatchObject({ TotalCount: 1, Data: [{ ResultId: id }] });
    const outside = await post(`/api/items/${id}/get`, {
      ApiKey: admin,
      View: { ColumnFilterHash: { Status: '910' } },
    });
    expect(outside.body.Response).toMatchObject({ TotalCount: 0, Data: [] });
    const refused = await post(`/api/items/${id}/get`, {
      ApiKey: admin,
      View: { ColumnFilterHash: { Nope: '1' } },
    });
    expect(refused.body.StatusCode).toBe(400);
  });

  it('matches View property names in any case, column names exactly', async () => {
    expect(await sorted(site, { columnfilterhash: { Status: '200' } })).toEqual(['Beta']);
    const result = await post(`/api/items/${site}/get`, {
      ApiKey: admin,
      View: { ColumnFilterHash: { status: '200' } },
    });
    expect(result.body.StatusCode).toBe(400);
  });
});

describe('View.ColumnSorterHash', () => {
  it.each([
    [
      'one column ascending (empty non-nullable = 0)',
      { NumA: 'asc' },
      ['gamma', 'delta', 'Alpha report', 'Beta', 'Alpha two'],
    ],
    [
      'descending, by name in any case',
      { NumA: 'DESC' },
      ['Alpha two', 'Beta', 'Alpha report', 'delta', 'gamma'],
    ],
    [
      'in key order',
      { Status: 'desc', Title: 'asc' },
      ['delta', 'gamma', 'Alpha two', 'Beta', 'Alpha report'],
    ],
    [
      'by number (1 = desc)',
      { Status: 1, Title: 0 },
      ['delta', 'gamma', 'Alpha two', 'Beta', 'Alpha report'],
    ],
    [
      'then UpdatedTime desc and id desc for ties',
      { CheckA: 'asc' },
      ['Alpha two', 'delta', 'gamma', 'Beta', 'Alpha report'],
    ],
  ])('%s', async (_case, sorter, expected) => {
    expect(await titles(site, { ColumnSorterHash: sorter })).toEqual(expected);
  });

  it('pages after sorting, and counts every selected record', async () => {
    const result = await post(`/api/items/${site}/get`, {
      ApiKey: admin,
      Offset: 1,
      PageSize: 2,
      View: { ColumnFilterHash: { Status: '[",910"]' }, ColumnSorterHash: { NumA: 'asc' } },
    });
    expect(result.body.Response).toMatchObject({ Offset: 1, PageSize: 2, TotalCount: 5 });
    expect((result.body.Response as { Data: { Title: string }[] }).Data.map((r) => r.Title)).toEqual([
      'delta',
      'Alpha report',
    ]);
  });
});

describe('View boolean filters', () => {
  it.each([
    ['Incomplete: Status below 900', { Incomplete: true }, ['due today', 'late', 'later']],
    ['Own: Manager or Owner is me', { Own: true }, ['done', 'late']],
    ['NearCompletionTime: due within 7 days back and 3 ahead', { NearCompletionTime: true }, ['due today']],
    ['Overdue: open and past its CompletionTime', { Overdue: true }, ['late']],
    ['Delay: open and behind the planned rate', { Delay: true }, ['due today', 'late']],
    ['false filters nothing', { Overdue: false, Incomplete: true }, ['due today', 'late', 'later']],
    ['1 is true', { Overdue: 1 }, ['late']],
  ])('%s', async (_case, view, expected) => {
    expect(await sorted(issues, view)).toEqual(expected);
  });

  it('answers a date-only CompletionTime as given, and filters it by the day shown', async () => {
    const result = await post(`/api/items/${issues}/get`, {
      ApiKey: admin,
      View: { ColumnFilterHash: { CompletionTime: '["2025/01/20,2025/01/20"]' } },
    });
    expect(result.body.Response).toMatchObject({
      TotalCount: 1,
      Data: [{ Title: 'due today', CompletionTime: '2025-01-20T00:00:00', StartTime: '2025-01-10T00:00:00' }],
    });
  });
});
