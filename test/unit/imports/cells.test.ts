import { describe, expect, it } from 'vitest';
import { columnsOf } from '../../../lib/columns/model';
import {
  checkCell,
  choiceCell,
  dateCell,
  numberCell,
  statusCell,
  userCell,
} from '../../../lib/imports/cells';

const context = { zone: 'Asia/Tokyo', userIds: new Map([['Tanaka Taro', 7]]) };
const columns = columnsOf(
  'Results',
  [
    { ColumnName: 'ClassA', ChoicesText: '1,Red,R\n2,Blue,B' },
    { ColumnName: 'ClassB', ChoicesText: 'a,Alpha\nb,Beta', MultipleSelections: true },
    { ColumnName: 'ClassC', ChoicesText: '[[Users]]' },
  ],
  'ja',
).byName;
const column = (name: string) => {
  const found = columns.get(name);
  if (!found) throw new Error(name);
  return found;
};

describe('lib/imports/cells', () => {
  describe('numberCell', () => {
    it.each([
      ['12', false, 12],
      ['-3.25', false, -3.25],
      ['1,234,567.5', false, 1234567.5],
      ['\\500', false, 500],
      ['¥1,000', false, 1000],
      [' 7 ', false, 7],
      ['', false, 0],
      ['', true, null],
    ])('reads %j (nullable %s) as %j', (text, nullable, value) => {
      expect(numberCell(text, nullable)).toEqual({ value });
    });

    it.each([['12a'], ['1.2.3'], ['-'], ['1e5'], ['12,34'], ['100000000000000']])('refuses %j', (text) => {
      expect(numberCell(text, false)).toHaveProperty('problem');
    });
  });

  describe('dateCell', () => {
    it.each([
      ['2026/01/20', '2026-01-19T15:00:00.000Z'],
      ['2026-1-20 10:30', '2026-01-20T01:30:00.000Z'],
      ['2026/01/20 火 10:30:15', '2026-01-20T01:30:15.000Z'],
      ['2026/01/20 火', '2026-01-19T15:00:00.000Z'],
      ['Tue, 01/20/2026 10:30', '2026-01-20T01:30:00.000Z'],
      ['01/20/2026', '2026-01-19T15:00:00.000Z'],
      ['2026-01-20T10:30:00Z', '2026-01-20T10:30:00.000Z'],
      ['46042', '2026-01-19T15:00:00.000Z'],
      ['46042.5', '2026-01-20T03:00:00.000Z'],
      ['', null],
    ])('reads %j in Asia/Tokyo as %j', (text, value) => {
      expect(dateCell(text, 'Asia/Tokyo')).toEqual({ value });
    });

    it.each([['2026/02/30'], ['tomorrow'], ['13/45/2026'], ['2026/01/20 25:00']])('refuses %j', (text) => {
      expect(dateCell(text, 'Asia/Tokyo')).toHaveProperty('problem');
    });
  });

  describe('checkCell', () => {
    it.each([
      ['1', true],
      ['-1', true],
      ['TRUE', true],
      ['on', true],
      ['', false],
      ['0', false],
      ['false', false],
      ['off', false],
    ])('reads %j as %s', (text, value) => {
      expect(checkCell(text)).toEqual({ value });
    });

    it('refuses other text', () => {
      expect(checkCell('yes')).toHaveProperty('problem');
    });
  });

  describe('choiceCell', () => {
    it.each([
      ['ClassA', 'Blue', '2'],
      ['ClassA', 'B', '2'],
      ['ClassA', '1', '1'],
      ['ClassA', 'Green', 'Green'],
      ['ClassA', '', null],
      ['ClassB', '["Alpha","b"]', '["a","b"]'],
      ['ClassB', '[]', '[]'],
      ['ClassC', 'Tanaka Taro', '7'],
      ['ClassC', '12', '12'],
      ['ClassC', 'Someone Else', 'Someone Else'],
    ])('%s reads %j as %j', (name, text, value) => {
      expect(choiceCell(column(name), text, context)).toEqual({ value });
    });

    it.each([['Alpha'], ['{"a":1}'], ['[{"a":1}]']])('a multi-select refuses %j', (text) => {
      expect(choiceCell(column('ClassB'), text, context)).toHaveProperty('problem');
    });
  });

  describe('statusCell and userCell', () => {
    it.each([
      ['完了', 900],
      ['保留', 910],
      ['200', 200],
    ])('Status reads %j as %i', (text, value) => {
      expect(statusCell(column('Status'), text, context)).toEqual({ value });
    });

    it('Status refuses text that is no status', () => {
      expect(statusCell(column('Status'), 'Someday', context)).toHaveProperty('problem');
    });

    it.each([
      ['Tanaka Taro', 7],
      ['42', 42],
      ['', 0],
    ])('Manager reads %j as %i', (text, value) => {
      expect(userCell(text, context, true)).toEqual({ value });
    });

    it('Manager refuses a name no user has', () => {
      expect(userCell('Nobody', context, true)).toHaveProperty('problem');
    });
  });
});
