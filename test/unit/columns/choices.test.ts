import { describe, expect, it } from 'vitest';
import {
  type ChoiceEntry,
  choiceSources,
  parseChoicesText,
  staticChoices,
} from '../../../lib/columns/choices';

describe('columns/choices', () => {
  describe('parseChoicesText', () => {
    it.each<[string, string | null | undefined]>([
      ['undefined', undefined],
      ['null', null],
      ['empty', ''],
      ['blank lines', ' \n\r\n  '],
    ])('answers no entries and no problems for %s', (_, text) => {
      expect(parseChoicesText(text)).toEqual({ entries: [], problems: [] });
    });

    it.each<[string, ChoiceEntry]>([
      ['A', { kind: 'static', value: 'A', text: 'A', textMini: 'A' }],
      ['AC7459,製品A', { kind: 'static', value: 'AC7459', text: '製品A', textMini: '製品A' }],
      ['1,One,O', { kind: 'static', value: '1', text: 'One', textMini: 'O' }],
      [
        '100,未着手,未,status-new',
        { kind: 'static', value: '100', text: '未着手', textMini: '未', cssClass: 'status-new' },
      ],
      [
        '1,One,O,css,color:red',
        { kind: 'static', value: '1', text: 'One', textMini: 'O', cssClass: 'css', style: 'color:red' },
      ],
      ['1,,,css', { kind: 'static', value: '1', text: '1', textMini: '1', cssClass: 'css' }],
      ['  1,One  ', { kind: 'static', value: '1', text: 'One', textMini: 'One' }],
      ['1, One', { kind: 'static', value: '1', text: ' One', textMini: ' One' }],
      ['1,A\\, B', { kind: 'static', value: '1', text: 'A, B', textMini: 'A, B' }],
      ['[Users]', { kind: 'static', value: '[Users]', text: '[Users]', textMini: '[Users]' }],
    ])('reads the plain line %j', (line, entry) => {
      expect(parseChoicesText(line)).toEqual({ entries: [entry], problems: [] });
    });

    it.each<[string, ChoiceEntry]>([
      ['[[Users]]', { kind: 'users', scope: 'site', showDeptName: false }],
      ['[[Users*]]', { kind: 'users', scope: 'tenant', showDeptName: false }],
      ['[[Users,ShowDeptName]]', { kind: 'users', scope: 'site', showDeptName: true }],
      ['[[Users*,ShowDeptName]]', { kind: 'users', scope: 'tenant', showDeptName: true }],
      ['[[Depts]]', { kind: 'depts' }],
      ['[[Groups]]', { kind: 'groups', scope: 'site' }],
      ['[[Groups*]]', { kind: 'groups', scope: 'tenant' }],
      ['[[TimeZones]]', { kind: 'timeZones' }],
      ['[[123]]', { kind: 'link', siteId: 123, options: [], json: false }],
      [
        '[[123,NoAddButton,AddSource,NotReturnParentRecord]]',
        {
          kind: 'link',
          siteId: 123,
          options: ['NoAddButton', 'AddSource', 'NotReturnParentRecord'],
          json: false,
        },
      ],
      [
        '[[45,NotReturnParentRecord]]',
        { kind: 'link', siteId: 45, options: ['NotReturnParentRecord'], json: false },
      ],
    ])('reads the source line %s', (line, entry) => {
      expect(parseChoicesText(line)).toEqual({ entries: [entry], problems: [] });
    });

    it.each<[string, string]>([
      ['[[123*]]', 'neither a known source nor a site id'],
      ['[[0]]', 'neither a known source nor a site id'],
      ['[[abc]]', 'neither a known source nor a site id'],
      ['[[]]', 'neither a known source nor a site id'],
      ['[[Depts,Foo]]', 'neither a known source nor a site id'],
      ['[[99999999999999999999]]', 'neither a known source nor a site id'],
    ])('reports the malformed source line %s and drops it', (line, reason) => {
      const parsed = parseChoicesText(line);
      expect(parsed.entries).toEqual([]);
      expect(parsed.problems).toEqual([{ line: 1, text: line, reason: expect.stringContaining(reason) }]);
    });

    it.each<[string, ChoiceEntry, string]>([
      ['[[Users,Foo]]', { kind: 'users', scope: 'site', showDeptName: false }, 'Unknown option "Foo"'],
      ['[[12,Foo]]', { kind: 'link', siteId: 12, options: [], json: false }, 'Unknown option "Foo"'],
    ])('keeps %s but reports its unknown option', (line, entry, reason) => {
      expect(parseChoicesText(line)).toEqual({
        entries: [entry],
        problems: [{ line: 1, text: line, reason: expect.stringContaining(reason) }],
      });
    });

    it('keeps the first of two lines with one value, as the reference, and reports the second', () => {
      const parsed = parseChoicesText('1,One\r\n2,Two\r\n1,Uno');
      expect(staticChoices(parsed).map((choice) => choice.text)).toEqual(['One', 'Two']);
      expect(parsed.problems).toEqual([
        { line: 3, text: '1,Uno', reason: 'Duplicate value "1" is ignored.' },
      ]);
    });

    it('mixes static lines and sources in order, counting lines with the blank ones', () => {
      const parsed = parseChoicesText('[[Users]]\n\n0,Nobody\n[[bad]]');
      expect(parsed.entries.map((entry) => entry.kind)).toEqual(['users', 'static']);
      expect(choiceSources(parsed)).toEqual([{ kind: 'users', scope: 'site', showDeptName: false }]);
      expect(parsed.problems.map((problem) => problem.line)).toEqual([4]);
    });
  });

  describe('the JSON link form', () => {
    it('reads each link, keeping its settings whole', () => {
      const settings = {
        SiteId: 7,
        NoAddButton: true,
        View: { ColumnFilterHash: { ClassA: '["1"]' } },
        Lookups: [],
      };
      expect(parseChoicesText(JSON.stringify([settings]))).toEqual({
        entries: [{ kind: 'link', siteId: 7, options: ['NoAddButton'], json: true, settings }],
        problems: [],
      });
    });

    it.each(['Users', 'Depts', 'Groups'] as const)('reads a TableName %s link', (tableName) => {
      const text = ` [ {"TableName":"${tableName}"} ]`;
      expect(parseChoicesText(text).entries).toEqual([
        { kind: 'link', tableName, options: [], json: true, settings: { TableName: tableName } },
      ]);
    });

    it('accepts a SiteId written as a string of digits', () => {
      expect(parseChoicesText('[{"SiteId":"12"}]').entries).toMatchObject([{ kind: 'link', siteId: 12 }]);
    });

    it.each<[string, string, number]>([
      ['[{"SiteId":1', 'not valid JSON', 0],
      ['[{"SiteId":0}]', 'Link 1: SiteId must be a positive integer.', 0],
      ['[{"SiteId":"x"}]', 'Link 1: SiteId must be a positive integer.', 0],
      ['[{}]', 'Link 1: SiteId must be a positive integer.', 0],
      ['[{"TableName":"Sites"}]', 'Link 1: TableName "Sites" is not Users, Depts or Groups.', 0],
      ['[{"SiteId":3}, 5]', 'Link 2: must be an object.', 1],
    ])('reports %s', (text, reason, kept) => {
      const parsed = parseChoicesText(text);
      expect(parsed.entries).toHaveLength(kept);
      expect(parsed.problems).toEqual([
        expect.objectContaining({ line: 0, reason: expect.stringContaining(reason) }),
      ]);
    });
  });
});
