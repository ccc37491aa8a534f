import { describe, expect, it } from 'vitest';
import {
  type DefaultValue,
  defaultOf,
  defaultsOf,
  toBool,
  toDecimal,
  toInt,
} from '../../../lib/columns/defaults';
import type { ReferenceType } from '../../../lib/columns/definitions';
import { type Column, columnsOf } from '../../../lib/columns/model';

// 2025-01-20T15:00:00Z is 2025-01-21 00:00 in Tokyo: "today" there is the 21st.
const NOW = Date.parse('2025-01-20T15:30:00Z');
const context = { userId: 7, deptId: 3, zone: 'Asia/Tokyo', now: NOW };
const tokyoMidnight = (day: string) => Date.parse(`${day}T00:00:00+09:00`);

const columnOf = (
  name: string,
  entry: Record<string, unknown> = {},
  type: ReferenceType = 'Issues',
): Column => {
  const column = columnsOf(type, [{ ColumnName: name, ...entry }], 'ja').byName.get(name);
  if (!column) throw new Error(name);
  return column;
};

describe('columns/defaults', () => {
  describe('defaultOf', () => {
    it.each<[string, Record<string, unknown>, DefaultValue | undefined]>([
      ['Status', {}, { kind: 'number', value: 100 }],
      ['Status', { DefaultInput: '200' }, { kind: 'number', value: 200 }],
      ['Status', { DefaultInput: '' }, undefined],
      // ToInt of what is no integer is 0, which the reference stores.
      ['Status', { DefaultInput: 'abc' }, { kind: 'number', value: 0 }],
      ['Status', { DefaultInput: '7.5' }, { kind: 'number', value: 0 }],
      ['Manager', {}, { kind: 'user', value: 7 }],
      ['Owner', {}, { kind: 'user', value: 7 }],
      ['Owner', { DefaultInput: '' }, undefined],
      ['Owner', { DefaultInput: '12' }, { kind: 'user', value: 12 }],
      ['Title', {}, undefined],
      ['Title', { DefaultInput: 'New item' }, { kind: 'text', value: 'New item' }],
      ['Body', { DefaultInput: 'line 1\nline 2' }, { kind: 'text', value: 'line 1\nline 2' }],
      ['ClassA', { DefaultInput: 'a' }, { kind: 'text', value: 'a' }],
      ['ClassA', { DefaultInput: '[[Self]]', ChoicesText: '[[Users]]' }, { kind: 'text', value: '7' }],
      [
        'ClassA',
        { DefaultInput: '[[Self]]', ChoicesText: '[[Users]]', MultipleSelections: true },
        { kind: 'text', value: '["7"]' },
      ],
      ['ClassA', { DefaultInput: '[[Self]]', ChoicesText: '[[Depts]]' }, { kind: 'text', value: '3' }],
      ['ClassA', { DefaultInput: '[[Self]]', ChoicesText: '[[Groups]]' }, undefined],
      ['DescriptionA', { DefaultInput: 'memo' }, { kind: 'text', value: 'memo' }],
      ['NumA', { DefaultInput: '1.5' }, { kind: 'number', value: 2 }],
      ['NumA', { DefaultInput: '1.25', DecimalPlaces: 1 }, { kind: 'number', value: 1.3 }],
      ['NumA', { DefaultInput: '1.25', DecimalPlaces: 1, RoundingType: 30 }, { kind: 'number', value: 1.2 }],
      ['NumA', { DefaultInput: 'x' }, { kind: 'number', value: 0 }],
      ['WorkValue', { DefaultInput: '2.25' }, { kind: 'number', value: 2.3 }],
      ['ProgressRate', { DefaultInput: '50' }, { kind: 'number', value: 50 }],
      ['CheckA', { DefaultInput: '1' }, { kind: 'check', value: true }],
      ['CheckA', { DefaultInput: '-1' }, { kind: 'check', value: true }],
      ['CheckA', { DefaultInput: 'TRUE' }, { kind: 'check', value: true }],
      ['CheckA', { DefaultInput: 'on' }, { kind: 'check', value: true }],
      ['CheckA', { DefaultInput: '0' }, { kind: 'check', value: false }],
      ['CheckA', { DefaultInput: 'yes' }, { kind: 'check', value: false }],
      ['StartTime', {}, { kind: 'time', value: tokyoMidnight('2025-01-21') }],
      ['CompletionTime', {}, { kind: 'time', value: tokyoMidnight('2025-01-28') }],
      ['CompletionTime', { DefaultInput: '' }, undefined],
      ['DateA', {}, undefined],
      ['DateA', { DefaultInput: '-1' }, { kind: 'time', value: tokyoMidnight('2025-01-20') }],
      ['DateA', { DefaultInput: 'x' }, { kind: 'time', value: tokyoMidnight('2025-01-21') }],
      // Not Ymd: now plus the days, the time of day kept.
      ['DateA', { DefaultInput: '2', EditorFormat: 'Ymdahm' }, { kind: 'time', value: NOW + 2 * 86_400_000 }],
      ['AttachmentsA', { DefaultInput: 'x' }, undefined],
      ['Comments', { DefaultInput: 'x' }, undefined],
    ])('%s %j defaults to %j', (name, entry, expected) => {
      expect(defaultOf(columnOf(name, entry), context)).toEqual(expected);
    });
  });

  describe('defaultsOf', () => {
    it('gives Issues their Status, people and dates', () => {
      const defaults = defaultsOf('Issues', columnsOf('Issues', [], 'en').list, context);
      expect(Object.fromEntries(defaults)).toEqual({
        Status: { kind: 'number', value: 100 },
        Manager: { kind: 'user', value: 7 },
        Owner: { kind: 'user', value: 7 },
        StartTime: { kind: 'time', value: tokyoMidnight('2025-01-21') },
        CompletionTime: { kind: 'time', value: tokyoMidnight('2025-01-28') },
      });
    });

    it('gives Results their Status and people only', () => {
      const defaults = defaultsOf('Results', columnsOf('Results', [], 'en').list, context);
      expect([...defaults.keys()]).toEqual(['Status', 'Manager', 'Owner']);
    });

    it('gives Wikis none, whatever their columns say', () => {
      const columns = columnsOf('Wikis', [{ ColumnName: 'Title', DefaultInput: 'x' }], 'en').list;
      expect(defaultsOf('Wikis', columns, context).size).toBe(0);
    });
  });

  describe('conversions', () => {
    it.each([
      ['7', 7],
      [' -3 ', -3],
      ['7.5', 0],
      ['x', 0],
      ['', 0],
      ['99999999999', 0],
    ])('ToInt %j is %d', (text, value) => expect(toInt(text)).toBe(value));
    it.each([
      ['1.25', 1.25],
      ['-2', -2],
      ['x', 0],
      ['', 0],
    ])('ToDecimal %j is %d', (text, value) => expect(toDecimal(text)).toBe(value));
    it.each([
      ['1', true],
      ['-1', true],
      ['True', true],
      ['ON', true],
      ['0', false],
      ['false', false],
      ['', false],
    ])('ToBool %j is %s', (text, value) => expect(toBool(text)).toBe(value));
  });
});
