import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { csvOf, importCsv, recordsOf } from '../fixtures/imports';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * `POST /api/items/{siteId}/import` as the manual's Python calls it (CONTRACT 12): a multipart form of
 * `parameters` and `file`; headers are labels in the caller's language (ja by default), values display
 * values; an invalid row is a 400 naming its row and column with nothing written.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let reader: TestUser;
let importer: TestUser;

const COLUMNS = [
  { ColumnName: 'ClassA', LabelText: 'Category', ChoicesText: '1,Red\n2,Blue' },
  { ColumnName: 'ClassB', LabelText: 'Code' },
  { ColumnName: 'ClassC', LabelText: 'Tags', ChoicesText: 'a,Alpha\nb,Beta', MultipleSelections: true },
  { ColumnName: 'ClassD', LabelText: 'Person', ChoicesText: '[[Users*]]' },
  { ColumnName: 'ClassE', LabelText: 'Short', MaxLength: 5 },
  {
    ColumnName: 'ClassF',
    LabelText: 'Zip',
    ServerRegexValidation: '^\\d{3}-\\d{4}$',
    RegexValidationMessage: 'Not a zip code.',
  },
  { ColumnName: 'NumA', LabelText: 'Amount', DecimalPlaces: 2 },
  { ColumnName: 'NumB', LabelText: 'Maybe', Nullable: true },
  { ColumnName: 'DateA', LabelText: 'Due', EditorFormat: 'Ymdhm' },
  { ColumnName: 'CheckA', LabelText: 'Done' },
  { ColumnName: 'DescriptionA', LabelText: 'Notes' },
];

async function table(title: string, referenceType = 'Results', permissions?: string[]): Promise<number> {
  return createSite(stack.url, admin, 0, {
    Title: title,
    ReferenceType: referenceType,
    SiteSettings: { Columns: COLUMNS },
    ...(permissions && { Permissions: permissions }),
  });
}

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  reader = await createUser(stack.url, admin, `reader-${Date.now()}`);
  importer = await createUser(stack.url, admin, `importer-${Date.now()}`);
});
afterAll(() => stack.close());

