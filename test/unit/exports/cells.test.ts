import { describe, expect, it } from 'vitest';
import type { ChoiceSource } from '../../../lib/columns/choices';
import type { DateFormat, Language } from '../../../lib/columns/definitions';
import { columnsOf } from '../../../lib/columns/model';
import {
  type ExportColumnPlan,
  type ExportForm,
  exportCells,
  generalTime,
  headerLabels,
} from '../../../lib/exports/cells';
import type { ItemRecord } from '../../../lib/items/model';

/**
 * Every column kind as the reference's export writes it (reference note §1, the table), in both
 * languages: the caller's zone is Asia/Tokyo, records are stored as instants.
 */

const at = (iso: string) => Date.parse(iso);
const record: ItemRecord = {
  recordId: 42,
  tenantId: 1,
  siteId: 10,
  title: 'Raw title',
  itemTitle: 'Composed title',
  body: 'Body text',
  status: 200,
  fields: {
    Class: { ClassA: 'AC7459', ClassB: '["a","c"]', ClassC: 'free text', ClassD: '9' },
    Num: { NumA: 1234.5, NumB: 3.14259, NumC: -0.5 },
    Date: { DateA: '2026-01-31T15:30:00.000Z', DateB: '2026-03-01T00:00:00.000Z' },
    Description: { DescriptionA: 'line 1\nline "2"' },
    Check: { CheckA: true, CheckB: false },
    Attachments: { AttachmentsA: [{ Guid: 'A'.repeat(32), Name: 'x.pdf' }] },
  },
  manager: 2,
  owner: 0,
  startTime: at('2026-01-04T15:00:00Z'),
  // Stored as the end of the day (date-only): shown a day back.
  completionTime: at('2026-01-10T15:00:00Z'),
  workValue: 12.25,
  progressRate: 50,
  comments: [
    { commentId: 2, createdAt: at('2026-02-02T03:04:05Z'), creator: 3, body: 'second' },
    { commentId: 1, createdAt: at('2026-02-01T14:00:00Z'), creator: 2, body: 'first' },
  ],
  locked: true,
  creator: 2,
  updator: 3,
  createdAt: at('2026-01-01T00:00:00Z'),
  updatedAt: at('2026-02-03T23:59:59Z'),
  ver: 3,
  version: 3,
};

const SITE_COLUMNS = [
  { ColumnName: 'ClassA', ChoicesText: 'AC7459,製品A,A\nAC7460,製品B,B' },
  { ColumnName: 'ClassB', ChoicesText: 'a,Alpha,α\nb,Beta,β\nc,Gamma,γ', MultipleSelections: true },
  { ColumnName: 'ClassD', ChoicesText: '[[Users]]' },
  { ColumnName: 'NumA', DecimalPlaces: 0 },
  { ColumnName: 'NumB', DecimalPlaces: 2, Unit: 'kg' },
  { ColumnName: 'NumD', Nullable: true },
  { ColumnName: 'DateA', EditorFormat: 'Ymdhm' },
];

const users: Record<string, string> = { '2': 'Tanaka', '3': 'Suzuki', '9': 'Sato' };
const resolve = (source: ChoiceSource, value: string) => (source.kind === 'users' ? users[value] : undefined);

function plan(
  name: string,
  language: Language,
  options: { form?: ExportForm; format?: DateFormat; outputClassColumn?: boolean; jsonFormat?: boolean } = {},
): ExportColumnPlan {
  const column = columnsOf('Issues', SITE_COLUMNS, language).byName.get(name);
  if (!column) throw new Error(name);
  return {
    column,
    label: column.labelText,
    form: options.form ?? 'Text',
    ...(options.format && { format: options.format }),
    outputClassColumn: options.outputClassColumn ?? false,
    jsonFormat: options.jsonFormat ?? false,
  };
}

const cells = (p: ExportColumnPlan, language: Language) =>
  exportCells(p, record, { language, zone: 'Asia/Tokyo', resolve });

type Row = [string, Parameters<typeof plan>[2], string, string];

