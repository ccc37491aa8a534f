import { describe, expect, it } from 'vitest';
import type { ChoiceSource } from '../../../lib/columns/choices';
import type { Language } from '../../../lib/columns/definitions';
import { displayValue, formatDate, round, type Shown, type ValueForm } from '../../../lib/columns/display';
import { type Column, columnsOf, type RoundingType } from '../../../lib/columns/model';

const columnOf = (name: string, entry: Record<string, unknown> = {}, language: Language = 'ja'): Column => {
  const column = columnsOf('Issues', [{ ColumnName: name, ...entry }], language).byName.get(name);
  if (!column) throw new Error(name);
  return column;
};

type Row = [string, Record<string, unknown>, unknown, ValueForm, Shown];

describe('columns/display', () => {
  describe('displayValue', () => {
    it.each<Row>([
      ['Status', {}, 100, 'DisplayValue', '未着手'],
      ['Status', {}, 100, 'Value', 100],
      ['Status', {}, 100, 'Text', '未着手'],
      ['Status', {}, '900', 'DisplayValue', '完了'],
      ['Status', {}, 999, 'DisplayValue', null],
      ['Status', {}, null, 'DisplayValue', null],
      ['Status', { ChoicesText: '10,Open\n20,Closed' }, 20, 'DisplayValue', 'Closed'],
    ])('shows %s %j of %j as %s %j', (name, entry, value, form, shown) => {
      expect(displayValue(columnOf(name, entry), value, 'ja', form)).toEqual(shown);
    });

    const products = { ChoicesText: 'AC7459,製品A\nAC7460,製品B' };
    it.each<Row>([
      ['ClassA', products, 'AC7459', 'DisplayValue', '製品A'],
      ['ClassA', products, 'AC7459', 'Value', 'AC7459'],
      ['ClassA', products, 'AC7459', 'Text', '製品A'],
      ['ClassA', products, 'X', 'DisplayValue', '? X'],
      ['ClassA', products, 'X', 'Text', '? X'],
      ['ClassA', products, '', 'DisplayValue', null],
      ['ClassA', products, null, 'DisplayValue', null],
      [
        'ClassA',
        { ...products, MultipleSelections: true },
        '["AC7459","X","AC7460"]',
        'DisplayValue',
        '製品A, X, 製品B',
      ],
      ['ClassA', { ...products, MultipleSelections: true }, '["AC7459"]', 'Value', '["AC7459"]'],
      ['ClassA', { ...products, MultipleSelections: true }, 'AC7460', 'DisplayValue', '製品B'],
      ['ClassA', {}, 'free text', 'DisplayValue', 'free text'],
      ['Title', {}, 'A title', 'Text', 'A title'],
      ['DescriptionA', {}, 'text', 'DisplayValue', 'text'],
      ['DescriptionA', {}, '', 'DisplayValue', null],
    ])('shows the choice column %s %j of %j as %s %j', (name, entry, value, form, shown) => {
      expect(displayValue(columnOf(name, entry), value, 'ja', form)).toEqual(shown);
    });

    const yen = { DecimalPlaces: 2, Unit: '円' };
    it.each<Row>([
      ['NumA', yen, 1234.5, 'DisplayValue', 1234.5],
      ['NumA', yen, 1234.5, 'Value', 1234.5],
      ['NumA', yen, 1234.5, 'Text', '1234.5円'],
      ['NumA', yen, 1234.567, 'Text', '1234.57円'],
      ['NumA', { ...yen, RoundingType: 30 }, 1234.567, 'Text', '1234.56円'],
      ['NumA', { Unit: '円' }, 1234.5, 'Text', '1235円'],
      ['NumA', {}, 1234, 'Text', '1234'],
      ['NumA', {}, '12.0', 'Text', '12'],
      ['NumA', {}, null, 'DisplayValue', 0],
      ['NumA', yen, null, 'Text', '0円'],
      ['NumA', { Nullable: true }, null, 'DisplayValue', null],
      ['NumA', { Nullable: true }, null, 'Text', null],
      ['WorkValue', {}, 2.25, 'Text', '2.3h'],
      ['ProgressRate', {}, 50, 'Text', '50%'],
    ])('shows the number %s %j of %j as %s %j', (name, entry, value, form, shown) => {
      expect(displayValue(columnOf(name, entry), value, 'ja', form)).toEqual(shown);
    });

    it.each<Row>([
      ['CheckA', {}, true, 'DisplayValue', true],
      ['CheckA', {}, true, 'Value', true],
      ['CheckA', {}, true, 'Text', 'True'],
      ['CheckA', {}, false, 'Text', 'False'],
      ['CheckA', {}, null, 'DisplayValue', false],
      ['Locked', {}, true, 'Text', 'True'],
    ])('shows the check %s %j of %j as %s %j', (name, entry, value, form, shown) => {
      expect(displayValue(columnOf(name, entry), value, 'ja', form)).toEqual(shown);
    });

    it.each<[string, Record<string, unknown>, unknown, ValueForm, Language, Shown]>([
      ['DateA', {}, '2024-05-01T00:00:00', 'DisplayValue', 'ja', '2024/05/01'],
      ['DateA', {}, '2024-05-01T00:00:00', 'DisplayValue', 'en', '05/01/2024'],
      ['DateA', {}, '2024-05-01T00:00:00', 'Text', 'en', '05/01/2024'],
      ['DateA', {}, '2024-05-01T00:00:00', 'Value', 'ja', '2024-05-01T00:00:00'],
      [
        'DateA',
        { EditorFormat: 'Ymdahm' },
        '2024-05-01T09:05:00',
        'DisplayValue',
        'ja',
        '2024/05/01 水 09:05',
      ],
      [
        'DateA',
        { EditorFormat: 'Ymdahm' },
        '2024-05-01T09:05:00',
        'DisplayValue',
        'en',
        'Wed, 05/01/2024 09:05',
      ],
      ['DateA', {}, '1899-12-30T00:00:00', 'DisplayValue', 'ja', ''],
      ['DateA', {}, '2101-01-01T00:00:00', 'DisplayValue', 'ja', ''],
      ['DateA', {}, null, 'DisplayValue', 'ja', null],
      ['DateA', {}, null, 'Text', 'ja', ''],
      ['StartTime', {}, '2024-05-01T00:00:00', 'DisplayValue', 'en', '05/01/2024'],
      ['CreatedTime', {}, '2024-05-01T09:30:15', 'DisplayValue', 'ja', '2024-05-01T09:30:15'],
      ['UpdatedTime', {}, '2024-05-01T09:30:15', 'Text', 'ja', '2024/05/01 水 09:30:15'],
      ['UpdatedTime', {}, '2024-05-05T09:30:15', 'Text', 'en', '2024/05/05 Sun 09:30:15'],
      ['CompletionTime', {}, '2024-05-01T00:00:00', 'DisplayValue', 'ja', '2024-05-01T00:00:00'],
      ['CompletionTime', {}, '2024-05-01T00:00:00', 'Text', 'ja', '2024/05/01'],
    ])('shows the date %s %j of %j as %s in %s: %j', (name, entry, value, form, language, shown) => {
      expect(displayValue(columnOf(name, entry, language), value, language, form)).toEqual(shown);
    });
  });

  describe('formatDate', () => {
    it.each<[string, 'Ymd' | 'Ymda' | 'Ymdahm' | 'Ymdahms', Language, string]>([
      ['2026-11-27T13:04:05', 'Ymd', 'ja', '2026/11/27'],
      ['2026-11-27T13:04:05', 'Ymda', 'ja', '2026/11/27 金'],
      ['2026-11-27T13:04:05', 'Ymda', 'en', 'Fri, 11/27/2026'],
      ['2026-11-27T13:04:05', 'Ymdahms', 'en', '2026/11/27 Fri 13:04:05'],
      ['2026-11-27', 'Ymdahm', 'ja', '2026/11/27 金 00:00'],
      ['not a date', 'Ymd', 'ja', ''],
    ])('formats %s as %s in %s: %s', (local, format, language, shown) => {
      expect(formatDate(local, format, language)).toBe(shown);
    });
  });

  describe('round', () => {
    it.each<[number, number, RoundingType, number]>([
      [1.005, 2, 10, 1.01],
      [-1.25, 1, 10, -1.3],
      [2.5, 0, 10, 3],
      [-1.21, 1, 20, -1.2],
      [1.21, 1, 20, 1.3],
      [-1.29, 1, 30, -1.2],
      [1.29, 1, 40, 1.2],
      [-1.21, 1, 40, -1.3],
      [2.5, 0, 50, 2],
      [3.5, 0, 50, 4],
      [-2.5, 0, 50, -2],
      [-0.4, 0, 10, 0],
      [1.5, 0, 10, 2],
      [-1.5, 0, 10, -2],
      [-1.5, 0, 20, -1],
      [1.5, 0, 30, 1],
      [-1.5, 0, 30, -1],
      [-1.5, 0, 40, -2],
      [0.125, 2, 50, 0.12],
      [0.135, 2, 50, 0.14],
      [-0.125, 2, 50, -0.12],
      [-3.5, 0, 50, -4],
      [12.34, 1, 50, 12.3],
      // Values JavaScript writes in exponent form.
      [1e-7, 2, 10, 0],
      [1e-7, 2, 20, 0.01],
      [-1e-7, 2, 40, -0.01],
      [1e21, 2, 10, 1e21],
    ])('rounds %d to %d places by type %d: %d', (value, places, type, rounded) => {
      expect(round(value, places, type)).toBe(rounded);
    });
  });
});