describe('POST /api/items/{siteId}/import', () => {
  it('creates a record per row, each cell read as its column kind', async () => {
    const site = await table('Kinds');
    const csv = csvOf([
      [
        'ID',
        'タイトル',
        '状況',
        'Category',
        'Tags',
        'Person',
        'Amount',
        'Maybe',
        'Due',
        'Done',
        'Notes',
        '管理者',
        'Unknown',
        '添付ファイル',
      ],
      [
        '999',
        'First',
        '保留',
        'Blue',
        '["Alpha","b"]',
        importer.loginId,
        '¥1,234.567',
        '',
        '2026/01/20 火 10:30',
        'on',
        'line 1\nline "2"',
        importer.loginId,
        'x',
        'y',
      ],
      [
        '',
        'Second',
        '200',
        'green',
        '[]',
        String(reader.userId),
        '-7',
        '3.5',
        '2026-02-01',
        '0',
        '',
        '',
        '',
        '',
      ],
    ]);
    const result = await importCsv(stack.url, site, csv, { ApiKey: admin });
    expect(result.body).toEqual({
      Id: site,
      StatusCode: 200,
      Message: 'Kinds: 2 entries have been added and 0 entries updated.',
    });
    const [first, second] = await recordsOf(stack.url, admin, site);
    expect(first).toMatchObject({
      Title: 'First',
      Status: 910,
      Manager: importer.userId,
      ClassHash: { ClassA: '2', ClassC: '["a","b"]', ClassD: String(importer.userId) },
      NumHash: { NumA: 1234.57 },
      DateHash: { DateA: '2026-01-20T10:30:00' },
      CheckHash: { CheckA: true },
      DescriptionHash: { DescriptionA: 'line 1\nline "2"' },
    });
    expect(first?.ResultId).not.toBe(999);
    expect(second).toMatchObject({
      Title: 'Second',
      Status: 200,
      ClassHash: { ClassA: 'green', ClassD: String(reader.userId) },
      // NumB shows 0 decimal places: 3.5 is stored rounded away from zero.
      NumHash: { NumA: -7, NumB: 4 },
      DateHash: { DateA: '2026-02-01T00:00:00' },
    });
    // An empty multi-select and a false Check leave their columns without a value, as never set.
    expect(second?.ClassHash?.ClassC).toBeUndefined();
    expect(second?.CheckHash?.CheckA).toBeUndefined();
  });

  it.each([
    ['a Num that is no number', 'Amount', '12a', 'Row 2, Amount: "12a" is not a number'],
    ['a date that is no date', 'Due', '2026/02/30', 'Row 2, Due: "2026/02/30" is not a date'],
    ['a Check that is no check', 'Done', 'maybe', 'Row 2, Done: "maybe" is not a check value'],
    [
      'a multi-select that is no JSON array',
      'Tags',
      'Alpha',
      'Row 2, Tags: "Alpha" is not a JSON array of choices',
    ],
    ['an unknown Status', '状況', 'Someday', 'Row 2, 状況: "Someday" is no status of the site'],
    [
      'a Manager who is no user',
      '管理者',
      'Nobody At All',
      'Row 2, 管理者: "Nobody At All" is no user of the tenant',
    ],
    ['a MaxLength overrun', 'Short', '123456', 'Row 2, Short: Please enter within 5 characters.'],
    ['a ServerRegexValidation failure', 'Zip', '12-34', 'Row 2, Zip: Not a zip code.'],
  ])('refuses %s with 400 naming row and column, and writes nothing', async (_, header, cell, message) => {
    const site = await table(`Invalid ${header}`);
    const csv = csvOf([
      ['タイトル', header],
      ['fine', ''],
      ['bad', cell],
    ]);
    const result = await importCsv(stack.url, site, csv, { ApiKey: admin });
    expect(result.status).toBe(400);
    expect(result.body.StatusCode).toBe(400);
    expect(String(result.body.Message)).toContain(message);
    expect(await recordsOf(stack.url, admin, site)).toEqual([]);
  });

  it('reads Shift-JIS and UTF-8 with or without BOM alike', async () => {
    const site = await table('Encodings');
    const csv = csvOf([
      ['タイトル', 'Notes'],
      ['髙橋①', '日本語'],
    ]);
    for (const encoding of ['utf-8', 'utf-8-bom', 'shift-jis'] as const) {
      const result = await importCsv(
        stack.url,
        site,
        csv,
        { ApiKey: admin, Encoding: encoding === 'shift-jis' ? 'Shift-JIS' : 'UTF-8' },
        { encoding },
      );
      expect(result.body.StatusCode).toBe(200);
    }
    const titles = (await recordsOf(stack.url, admin, site)).map((r) => [
      r.Title,
      r.DescriptionHash?.DescriptionA,
    ]);
    expect(titles).toEqual([
      ['髙橋①', '日本語'],
      ['髙橋①', '日本語'],
      ['髙橋①', '日本語'],
    ]);
  });

  it('Key and UpdatableImport: one match updates, none creates, unchanged rows are not counted', async () => {
    const site = await table('Keyed');
    const a = await createRecord(stack.url, admin, site, {
      Title: 'A',
      ClassHash: { ClassB: 'K1' },
      NumHash: { NumA: 1 },
    });
    await createRecord(stack.url, admin, site, {
      Title: 'B',
      ClassHash: { ClassB: 'K2' },
      NumHash: { NumA: 2 },
    });
    const csv = csvOf([
      ['Code', 'タイトル', 'Amount'],
      ['K1', 'A changed', '10'],
      ['K2', 'B', '2'],
      ['K3', 'C', '3'],
    ]);
    const result = await importCsv(stack.url, site, csv, {
      ApiKey: admin,
      UpdatableImport: true,
      Key: 'ClassB',
    });
    expect(result.body.Message).toBe('Keyed: 1 entries have been added and 1 entries updated.');
    const records = await recordsOf(stack.url, admin, site);
    expect(records.map((r) => [r.Title, r.ClassHash?.ClassB, r.NumHash?.NumA])).toEqual([
      ['A changed', 'K1', 10],
      ['B', 'K2', 2],
      ['C', 'K3', 3],
    ]);
    expect(records[0]?.ResultId).toBe(a);
    expect(records[1]?.Ver).toBe(1);
  });

  it('the ID column as the default Key updates by id', async () => {
    const site = await table('By id');
    const a = await createRecord(stack.url, admin, site, { Title: 'A' });
    const csv = csvOf([
      ['ID', 'タイトル'],
      [String(a), 'A by id'],
      ['', 'New'],
    ]);
    const result = await importCsv(stack.url, site, csv, { ApiKey: admin, UpdatableImport: true });
    expect(result.body.Message).toBe('By id: 1 entries have been added and 1 entries updated.');
    expect((await recordsOf(stack.url, admin, site)).map((r) => r.Title)).toEqual(['A by id', 'New']);
  });

  it.each([
    [
      'a Key that several records hold',
      async (site: number) => {
        await createRecord(stack.url, admin, site, { Title: 'x', ClassHash: { ClassB: 'dup' } });
        await createRecord(stack.url, admin, site, { Title: 'y', ClassHash: { ClassB: 'dup' } });
        return csvOf([
          ['Code', 'タイトル'],
          ['new', 'fine'],
          ['dup', 'z'],
        ]);
      },
      'Row 2, Code: There are multiple records that match the conditions. CSV file 2 record, column name: Code, value: dup',
    ],
    [
      'a Key value two rows give',
      async () =>
        csvOf([
          ['Code', 'タイトル'],
          ['k', 'one'],
          ['k', 'two'],
        ]),
      'Row 2, Code: the value k is the key of row 1 too',
    ],
    [
      'no header for the Key column',
      async () => csvOf([['タイトル'], ['one']]),
      'It does not contain key column.',
    ],
  ])('refuses %s with 400, writing nothing', async (_, prepare, message) => {
    const site = await table(`Keys ${message.slice(0, 10)}`);
    const csv = await prepare(site);
    const before = await recordsOf(stack.url, admin, site);
    const result = await importCsv(stack.url, site, csv, {
      ApiKey: admin,
      UpdatableImport: true,
      Key: 'ClassB',
    });
    expect(result.body).toMatchObject({ StatusCode: 400, Message: message });
    expect(await recordsOf(stack.url, admin, site)).toEqual(before);
  });

  it('replaces the comments with those of the cell, a JSON array split into comments', async () => {
    const site = await table('Comments');
    const id = await createRecord(stack.url, admin, site, { Title: 'c', Comments: 'old one' });
    const cell = JSON.stringify([
      { Body: 'first', Creator: accounts.admin.userId, CreatedTime: '2026-01-02T03:04:05' },
      { Body: 'second' },
    ]);
    const csv = csvOf([
      ['ID', 'コメント'],
      [String(id), cell],
    ]);
    const result = await importCsv(stack.url, site, csv, { ApiKey: admin, UpdatableImport: true });
    expect(result.body.StatusCode).toBe(200);
    const [record] = await recordsOf(stack.url, admin, site);
    const comments = JSON.parse(String(record?.Comments)) as { Body: string; CreatedTime: string }[];
    expect(comments.map((c) => c.Body)).toEqual(['second', 'first']);
    expect(comments[1]?.CreatedTime).toBe('2026-01-02T03:04:05');
  });
});

