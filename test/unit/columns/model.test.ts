import { describe, expect, it } from 'vitest';
import { columnsOf } from '../../../lib/columns/model';

const one = (entry: Record<string, unknown>, language: 'ja' | 'en' = 'ja') => {
  const resolved = columnsOf('Issues', [entry], language);
  const column = resolved.byName.get(entry.ColumnName as string);
  if (!column) throw new Error('no column');
  return { column, problems: resolved.problems };
};

describe('columns/model', () => {
  describe('columnsOf: the merge with a site entry', () => {
    it.each<[string, Record<string, unknown>, string, unknown]>([
      ['a site label wins', { ColumnName: 'ClassA', LabelText: '製品' }, 'labelText', '製品'],
      ['"" is a real label', { ColumnName: 'ClassA', LabelText: '' }, 'labelText', ''],
      [
        'null keeps the label of the language',
        { ColumnName: 'ClassA', LabelText: null },
        'labelText',
        '分類A',
      ],
      ['a site DefaultInput wins', { ColumnName: 'Status', DefaultInput: '200' }, 'defaultInput', '200'],
      ['"" turns the default off', { ColumnName: 'Status', DefaultInput: '' }, 'defaultInput', ''],
      ['null keeps the default', { ColumnName: 'Status', DefaultInput: null }, 'defaultInput', '100'],
      [
        'a number given to a string property is its text',
        { ColumnName: 'Status', DefaultInput: 300 },
        'defaultInput',
        '300',
      ],
      ['"" empties the choices', { ColumnName: 'Status', ChoicesText: '' }, 'choicesText', ''],
      ['null keeps the choices', { ColumnName: 'Manager', ChoicesText: null }, 'choicesText', '[[Users]]'],
      ['"" removes the unit', { ColumnName: 'WorkValue', Unit: '' }, 'unit', ''],
      ['a site unit wins', { ColumnName: 'NumA', Unit: '円' }, 'unit', '円'],
      ['DecimalPlaces wins', { ColumnName: 'NumA', DecimalPlaces: 2 }, 'decimalPlaces', 2],
      ['DecimalPlaces as digits is read', { ColumnName: 'NumA', DecimalPlaces: '3' }, 'decimalPlaces', 3],
      ['0 DecimalPlaces is kept', { ColumnName: 'WorkValue', DecimalPlaces: 0 }, 'decimalPlaces', 0],
      ['RoundingType wins', { ColumnName: 'NumA', RoundingType: 30 }, 'roundingType', 30],
      ['EditorFormat wins', { ColumnName: 'DateA', EditorFormat: 'Ymdahm' }, 'editorFormat', 'Ymdahm'],
      ['Nullable wins', { ColumnName: 'NumA', Nullable: true }, 'nullable', true],
      ['false is kept', { ColumnName: 'Title', ValidateRequired: false }, 'validateRequired', false],
      ['MaxLength above 0 is a limit', { ColumnName: 'Title', MaxLength: 10 }, 'maxLength', 10],
      ['MaxLength 0 is no limit', { ColumnName: 'Title', MaxLength: 0 }, 'maxLength', undefined],
      [
        'MultipleSelections wins',
        { ColumnName: 'ClassA', MultipleSelections: true },
        'multipleSelections',
        true,
      ],
      ['NoDuplication wins', { ColumnName: 'ClassA', NoDuplication: true }, 'noDuplication', true],
      ['Min wins', { ColumnName: 'NumA', Min: 0 }, 'min', 0],
      ['Description is read', { ColumnName: 'ClassA', Description: 'help' }, 'description', 'help'],
      [
        'ServerRegexValidation is read',
        { ColumnName: 'ClassA', ServerRegexValidation: '^a' },
        'serverRegexValidation',
        '^a',
      ],
    ])('%s', (_, entry, property, expected) => {
      const { column, problems } = one(entry);
      expect(column[property as keyof typeof column]).toEqual(expected);
      expect(problems).toEqual([]);
    });

    it('keeps the site entry whole, screen-only properties included', () => {
      const entry = { ColumnName: 'ClassA', LabelText: 'x', GridDesign: '[ClassA]', TextAlign: 20 };
      expect(one(entry).column.site).toBe(entry);
    });

    it('parses the merged choices once', () => {
      const { column } = one({ ColumnName: 'ClassA', ChoicesText: 'A,Apple\n[[Depts]]' });
      expect(column.choices.entries.map((entry) => entry.kind)).toEqual(['static', 'depts']);
    });

    it('answers labels in the language asked, the site label in every language', () => {
      expect(columnsOf('Issues', [], 'en').byName.get('ClassA')?.labelText).toBe('ClassA');
      expect(one({ ColumnName: 'ClassA', LabelText: '製品' }, 'en').column.labelText).toBe('製品');
      expect(one({ ColumnName: 'ClassA', LabelText: '製品' }, 'en').column.labelTextDefault).toBe('ClassA');
    });

    it.each<[string, Record<string, unknown>, string, unknown]>([
      ['DecimalPlaces of text', { ColumnName: 'NumA', DecimalPlaces: 'two' }, 'decimalPlaces', 0],
      ['Nullable as a string', { ColumnName: 'NumA', Nullable: 'yes' }, 'nullable', false],
      ['LabelText as an object', { ColumnName: 'NumA', LabelText: {} }, 'labelText', '数値A'],
      ['an unknown EditorFormat', { ColumnName: 'DateA', EditorFormat: 'Y' }, 'editorFormat', 'Ymd'],
      ['an unknown RoundingType', { ColumnName: 'NumA', RoundingType: 15 }, 'roundingType', 10],
    ])('reports %s and keeps the definition', (_, entry, property, expected) => {
      const { column, problems } = one(entry);
      expect(column[property as keyof typeof column]).toEqual(expected);
      expect(problems).toEqual([expect.objectContaining({ columnName: entry.ColumnName })]);
    });

    it.each<[string, unknown, string]>([
      ['an entry that is not an object', 'ClassA', 'Columns[0] is not an object.'],
      ['an entry without ColumnName', { LabelText: 'x' }, 'Columns[0] has no ColumnName.'],
      ['a column the table does not have', { ColumnName: 'StartTime' }, 'Results has no column StartTime.'],
    ])('reports %s and leaves it out', (_, entry, reason) => {
      const resolved = columnsOf('Results', [entry], 'ja');
      expect(resolved.problems).toEqual([expect.objectContaining({ reason })]);
      expect(resolved.list).toEqual(columnsOf('Results', undefined, 'ja').list);
    });

    it('uses the first of two entries for one column, as UpdateColumnHash', () => {
      const resolved = columnsOf(
        'Issues',
        [
          { ColumnName: 'ClassA', LabelText: 'first' },
          { ColumnName: 'ClassA', LabelText: 'second' },
        ],
        'ja',
      );
      expect(resolved.byName.get('ClassA')?.labelText).toBe('first');
      expect(resolved.problems).toEqual([
        expect.objectContaining({ reason: 'Columns[1] repeats ClassA; the first entry is used.' }),
      ]);
    });

    it('keeps the definition order whatever the order of the site entries', () => {
      const names = columnsOf('Wikis', [{ ColumnName: 'Body' }, { ColumnName: 'Title' }], 'ja').list.map(
        (c) => c.columnName,
      );
      expect(names).toEqual([
        'WikiId',
        'Ver',
        'Title',
        'Body',
        'Locked',
        'TitleBody',
        'Comments',
        'Creator',
        'Updator',
        'CreatedTime',
        'UpdatedTime',
      ]);
    });
  });
});
