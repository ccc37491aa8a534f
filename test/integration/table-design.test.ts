import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Writes through the site's table design (CONTRACT 11; reference/pleasanter-columns.md 4 and 5), as a
 * caller sees them over HTTP: DefaultInput, rounding, MaxLength and ServerRegexValidation, NoDuplication,
 * Formulas and the composite title. DeleteWithLinks: table-design-links.test.ts.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;

const post = (path: string, body: object = {}) => call(stack.url, path, { ApiKey: admin, ...body });
const firstOf = async (id: number) => {
  const answer = await post(`/api/items/${id}/get`);
  return (answer.body.Response as { Data: Record<string, unknown>[] }).Data[0] ?? {};
};
/** Today in Tokyo (Service.TimeZoneDefault's default) plus `days`, as the API shows a date. */
const tokyoDay = (days: number) => {
  const [date] = new Date(Date.now() + 9 * 3_600_000 + days * 86_400_000).toISOString().split('T');
  return `${date}T00:00:00`;
};
const site = (ReferenceType: string, SiteSettings: object = {}) =>
  createSite(stack.url, admin, 0, { Title: 'Design', ReferenceType, SiteSettings });

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
});
afterAll(() => stack.close());

describe('table design on write', () => {
  describe('DefaultInput on create', () => {
    it('gives an Issue Status 100, the caller as Manager and Owner, today and today + 7', async () => {
      const issues = await site('Issues');
      const id = await createRecord(stack.url, admin, issues, { Title: 'Plain' });
      expect(await firstOf(id)).toMatchObject({
        Status: 100,
        Manager: accounts.admin.userId,
        Owner: accounts.admin.userId,
        StartTime: tokyoDay(0),
        CompletionTime: tokyoDay(7),
      });
    });

    it('keeps what the create sends, and takes null as not sent', async () => {
      const issues = await site('Issues');
      const id = await createRecord(stack.url, admin, issues, {
        Status: 200,
        Manager: accounts.user.userId,
        StartTime: '2030/1/31',
        CompletionTime: null,
      });
      expect(await firstOf(id)).toMatchObject({
        Status: 200,
        Manager: accounts.user.userId,
        Owner: accounts.admin.userId,
        StartTime: '2030-01-31T00:00:00',
        CompletionTime: tokyoDay(7),
      });
    });

    it('applies the site’s defaults per column kind, "" turning one off', async () => {
      const results = await site('Results', {
        Columns: [
          { ColumnName: 'Status', DefaultInput: '' },
          { ColumnName: 'Manager', DefaultInput: '' },
          { ColumnName: 'Title', DefaultInput: 'Untitled' },
          { ColumnName: 'ClassA', DefaultInput: 'first' },
          { ColumnName: 'NumA', DefaultInput: '2.5' },
          { ColumnName: 'NumB', DefaultInput: '2.25', DecimalPlaces: 1, RoundingType: 50 },
          { ColumnName: 'CheckA', DefaultInput: 'on' },
          { ColumnName: 'DateA', DefaultInput: '3' },
          { ColumnName: 'DescriptionA', DefaultInput: 'memo' },
        ],
      });
      const created = await post(`/api/items/${results}/create`, {
        ClassHash: { ClassA: 'given', ClassB: null },
      });
      expect(created.body).toMatchObject({ StatusCode: 200, Message: '" Untitled " has been created.' });
      const shown = await firstOf(Number(created.body.Id));
      expect(shown.Status).toBeUndefined();
      expect(shown).toMatchObject({
        Title: 'Untitled',
        Manager: 0,
        Owner: accounts.admin.userId,
        ClassHash: { ClassA: 'given' },
        NumHash: { NumA: 3, NumB: 2.2 },
        CheckHash: { CheckA: true },
        DateHash: { DateA: tokyoDay(3) },
        DescriptionHash: { DescriptionA: 'memo' },
      });
    });
  });

  describe('rounding', () => {
    it('rounds numbers by DecimalPlaces and RoundingType on create and update', async () => {
      const results = await site('Results', {
        Columns: [
          { ColumnName: 'NumA', DecimalPlaces: 1, RoundingType: 20 },
          { ColumnName: 'NumB', DecimalPlaces: 2, RoundingType: 50 },
        ],
      });
      const id = await createRecord(stack.url, admin, results, {
        NumHash: { NumA: -1.25, NumB: 0.125, NumC: -2.5 },
      });
      expect((await firstOf(id)).NumHash).toEqual({ NumA: -1.2, NumB: 0.12, NumC: -3 });
      await post(`/api/items/${id}/update`, { NumHash: { NumA: 1.21 } });
      expect((await firstOf(id)).NumHash).toEqual({ NumA: 1.3, NumB: 0.12, NumC: -3 });
    });
  });

  describe('MaxLength and ServerRegexValidation', () => {
    let checked: number;
    beforeAll(async () => {
      checked = await site('Results', {
        Columns: [
          { ColumnName: 'Title', MaxLength: 5 },
          {
            ColumnName: 'ClassA',
            ServerRegexValidation: '^[A-Z]{2}\\d+$',
            RegexValidationMessage: 'Use AB12.',
          },
          { ColumnName: 'ClassB', LabelText: 'Digits', ServerRegexValidation: '^\\d+$' },
          { ColumnName: 'ClassC', MaxLength: 3, ServerRegexValidation: '^(a+)+$' },
        ],
      });
    });

    it.each<[string, object, number, string]>([
      ['a title too long', { Title: 'Longer' }, 422, 'Please enter within 5 characters.'],
      ['five emoji, five characters', { Title: '😀😀😀😀😀' }, 200, '" 😀😀😀😀😀 " has been created.'],
      ['a value the pattern refuses', { Title: 'T', ClassA: 'ab12' }, 422, 'Use AB12.'],
      ['a value the pattern takes', { Title: 'T', ClassA: 'AB12' }, 200, '" T " has been created.'],
      ['an empty value', { Title: 'T', ClassA: '' }, 200, '" T " has been created.'],
      [
        'a pattern without message',
        { Title: 'T', ClassB: 'x' },
        422,
        'Digits does not match the pattern of the column.',
      ],
      [
        'MaxLength before the pattern',
        { Title: 'T', ClassC: 'aaaab' },
        422,
        'Please enter within 3 characters.',
      ],
    ])('answers %s', async (_case, body, status, message) => {
      const answer = await post(`/api/items/${checked}/create`, body);
      expect([answer.status, answer.body.Message]).toEqual([status, message]);
    });

    it('refuses an update the same way, and stores nothing of it', async () => {
      const id = await createRecord(stack.url, admin, checked, { Title: 'T', ClassA: 'AB1' });
      const answer = await post(`/api/items/${id}/update`, { Title: 'Fine', ClassA: 'nope' });
      expect([answer.status, answer.body.Message]).toEqual([422, 'Use AB12.']);
      expect(await firstOf(id)).toMatchObject({ Title: 'T', Ver: 1 });
    });
  });

  describe('NoDuplication', () => {
    let unique: number;
    beforeAll(async () => {
      unique = await site('Results', {
        Columns: [
          { ColumnName: 'ClassA', LabelText: 'Code', NoDuplication: true },
          { ColumnName: 'NumA', NoDuplication: true, MessageWhenDuplicated: 'That number is taken.' },
        ],
      });
    });
    const create = (body: object) => post(`/api/items/${unique}/create`, body);

    it('lets one of two concurrent creates of a value through, the other gets 409', async () => {
      const answers = await Promise.all([1, 2, 3].map(() => create({ ClassA: 'race' })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
      expect(answers.find((answer) => answer.status === 409)?.body.Message).toBe(
        'Cannot be updated because Code is duplicated.',
      );
    });

    it('refuses an update to a value taken, frees a value updated away or deleted', async () => {
      const first = Number((await create({ ClassA: 'one', NumA: 7 })).body.Id);
      const second = Number((await create({ ClassA: 'two' })).body.Id);
      const taken = await post(`/api/items/${second}/update`, { ClassA: 'one' });
      expect([taken.status, taken.body.Message]).toEqual([
        409,
        'Cannot be updated because Code is duplicated.',
      ]);
      const number = await post(`/api/items/${second}/update`, { NumA: 7 });
      expect([number.status, number.body.Message]).toEqual([409, 'That number is taken.']);
      expect((await post(`/api/items/${first}/update`, { ClassA: 'uno' })).status).toBe(200);
      expect((await post(`/api/items/${second}/update`, { ClassA: 'one' })).status).toBe(200);
      expect((await post(`/api/items/${first}/delete`)).status).toBe(200);
      expect((await create({ ClassA: 'uno', NumA: 7 })).status).toBe(200);
    });

    it('lets concurrent upserts keyed by the column create one record and update it', async () => {
      const upsert = (Title: string) =>
        post(`/api/items/${unique}/upsert`, { Keys: ['ClassA'], ClassA: 'upserted', Title });
      const answers = await Promise.all(['u1', 'u2', 'u3'].map(upsert));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((answer) => answer.body.Id)).size).toBe(1);
    });

    it('skips empty values and 0', async () => {
      for (const body of [{ ClassA: '' }, { ClassA: '' }, { NumA: 0 }, { NumA: 0 }, {}])
        expect((await create(body)).status).toBe(200);
    });

    it('frees the values of records a bulkdelete deletes', async () => {
      const id = Number((await create({ ClassA: 'bulk' })).body.Id);
      expect((await post(`/api/items/${unique}/bulkdelete`, { Selected: [id] })).status).toBe(200);
      expect((await create({ ClassA: 'bulk' })).status).toBe(200);
    });

    it('refuses a bulkupsert that takes one value twice, writing nothing', async () => {
      const answer = await post(`/api/items/${unique}/bulkupsert`, {
        Data: [
          { ClassA: 'twice', Title: 'a' },
          { ClassA: 'twice', Title: 'b' },
        ],
      });
      expect([answer.status, answer.body.Message]).toEqual([
        409,
        'Cannot be updated because Code is duplicated.',
      ]);
      expect((await create({ ClassA: 'twice' })).status).toBe(200);
    });
  });

  describe('Formulas', () => {
    it('computes the targets on create and update, in order, rounded', async () => {
      const sales = await site('Results', {
        Columns: [{ ColumnName: 'NumD', DecimalPlaces: 1 }],
        Formulas: [
          // NumC = NumA × NumB; NumD = NumC ÷ NumA × 100 (template 16's gross margin).
          {
            Id: 1,
            Target: 'NumC',
            Formula: { Children: [{ ColumnName: 'NumA' }, { ColumnName: 'NumB', OperatorType: 3 }] },
          },
          {
            Id: 2,
            Target: 'NumD',
            Formula: {
              Children: [
                { ColumnName: 'NumB' },
                { ColumnName: 'NumE', OperatorType: 4 },
                { RawValue: 100, OperatorType: 3 },
              ],
            },
          },
        ],
      });
      const id = await createRecord(stack.url, admin, sales, { NumHash: { NumA: 3, NumB: 4, NumE: 3 } });
      expect((await firstOf(id)).NumHash).toMatchObject({ NumC: 12, NumD: 133.3 });
      await post(`/api/items/${id}/update`, { NumHash: { NumB: 5, NumE: 0 } });
      // A division by zero gives 0, as the reference.
      expect((await firstOf(id)).NumHash).toMatchObject({ NumC: 15, NumD: 0 });
    });

    it('applies OutOfCondition to a record the Condition View does not select', async () => {
      const conditional = await site('Results', {
        Views: [{ Id: 1, Name: 'Rush', ColumnFilterHash: { ClassA: 'rush' } }],
        Formulas: [
          {
            Id: 1,
            Target: 'NumB',
            Condition: 1,
            Formula: { Children: [{ ColumnName: 'NumA' }, { RawValue: 2, OperatorType: 3 }] },
            OutOfCondition: { ColumnName: 'NumA' },
          },
        ],
      });
      const rush = await createRecord(stack.url, admin, conditional, { ClassA: 'rush', NumA: 5 });
      const normal = await createRecord(stack.url, admin, conditional, { ClassA: 'normal', NumA: 5 });
      expect([(await firstOf(rush)).NumHash, (await firstOf(normal)).NumHash]).toEqual([
        { NumA: 5, NumB: 10 },
        { NumA: 5, NumB: 5 },
      ]);
    });

    it('refuses a site whose formulas no write could apply, naming the formula', async () => {
      const answer = await post('/api/items/0/createsite', {
        Title: 'Scripted',
        ReferenceType: 'Results',
        SiteSettings: {
          Formulas: [{ Id: 4, Target: 'NumA', CalculationMethod: 'Extended', FormulaScript: '$NumB * 2' }],
        },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.Errors).toEqual([
        {
          Property: 'SiteSettings.Formulas',
          Problem:
            'Formulas[0] (Id 4, Target NumA): the calculation method "Extended" (FormulaScript) is not available',
        },
      ]);
    });
  });

  describe('TitleColumns', () => {
    it('joins the title columns’ texts into ItemTitle, leaving out empty ones', async () => {
      const titled = await site('Results', {
        Columns: [{ ColumnName: 'ClassA', ChoicesText: 'p1,Product one\np2,Product two' }],
        TitleColumns: ['ClassA', 'Title', 'Manager'],
        TitleSeparator: ' / ',
      });
      const created = await post(`/api/items/${titled}/create`, {
        Title: 'Order',
        ClassA: 'p2',
        Manager: accounts.admin.userId,
      });
      expect(created.body.Message).toBe('" Product two / Order / Administrator " has been created.');
      const id = Number(created.body.Id);
      expect(await firstOf(id)).toMatchObject({
        Title: 'Order',
        ItemTitle: 'Product two / Order / Administrator',
      });
      await post(`/api/items/${id}/update`, { ClassA: '', Manager: 0 });
      expect(await firstOf(id)).toMatchObject({ ItemTitle: 'Order' });
      await post(`/api/items/${id}/update`, { Title: '' });
      // Every title column empty: nothing stored, ItemTitle falls back to Title.
      expect(await firstOf(id)).toMatchObject({ Title: '', ItemTitle: '' });
    });

    it('joins with ")" by default', async () => {
      const titled = await site('Results', { TitleColumns: ['Title', 'ClassB'] });
      const id = await createRecord(stack.url, admin, titled, { Title: 'A', ClassB: 'B' });
      expect((await firstOf(id)).ItemTitle).toBe('A)B');
    });
  });
});