describe('import permissions and refusals', () => {
  let site: number;
  beforeAll(async () => {
    site = await table('Guarded', 'Results', [`User,${reader.userId},1`, `User,${importer.userId},67`]);
  });

  it.each([
    ['no ApiKey', 401, () => ({})],
    ['a wrong ApiKey', 401, () => ({ ApiKey: 'f'.repeat(128) })],
    ['a reader without Import', 403, () => ({ ApiKey: reader.apiKey })],
    ["another tenant's caller", 404, () => ({ ApiKey: accounts.other.apiKey })],
    ['a user who cannot read the site', 404, () => ({ ApiKey: accounts.user.apiKey })],
    ['MigrationMode', 400, () => ({ ApiKey: admin, MigrationMode: true })],
  ])('%s → %i, nothing written', async (_, status, parameters) => {
    const result = await importCsv(stack.url, site, csvOf([['タイトル'], ['x']]), parameters());
    expect(result.status).toBe(status);
    expect(result.body.StatusCode).toBe(status);
    expect(await recordsOf(stack.url, admin, site)).toEqual([]);
  });

  it('Import with Create writes as the importer', async () => {
    const result = await importCsv(stack.url, site, csvOf([['タイトル'], ['by importer']]), {
      ApiKey: importer.apiKey,
    });
    expect(result.body.StatusCode).toBe(200);
    expect((await recordsOf(stack.url, admin, site)).map((r) => r.Title)).toEqual(['by importer']);
  });

  it.each([
    ['a folder', 'Sites', 400],
    ['a wiki', 'Wikis', 400],
  ])('refuses %s (Issues and Results only)', async (_, referenceType, status) => {
    const other = await createSite(stack.url, admin, 0, {
      Title: 'Not a table',
      ReferenceType: referenceType,
    });
    const result = await importCsv(stack.url, other, csvOf([['タイトル'], ['x']]), { ApiKey: admin });
    expect(result.body.StatusCode).toBe(status);
  });

  it.each([
    ['an empty file', ''],
    ['a header only', csvOf([['タイトル']])],
  ])('answers 400 "Please select a file." for %s', async (_, csv) => {
    const result = await importCsv(stack.url, site, csv, { ApiKey: admin });
    expect(result.body).toMatchObject({ StatusCode: 400, Message: 'Please select a file.' });
  });

  it('refuses a body that is not multipart with 400', async () => {
    const result = await call(stack.url, `/api/items/${site}/import`, { ApiKey: admin });
    expect(result.status).toBe(400);
  });
});
