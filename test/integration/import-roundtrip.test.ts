import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticChoices } from '../../lib/columns/choices';
import { formatDate } from '../../lib/columns/display';
import { columnsOf } from '../../lib/columns/model';
import { createUser, seedAccounts, type TestUser } from '../fixtures/accounts';
import { csvOf, type ImportedRecord, importCsv, recordsOf } from '../fixtures/imports';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * A round trip: the records of a site written as the reference's export writes them (Text values: choice
 * texts, user names, dates in the Displays formats, CompletionTime a day earlier, multi-selects and the
 * JSON comments as JSON arrays; ../reference/pleasanter-export-import.md §1), imported into a copy of the
 * site, give equal records. The export is another helper's work on a branch of its own: the CSV is built
 * here by those rules, from the records the API answers.
 */

let stack: Stack;
let admin: string;
let manager: TestUser;

const SETTINGS = {
  Columns: [
    { ColumnName: 'ClassA', LabelText: 'Color', ChoicesText: '1,Red\n2,Blue' },
    {
      ColumnName: 'ClassB',
      LabelText: 'Tags',
      ChoicesText: 'a,Alpha\nb,Beta\nc,Gamma',
      MultipleSelections: true,
    },
    { ColumnName: 'NumA', LabelText: 'Amount', DecimalPlaces: 2 },
    { ColumnName: 'DateA', LabelText: 'Due', EditorFormat: 'Ymdhm' },
    { ColumnName: 'CheckA', LabelText: 'Done' },
    { ColumnName: 'DescriptionA', LabelText: 'Notes' },
  ],
};
const columns = columnsOf('Issues', SETTINGS.Columns, 'ja').byName;
const textOf = (name: string, key: string) =>
  staticChoices(columns.get(name)?.choices ?? { entries: [], problems: [] }).find((c) => c.value === key)
    ?.text ?? key;

const HEADER = [
  'ID',
  'タイトル',
  '状況',
  '管理者',
  'Color',
  'Tags',
  'Amount',
  'Due',
  'Done',
  'Notes',
  '開始',
  '完了',
  '内容',
  'コメント',
];

/** One record as the export writes it (Text), in the order of HEADER. */
function exported(record: ImportedRecord): string[] {
  const date = (local: string | undefined, format: 'Ymd' | 'Ymdahms') =>
    local === undefined ? '' : formatDate(local, format, 'ja');
  const tags = JSON.parse(record.ClassHash?.ClassB || '[]') as string[];
  const comments = JSON.parse(record.Comments ?? '[]') as {
    Body: string;
    Creator: number;
    CreatedTime: string;
  }[];
  return [
    String(record.IssueId),
    record.Title,
    textOf('Status', String(record.Status)),
    record.Manager === manager.userId ? manager.loginId : String(record.Manager ?? ''),
    record.ClassHash?.ClassA ? textOf('ClassA', record.ClassHash.ClassA) : '',
    JSON.stringify(tags.map((tag) => textOf('ClassB', tag))),
    String(record.NumHash?.NumA ?? 0),
    date(record.DateHash?.DateA, 'Ymdahms'),
    record.CheckHash?.CheckA ? '1' : '',
    record.DescriptionHash?.DescriptionA ?? '',
    date(record.StartTime, 'Ymd'),
    date(record.CompletionTime, 'Ymd'),
    record.Body ?? '',
    comments.length > 0
      ? JSON.stringify(
          comments.reverse().map(({ Body, Creator, CreatedTime }) => ({ Body, Creator, CreatedTime })),
        )
      : '',
  ];
}

/** What must survive the trip: everything but ids, versions and the times of the writes themselves. */
function content(record: ImportedRecord) {
  const comments = JSON.parse(record.Comments ?? '[]') as {
    Body: string;
    Creator: number;
    CreatedTime: string;
  }[];
  return {
    Title: record.Title,
    Status: record.Status,
    Manager: record.Manager,
    ClassHash: record.ClassHash,
    NumHash: record.NumHash,
    DateHash: record.DateHash,
    CheckHash: record.CheckHash,
    DescriptionHash: record.DescriptionHash,
    StartTime: record.StartTime,
    CompletionTime: record.CompletionTime,
    Body: record.Body,
    Comments: comments.map(({ Body, Creator, CreatedTime }) => ({ Body, Creator, CreatedTime })),
  };
}

beforeAll(async () => {
  stack = await startStack();
  const accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  manager = await createUser(stack.url, admin, `manager-${Date.now()}`);
});
afterAll(() => stack.close());

describe('export → import into a copy of the site', () => {
  it('gives equal records', async () => {
    const source = await createSite(stack.url, admin, 0, {
      Title: 'Source',
      ReferenceType: 'Issues',
      SiteSettings: SETTINGS,
    });
    await createRecord(stack.url, admin, source, {
      Title: 'Full "quoted", record',
      Status: 200,
      Manager: manager.userId,
      ClassHash: { ClassA: '2', ClassB: '["a","c"]' },
      NumHash: { NumA: 1234.5 },
      DateHash: { DateA: '2026-01-20T10:30:00' },
      CheckHash: { CheckA: true },
      DescriptionHash: { DescriptionA: 'line 1\nline "2", with comma' },
      StartTime: '2026-01-05T00:00:00',
      CompletionTime: '2026-01-31T00:00:00',
      Body: 'The body\r\nof it',
      Comments: 'a comment',
    });
    await createRecord(stack.url, admin, source, {
      Title: 'Sparse',
      Status: 910,
      ClassHash: { ClassA: 'not a choice' },
      NumHash: { NumA: -0.25 },
    });
    const records = await recordsOf(stack.url, admin, source);
    const csv = csvOf([HEADER, ...records.map(exported)]);
    const copy = await createSite(stack.url, admin, 0, {
      Title: 'Copy',
      ReferenceType: 'Issues',
      SiteSettings: SETTINGS,
    });
    const result = await importCsv(stack.url, copy, csv, { ApiKey: admin });
    expect(result.body).toEqual({
      Id: copy,
      StatusCode: 200,
      Message: 'Copy: 2 entries have been added and 0 entries updated.',
    });
    const copied = await recordsOf(stack.url, admin, copy);
    expect(copied.map(content)).toEqual(records.map(content));
    // The same file imported again into the source, keyed by ID, changes nothing.
    const again = await importCsv(stack.url, source, csv, { ApiKey: admin, UpdatableImport: true });
    expect(again.body.Message).toBe('Source: 0 entries have been added and 0 entries updated.');
  });
});
