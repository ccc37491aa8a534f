import { describe, expect, it, vi } from 'vitest';
import { columnsOf } from '../../../lib/columns/model';

// The UI's language comes from the browser; these tests read the English labels and messages.
vi.hoisted(() =>
  Object.defineProperty(globalThis, 'navigator', { value: { language: 'en-US' }, configurable: true }),
);

const { dateOnly, initialValue, refusedColumn, remainingWork, requestFields, validate } = await import(
  '../../../web/app/record-values'
);

const site = columnsOf(
  'Results',
  [
    { ColumnName: 'ClassA', ValidateRequired: true, LabelText: 'Code', NoDuplication: true },
    { ColumnName: 'ClassB', NoDuplication: true, MessageWhenDuplicated: 'Taken.' },
    {
      ColumnName: 'ClassC',
      MaxLength: 5,
      ServerRegexValidation: '^a',
      RegexValidationMessage: 'Starts with a.',
    },
    { ColumnName: 'NumA', Min: 0, Max: 10, Nullable: true },
    { ColumnName: 'NumB', ValidateRequired: true },
    { ColumnName: 'Manager', ValidateRequired: true },
    { ColumnName: 'CheckA', ValidateRequired: true },
    { ColumnName: 'ClassD', EditorReadOnly: true, ValidateRequired: true },
  ],
  'en',
);
const columns = ['ClassA', 'ClassB', 'ClassC', 'NumA', 'NumB', 'Manager', 'CheckA', 'ClassD'].map(
  (name) => site.byName.get(name) as NonNullable<ReturnType<typeof site.byName.get>>,
);
const column = (name: string) => site.byName.get(name) as NonNullable<ReturnType<typeof site.byName.get>>;
const filled = {
  ClassA: 'x',
  ClassB: '',
  ClassC: '',
  NumA: '5',
  NumB: '1',
  Manager: '3',
  CheckA: false,
  ClassD: '',
};

describe('web/app/record-values', () => {
  describe('validate', () => {
    it.each<[string, Record<string, unknown>, Record<string, string>]>([
      ['nothing when every check passes', {}, {}],
      ['a required text left empty', { ClassA: '' }, { ClassA: 'This is a required field.' }],
      ['a required number left empty', { NumB: '' }, { NumB: 'This is a required field.' }],
      ['a required user left unset', { Manager: '0' }, { Manager: 'This is a required field.' }],
      ['a number under Min', { NumA: '-0.5' }, { NumA: 'The number entered is too small.' }],
      ['a number over Max', { NumA: '10.5' }, { NumA: 'The number entered is too large.' }],
      ['a number at its bounds', { NumA: '10' }, {}],
    ])('reports %s', (_, change, expected) => {
      const problems = validate(columns, { ...filled, ...change } as never);
      expect(Object.fromEntries(problems)).toEqual(expected);
    });
  });

  describe('requestFields', () => {
    it('writes hashes, numbers, users and checks, null for an emptied nullable number, and leaves read-only columns out', () => {
      const request = requestFields(columns, { ...filled, NumA: '', ClassD: 'kept out' } as never, undefined);
      expect(request).toEqual({
        ClassHash: { ClassA: 'x', ClassB: '', ClassC: '' },
        NumHash: { NumA: null, NumB: 1 },
        Manager: 3,
        CheckHash: { CheckA: false },
      });
    });

    it('writes an unset date as the reference stores it, a date at midnight, and a time with seconds', () => {
      const dates = [column('DateA'), column('DateB'), column('DateC')];
      expect(
        requestFields(dates, { DateA: '', DateB: '2026-12-01T08:00', DateC: '2026-12-02' }, undefined),
      ).toEqual({
        DateHash: {
          DateA: '1899-12-30T00:00:00',
          DateB: '2026-12-01T08:00:00',
          DateC: '2026-12-02T00:00:00',
        },
      });
    });

    it.each<[string | undefined, boolean, string]>([
      [undefined, true, '2026-12-01'],
      ['Ymd', true, '2026-12-01'],
      ['Ymdhm', false, '2026-12-01T08:30'],
      ['Ymdhms', false, '2026-12-01T08:30'],
    ])('edits a date of EditorFormat %s as a date only: %s', (format, only, shown) => {
      const [date] = columnsOf(
        'Results',
        format ? [{ ColumnName: 'DateA', EditorFormat: format }] : [],
        'en',
      ).list.filter((entry) => entry.columnName === 'DateA');
      if (!date) throw new Error('no DateA');
      expect(dateOnly(date)).toBe(only);
      expect(initialValue(date, { SiteId: 1, DateHash: { DateA: '2026-12-01T08:30:00' } }, 1)).toBe(shown);
    });
  });

  describe('initialValue', () => {
    it.each<[string, unknown]>([
      ['Status', '100'],
      ['Manager', '7'],
      ['ClassA', ''],
      ['CheckA', false],
    ])("gives a new record's %s its default: %j", (name, expected) => {
      expect(initialValue(column(name), undefined, 7)).toEqual(expected);
    });

    it('shows a stored record as it is', () => {
      const record = {
        SiteId: 1,
        Status: 200,
        Manager: 0,
        ClassHash: { ClassA: 'y' },
        CheckHash: { CheckA: true },
      };
      expect(
        ['Status', 'Manager', 'ClassA', 'CheckA'].map((name) => initialValue(column(name), record, 7)),
      ).toEqual(['200', '0', 'y', true]);
    });
  });

  describe('remainingWork', () => {
    it.each<[string, Record<string, string>, string]>([
      ['work left by the progress', { WorkValue: '12.5', ProgressRate: '40' }, '7.5'],
      ['no progress yet', { WorkValue: '8', ProgressRate: '' }, '8'],
      ['done', { WorkValue: '8', ProgressRate: '100' }, '0'],
      ['no work value', { WorkValue: '', ProgressRate: '50' }, ''],
      ['a work value that is no number', { WorkValue: 'lots', ProgressRate: '50' }, ''],
    ])('%s', (_case, values, expected) => {
      expect(remainingWork(values)).toBe(expected);
    });
  });

  describe('refusedColumn', () => {
    it.each<[number, string, string | undefined]>([
      [409, 'Cannot be updated because Code is duplicated.', 'ClassA'],
      [409, 'Taken.', 'ClassB'],
      [409, 'Cannot be updated because Other is duplicated.', undefined],
      [422, 'Starts with a.', 'ClassC'],
      [422, 'Please enter within 5 characters.', 'ClassC'],
      [400, 'Taken.', undefined],
    ])('finds the column of a %i "%s"', (status, message, expected) => {
      expect(refusedColumn(columns, status, message)).toBe(expected);
    });
  });
});