describe('exports/cells', () => {
  describe('exportCells', () => {
    it.each<Row>([
      ['IssueId', {}, '42', '42'],
      ['Ver', {}, '3', '3'],
      ['Title', {}, 'Composed title', 'Composed title'],
      ['Title', { form: 'Value' }, 'Raw title', 'Raw title'],
      ['Body', {}, 'Body text', 'Body text'],
      ['DescriptionA', {}, 'line 1\nline "2"', 'line 1\nline "2"'],
      ['ClassC', {}, 'free text', 'free text'],
      // Numbers: no unit, no separator; DecimalPlaces rounds; an empty nullable is empty, else 0.
      ['NumA', {}, '1235', '1235'],
      ['NumB', {}, '3.14', '3.14'],
      ['NumC', {}, '-1', '-1'],
      ['NumD', {}, '', ''],
      ['NumE', {}, '0', '0'],
      ['WorkValue', {}, '12.3', '12.3'],
      ['ProgressRate', {}, '50', '50'],
      ['RemainingWorkValue', {}, '6.1', '6.1'],
      // Dates: Format, else EditorFormat, else Ymd; in the caller's zone and language.
      ['DateA', {}, '2026/02/01 00:30', '2026/02/01 00:30'],
      ['DateA', { format: 'Ymd' }, '2026/02/01', '02/01/2026'],
      ['DateA', { format: 'Ymdahms' }, '2026/02/01 日 00:30:00', '2026/02/01 Sun 00:30:00'],
      ['DateB', {}, '2026/03/01', '03/01/2026'],
      ['DateC', {}, '', ''],
      ['StartTime', {}, '2026/01/05', '01/05/2026'],
      ['CompletionTime', {}, '2026/01/10', '01/10/2026'],
      ['CompletionTime', { format: 'Ymdhm' }, '2026/01/11 00:00', '2026/01/11 00:00'],
      ['CreatedTime', {}, '2026/01/01 木 09:00:00', '2026/01/01 Thu 09:00:00'],
      ['UpdatedTime', {}, '2026/02/04 水 08:59:59', '2026/02/04 Wed 08:59:59'],
      // Check and Locked: 1 or nothing.
      ['CheckA', {}, '1', '1'],
      ['CheckB', {}, '', ''],
      ['CheckC', {}, '', ''],
      ['Locked', {}, '1', '1'],
      // Choices, Status, users by Text, Value, TextMini.
      ['ClassA', {}, '製品A', '製品A'],
      ['ClassA', { form: 'Value' }, 'AC7459', 'AC7459'],
      ['ClassA', { form: 'TextMini' }, 'A', 'A'],
      ['ClassB', {}, '["Alpha","Gamma"]', '["Alpha","Gamma"]'],
      ['ClassB', { form: 'Value' }, '["a","c"]', '["a","c"]'],
      ['ClassB', { form: 'TextMini' }, '["α","γ"]', '["α","γ"]'],
      ['ClassD', {}, 'Sato', 'Sato'],
      ['ClassD', { form: 'Value' }, '9', '9'],
      // The built-in Status choices are the reference's Japanese ones in every language.
      ['Status', {}, '実施中', '実施中'],
      ['Status', { form: 'Value' }, '200', '200'],
      ['Status', { form: 'TextMini' }, '実', '実'],
      ['Manager', {}, 'Tanaka', 'Tanaka'],
      ['Manager', { form: 'Value' }, '2', '2'],
      ['Owner', {}, '', ''],
      ['Creator', {}, 'Tanaka', 'Tanaka'],
      ['Updator', { form: 'Value' }, '3', '3'],
      // Comments: newest first with the writer's name, or their id; JSON oldest first.
      [
        'Comments',
        {},
        '2026/02/02 12:04:05 Suzuki\nsecond\n\n2026/02/01 23:00:00 Tanaka\nfirst',
        '2/2/2026 12:04:05 PM Suzuki\nsecond\n\n2/1/2026 11:00:00 PM Tanaka\nfirst',
      ],
      [
        'Comments',
        { form: 'Value' },
        '2026/02/02 12:04:05 3\nsecond\n\n2026/02/01 23:00:00 2\nfirst',
        '2/2/2026 12:04:05 PM 3\nsecond\n\n2/1/2026 11:00:00 PM 2\nfirst',
      ],
      ['AttachmentsA', {}, '', ''],
    ])('writes %s %j as %j (ja) and %j (en)', (name, options, ja, en) => {
      expect(cells(plan(name, 'ja', options), 'ja')).toEqual([ja]);
      expect(cells(plan(name, 'en', options), 'en')).toEqual([en]);
    });

    it('writes Comments with ExportJsonFormat as a JSON array, oldest first', () => {
      const [cell] = cells(plan('Comments', 'ja', { jsonFormat: true }), 'ja');
      expect(JSON.parse(cell ?? '')).toEqual([
        { CommentId: 1, CreatedTime: '2026-02-01T23:00:00', Creator: 2, Body: 'first' },
        { CommentId: 2, CreatedTime: '2026-02-02T12:04:05', Creator: 3, Body: 'second' },
      ]);
    });

    it.each<[string, string[], string[]]>([
      ['ClassA', ['分類A[製品A]', '分類A[製品B]'], ['1', '']],
      ['ClassB', ['分類B[Alpha]', '分類B[Beta]', '分類B[Gamma]'], ['1', '', '1']],
    ])('spreads %s with OutputClassColumn into a column per choice', (name, labels, values) => {
      const spread = plan(name, 'ja', { outputClassColumn: true });
      expect(headerLabels(spread)).toEqual(labels);
      expect(cells(spread, 'ja')).toEqual(values);
    });

    it('keeps a column without choices whole under OutputClassColumn', () => {
      const kept = plan('ClassC', 'ja', { outputClassColumn: true });
      expect(headerLabels(kept)).toEqual(['分類C']);
      expect(cells(kept, 'ja')).toEqual(['free text']);
    });

    it('writes at most 100 choices as columns', () => {
      const many = Array.from({ length: 120 }, (_, i) => `${i},c${i}`).join('\n');
      const column = columnsOf('Issues', [{ ColumnName: 'ClassE', ChoicesText: many }], 'en').byName.get(
        'ClassE',
      );
      if (!column) throw new Error('ClassE');
      const spread: ExportColumnPlan = {
        column,
        label: 'E',
        form: 'Text',
        outputClassColumn: true,
        jsonFormat: false,
      };
      expect(headerLabels(spread)).toHaveLength(100);
    });
  });

  describe('generalTime', () => {
    it.each<[Language, string, string]>([
      ['ja', '2026-07-04T00:05:09Z', '2026/07/04 9:05:09'],
      ['en', '2026-07-04T00:05:09Z', '7/4/2026 9:05:09 AM'],
      ['en', '2026-07-04T03:00:00Z', '7/4/2026 12:00:00 PM'],
      ['en', '2026-07-03T15:00:00Z', '7/4/2026 12:00:00 AM'],
    ])("writes the 'G' pattern of %s for %s as %s", (language, iso, text) => {
      expect(generalTime(at(iso), { language, zone: 'Asia/Tokyo' })).toBe(text);
    });
  });
});
