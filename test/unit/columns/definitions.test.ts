import { describe, expect, it } from 'vitest';
import { definitionsOf, LETTERS, type ReferenceType } from '../../../lib/columns/definitions';
import { columnsOf } from '../../../lib/columns/model';

const column = (type: ReferenceType, name: string, language: 'ja' | 'en' = 'ja') => {
  const found = columnsOf(type, undefined, language).byName.get(name);
  if (!found) throw new Error(`${type} has no ${name}`);
  return found;
};

describe('columns/definitions', () => {
  describe('definitionsOf', () => {
    it.each<[ReferenceType, number]>([
      ['Sites', 0],
      ['Dashboards', 0],
    ])('gives %s no columns', (type, count) => {
      expect(definitionsOf(type)).toHaveLength(count);
    });

    it.each<[ReferenceType, string]>([
      ['Issues', 'IssueId'],
      ['Results', 'ResultId'],
      ['Wikis', 'WikiId'],
    ])('gives %s its id column %s and one entry per column name', (type, id) => {
      const names = definitionsOf(type).map((definition) => definition.columnName);
      expect(names).toContain(id);
      expect(new Set(names).size).toBe(names.length);
    });

    it.each(['Class', 'Num', 'Date', 'Description', 'Check', 'Attachments'])(
      'generates the %s family A–Z for Issues and Results, none for Wikis',
      (family) => {
        for (const type of ['Issues', 'Results'] as const) {
          const names = definitionsOf(type).filter((definition) => definition.family === family);
          expect(names.map((definition) => definition.columnName)).toEqual(
            LETTERS.map((letter) => `${family}${letter}`),
          );
        }
        expect(definitionsOf('Wikis').some((definition) => definition.family === family)).toBe(false);
      },
    );

    it.each(['StartTime', 'CompletionTime', 'WorkValue', 'ProgressRate', 'RemainingWorkValue'])(
      'has %s in Issues only',
      (name) => {
        expect(definitionsOf('Issues').some((definition) => definition.columnName === name)).toBe(true);
        expect(definitionsOf('Results').some((definition) => definition.columnName === name)).toBe(false);
        expect(definitionsOf('Wikis').some((definition) => definition.columnName === name)).toBe(false);
      },
    );
  });

  describe('labels', () => {
    it.each<[ReferenceType, string, string, string]>([
      ['Issues', 'IssueId', 'ID', 'ID'],
      ['Issues', 'Ver', 'バージョン', 'Version'],
      ['Issues', 'Title', 'タイトル', 'Title'],
      ['Issues', 'Body', '内容', 'Body'],
      ['Issues', 'StartTime', '開始', 'Start time'],
      ['Issues', 'CompletionTime', '完了', 'Completion'],
      ['Issues', 'WorkValue', '作業量', 'Work volume'],
      ['Issues', 'ProgressRate', '進捗率', 'Progression rate'],
      ['Issues', 'RemainingWorkValue', '残作業量', 'Remaining work volume'],
      ['Issues', 'Status', '状況', 'Status'],
      ['Results', 'Status', '状況', 'Status'],
      ['Issues', 'Manager', '管理者', 'Manager'],
      ['Results', 'Owner', '担当者', 'Owner'],
      ['Wikis', 'Locked', 'ロック', 'Locked'],
      ['Wikis', 'Comments', 'コメント', 'Comments'],
      ['Issues', 'Creator', '作成者', 'Created by'],
      ['Issues', 'Updator', '更新者', 'Updated by'],
      ['Results', 'CreatedTime', '作成日時', 'Created on'],
      ['Wikis', 'UpdatedTime', '更新日時', 'Updated on'],
      ['Issues', 'ClassA', '分類A', 'ClassA'],
      ['Results', 'ClassZ', '分類Z', 'ClassZ'],
      ['Issues', 'NumB', '数値B', 'Numeric valueB'],
      ['Issues', 'DateC', '日付C', 'DateC'],
      ['Results', 'DescriptionD', '説明D', 'DescriptionD'],
      ['Issues', 'CheckE', 'チェックE', 'CheckE'],
      ['Results', 'AttachmentsF', '添付ファイルF', 'AttachmentsF'],
    ])('labels %s %s as %s (ja) and %s (en)', (type, name, ja, en) => {
      expect(column(type, name, 'ja').labelText).toBe(ja);
      expect(column(type, name, 'en').labelText).toBe(en);
    });
  });

  describe('defaults', () => {
    it.each<[ReferenceType, string, string]>([
      ['Issues', 'Status', '100'],
      ['Results', 'Status', '100'],
      ['Issues', 'Manager', '[[Self]]'],
      ['Results', 'Owner', '[[Self]]'],
      ['Issues', 'StartTime', '0'],
      ['Issues', 'CompletionTime', '7'],
      ['Issues', 'ClassA', ''],
      ['Issues', 'DateA', ''],
      ['Wikis', 'Title', ''],
      ['Wikis', 'Body', ''],
    ])('gives %s %s the DefaultInput "%s"', (type, name, defaultInput) => {
      expect(column(type, name).defaultInput).toBe(defaultInput);
    });

    it('gives Wikis no column with a DefaultInput', () => {
      expect(columnsOf('Wikis', undefined, 'ja').list.filter((entry) => entry.defaultInput !== '')).toEqual(
        [],
      );
    });

    it.each<[ReferenceType, boolean]>([
      ['Issues', true],
      ['Results', false],
    ])('makes %s Status required: %s (only Issues_Status.json sets ValidateRequired)', (type, required) => {
      expect(column(type, 'Status').validateRequired).toBe(required);
    });

    it.each<[ReferenceType, 'ja' | 'en']>([
      ['Issues', 'ja'],
      ['Issues', 'en'],
      ['Results', 'ja'],
      ['Results', 'en'],
    ])('gives %s Status the reference choices, unlocalized (%s)', (type, language) => {
      expect(column(type, 'Status', language).choices).toEqual({
        entries: [
          { kind: 'static', value: '100', text: '未着手', textMini: '未', cssClass: 'status-new' },
          { kind: 'static', value: '150', text: '準備', textMini: '準', cssClass: 'status-preparation' },
          { kind: 'static', value: '200', text: '実施中', textMini: '実', cssClass: 'status-inprogress' },
          { kind: 'static', value: '300', text: 'レビュー', textMini: 'レ', cssClass: 'status-review' },
          { kind: 'static', value: '900', text: '完了', textMini: '完', cssClass: 'status-closed' },
          { kind: 'static', value: '910', text: '保留', textMini: '留', cssClass: 'status-rejected' },
        ],
        problems: [],
      });
    });

    it.each<[string, Record<string, unknown>]>([
      [
        'NumA',
        {
          kind: 'number',
          decimalPlaces: 0,
          min: -999999999999999,
          max: 999999999999999,
          step: 1,
          unit: '',
          nullable: false,
        },
      ],
      ['WorkValue', { kind: 'number', decimalPlaces: 1, unit: 'h', min: 0, max: 100, step: 0.1 }],
      ['ProgressRate', { kind: 'number', decimalPlaces: 1, unit: '%' }],
      ['RemainingWorkValue', { kind: 'number', decimalPlaces: 1, unit: 'h' }],
      ['DateA', { kind: 'date', editorFormat: 'Ymd', gridFormat: 'Ymda', min: -365, max: 365 }],
      ['StartTime', { kind: 'date', editorFormat: 'Ymd' }],
      ['CreatedTime', { kind: 'date', editorFormat: 'Ymdahms', gridFormat: 'Ymdahm' }],
      ['ClassA', { kind: 'text', choicesText: '', roundingType: 10, multipleSelections: false }],
      ['Manager', { kind: 'user', choicesText: '[[Users]]' }],
      ['Title', { kind: 'text', validateRequired: true }],
      ['IssueId', { kind: 'id', editorReadOnly: true }],
      ['CheckA', { kind: 'check', allowImage: true, hide: false }],
      ['AttachmentsA', { kind: 'attachments' }],
      ['DescriptionA', { kind: 'description' }],
    ])('gives Issues %s its definition defaults', (name, expected) => {
      expect(column('Issues', name)).toMatchObject(expected);
    });

    it('leaves MaxLength unset (no limit) unless the site sets it', () => {
      expect(column('Issues', 'Title').maxLength).toBeUndefined();
    });
  });
});