describe('columns/display with a resolver', () => {
  const names: Record<string, string> = { 'users:5': 'Taro', 'link:123': 'Parent A', 'depts:2': 'Sales' };
  const resolve = (source: { kind: string }, value: string) => names[`${source.kind}:${value}`];

  it.each<[string, Record<string, unknown>, unknown, Shown, Shown]>([
    ['Manager', {}, 5, 'Taro', 5],
    ['Owner', {}, 9, 9, 9],
    ['Creator', {}, null, null, null],
    ['ClassA', { ChoicesText: '[[Users]]' }, '5', 'Taro', '5'],
    ['ClassA', { ChoicesText: '[[Depts]]' }, '2', 'Sales', '2'],
    ['ClassA', { ChoicesText: '[[77]]' }, '123', 'Parent A', '123'],
    ['ClassA', { ChoicesText: '[[77]]' }, '124', '? 124', '124'],
    ['ClassA', { ChoicesText: '[{"SiteId":77}]' }, '123', 'Parent A', '123'],
    ['ClassA', { ChoicesText: '0,None\n[[77]]' }, '0', 'None', 'None'],
    ['ClassA', { ChoicesText: '[[77]]', MultipleSelections: true }, '["123","9"]', 'Parent A, 9', '123, 9'],
  ])('shows %s %j of %j as %j, or %j without a resolver', (name, entry, value, resolved, unresolved) => {
    expect(displayValue(columnOf(name, entry), value, 'ja', 'DisplayValue', resolve)).toEqual(resolved);
    expect(displayValue(columnOf(name, entry), value, 'ja')).toEqual(unresolved);
  });
});

describe('columns/display: the KeyValues table of pleasanter-columns.md 8 with names resolved', () => {
  const names: Record<string, string> = {
    'users:5': 'Taro',
    'link:123': 'Parent A',
    'groups:3': 'Team',
    'depts:2': 'Sales',
  };
  // As lib/items/choice-names.ts reads them: a JSON link naming a TableName is that kind of account.
  const resolve = (source: ChoiceSource, value: string) =>
    names[
      `${source.kind === 'link' && source.tableName ? source.tableName.toLowerCase() : source.kind}:${value}`
    ];

  it.each<[string, Record<string, unknown>, unknown, ValueForm, Shown]>([
    ['Owner', {}, 5, 'DisplayValue', 'Taro'],
    ['Owner', {}, 5, 'Value', 5],
    ['Owner', {}, 5, 'Text', 'Taro'],
    ['Manager', {}, 0, 'DisplayValue', null],
    ['Manager', {}, 0, 'Value', 0],
    ['ClassA', { ChoicesText: '[[Users]]' }, '5', 'DisplayValue', 'Taro'],
    ['ClassA', { ChoicesText: '[[Users*]]' }, '5', 'Value', '5'],
    ['ClassA', { ChoicesText: '[[Users]]' }, '5', 'Text', 'Taro'],
    ['ClassA', { ChoicesText: '[[Groups]]' }, '3', 'DisplayValue', 'Team'],
    ['ClassA', { ChoicesText: '[[Depts]]' }, '2', 'Text', 'Sales'],
    ['ClassA', { ChoicesText: '[{"TableName":"Depts"}]' }, '2', 'DisplayValue', 'Sales'],
    ['ClassA', { ChoicesText: '[[77]]' }, '123', 'DisplayValue', 'Parent A'],
    ['ClassA', { ChoicesText: '[[77]]' }, '123', 'Value', '123'],
    ['ClassA', { ChoicesText: '[[77]]' }, '123', 'Text', 'Parent A'],
    ['ClassA', { ChoicesText: '[[77]]' }, '999', 'DisplayValue', '? 999'],
    ['ClassA', { ChoicesText: '[[77]]' }, '', 'DisplayValue', null],
    ['ClassA', { ChoicesText: '[[77]]', MultipleSelections: true }, '["123","999"]', 'Text', 'Parent A, 999'],
    ['ClassA', { ChoicesText: '[[77]]', MultipleSelections: true }, '["123"]', 'Value', '["123"]'],
  ])('shows %s %j of %j as %s: %j', (name, entry, value, form, shown) => {
    expect(displayValue(columnOf(name, entry), value, 'ja', form, resolve)).toEqual(shown);
  });
});
