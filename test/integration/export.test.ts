import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * `POST /api/items/{siteId}/export` through the stack: the definitions (inline, saved, standard), the
 * View's filters and sorts, CSV's options and Json, the permissions, and every refusal's message.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let site: number;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const exported = async (siteId: number, body: object) => {
  const result = await post(`/api/items/${siteId}/export`, { ApiKey: admin, ...body });
  const response = result.body.Response as { Name: string; Content: string } | undefined;
  return { status: result.status, body: result.body, name: response?.Name, content: response?.Content };
};

const columns = [
  { ColumnName: 'ResultId' },
  { ColumnName: 'Title' },
  { ColumnName: 'ClassA' },
  { ColumnName: 'ClassA', Type: 'Value', LabelText: 'Code' },
  { ColumnName: 'NumA' },
  { ColumnName: 'DateA', Format: 'Ymdhm' },
  { ColumnName: 'CheckA' },
  { ColumnName: 'Status' },
];

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  site = await createSite(stack.url, admin, 0, {
    Title: 'Orders',
    ReferenceType: 'Results',
    Permissions: [`User,${accounts.user.userId},1`],
    SiteSettings: {
      Columns: [
        { ColumnName: 'ClassA', LabelText: 'Product', ChoicesText: 'P1,Apple\nP2,Banana' },
        { ColumnName: 'NumA', LabelText: 'Amount', DecimalPlaces: 1, Unit: 'kg' },
        { ColumnName: 'DescriptionA', LabelText: 'Note' },
      ],
      Exports: [
        { Id: 3, Name: 'Saved', Type: 0, Columns: [{ ColumnName: 'Title' }, { ColumnName: 'NumA' }] },
      ],
    },
  });
  const rows = [
    { Title: 'first', ClassHash: { ClassA: 'P1' }, NumHash: { NumA: 1234.56 }, Status: 100 },
    { Title: 'second', ClassHash: { ClassA: 'P2' }, NumHash: { NumA: 2 }, Status: 200 },
    {
      Title: 'third',
      ClassHash: { ClassA: 'P1' },
      DateHash: { DateA: '2026-03-04T05:06:00' },
      CheckHash: { CheckA: true },
      DescriptionHash: { DescriptionA: 'say "hi"\nbye' },
      Status: 900,
    },
  ];
  for (const row of rows) await createRecord(stack.url, admin, site, row);
});
afterAll(() => stack.close());

describe('items/{siteId}/export', () => {
  it('writes the inline Export as CSV, newest first, every row ending with \\n', async () => {
    const result = await exported(site, { Export: { Name: 'Mine', Columns: columns } });
    expect(result.status).toBe(200);
    expect(result.name).toMatch(/^Orders_Mine_\d{4}_\d{2}_\d{2} \d{2}_\d{2}_\d{2}\.Csv$/);
    const lines = (result.content ?? '').split('\n');
    expect(lines[0]).toBe('"ID","タイトル","Product","Code","Amount","日付A","チェックA","状況"');
    expect(lines[1]).toMatch(/^"\d+","third","Apple","P1","0","2026\/03\/04 05:06","1","完了"$/);
    expect(lines[2]).toMatch(/^"\d+","second","Banana","P2","2","","","実施中"$/);
    expect(lines[3]).toMatch(/^"\d+","first","Apple","P1","1234.6","","","未着手"$/);
    expect(lines[4]).toBe('');
    expect(lines).toHaveLength(5);
  });

  it.each<[string, object, string[]]>([
    ['a ColumnFilterHash', { ColumnFilterHash: { ClassA: '["P1"]' } }, ['third', 'first']],
    ['a Status filter', { ColumnFilterHash: { Status: '[200,900]' } }, ['third', 'second']],
    ['a sort', { ColumnSorterHash: { NumA: 'asc' } }, ['third', 'second', 'first']],
    ['a sort by title, descending', { ColumnSorterHash: { Title: 'desc' } }, ['third', 'second', 'first']],
    [
      'a filter and a sort',
      { ColumnFilterHash: { ClassA: '["P1"]' }, ColumnSorterHash: { Title: 'asc' } },
      ['first', 'third'],
    ],
  ])('selects and orders by the View as items/get does: %s', async (_, view, titles) => {
    const result = await exported(site, {
      View: view,
      Export: { Header: false, Columns: [{ ColumnName: 'Title' }] },
    });
    expect(result.content).toBe(titles.map((title) => `"${title}"\n`).join(''));
  });

  it('writes Tab-separated raw cells with EncloseDoubleQuotes false', async () => {
    const result = await exported(site, {
      View: { ColumnFilterHash: { Title: 'third' } },
      Export: {
        DelimiterType: 'tab',
        EncloseDoubleQuotes: false,
        Columns: [{ ColumnName: 'Title' }, { ColumnName: 'DescriptionA' }, { ColumnName: 'ClassA', Type: 1 }],
      },
    });
    expect(result.content).toBe(
      'タイトル\tNote\t分類A\nthird\tsay "hi"\nbye\tP1\n'.replace('分類A', 'Product'),
    );
  });

  it('doubles quotes inside quoted cells, and keeps a header label as given', async () => {
    const result = await exported(site, {
      View: { ColumnFilterHash: { Title: 'third' } },
      Export: { Columns: [{ ColumnName: 'DescriptionA', LabelText: 'A "note"' }] },
    });
    expect(result.content).toBe('"A "note""\n"say ""hi""\nbye"\n');
  });

  it('writes Json with a Header and a Body', async () => {
    const result = await exported(site, {
      View: { ColumnSorterHash: { Title: 'asc' } },
      Export: { Type: 'JSON', Name: 'J', Columns: [{ ColumnName: 'Title' }, { ColumnName: 'ClassA' }] },
    });
    expect(result.name).toMatch(/\.Json$/);
    const json = JSON.parse(result.content ?? '');
    expect(json.Header).toEqual([
      { SiteId: site, SiteTitle: 'Orders', Columns: { Title: 'タイトル', ClassA: 'Product' } },
    ]);
    expect(json.Body).toEqual([
      { Title: 'first', ClassA: 'Apple' },
      { Title: 'second', ClassA: 'Banana' },
      { Title: 'third', ClassA: 'Apple' },
    ]);
    expect(result.content).toContain('\n  "Body": [\n    {\n      "Title": "first"');
  });

  it('uses the saved export of ExportId, else the standard export', async () => {
    const saved = await exported(site, { ExportId: 3, View: { ColumnFilterHash: { Title: 'first' } } });
    expect(saved.name).toMatch(/^Orders_Saved_/);
    expect(saved.content).toBe('"タイトル","Amount"\n"first","1234.6"\n');
    const standard = await exported(site, { ExportId: 99, View: { ColumnFilterHash: { Title: 'first' } } });
    const [header] = (standard.content ?? '').split('\n');
    expect(header).toBe(
      '"ID","タイトル","内容","状況","管理者","担当者","コメント","更新者","更新日時","作成者"',
    );
    expect(standard.name).toMatch(/^Orders_\d{4}_/);
  });

  it.each<[string, () => Promise<number>, object, number, string]>([
    ['an inline Export without Columns', async () => site, { Export: { Name: 'x' } }, 400, 'Export.Columns'],
    [
      'an unknown column',
      async () => site,
      { Export: { Columns: [{ ColumnName: 'ClassZZ' }] } },
      400,
      'ClassZZ',
    ],
    ['an unknown Type', async () => site, { Export: { Type: 'xml', Columns: [] } }, 400, 'Export.Type'],
    [
      'an unknown DelimiterType',
      async () => site,
      { Export: { DelimiterType: ';', Columns: [] } },
      400,
      'Export.DelimiterType',
    ],
    [
      'an unknown column Type',
      async () => site,
      { Export: { Columns: [{ ColumnName: 'Title', Type: 'Raw' }] } },
      400,
      'Type',
    ],
    [
      'an unknown date Format',
      async () => site,
      { Export: { Columns: [{ ColumnName: 'DateA', Format: 'Ym' }] } },
      400,
      'Format',
    ],
    [
      'a filter that cannot be applied',
      async () => site,
      { View: { ColumnFilterHash: { NumA: 'abc' } } },
      400,
      'NumA',
    ],
    ['a View property it does not know', async () => site, { View: { Nonsense: 1 } }, 400, 'Nonsense'],
    [
      'a Wikis site',
      () => createSite(stack.url, admin, 0, { Title: 'Wiki', ReferenceType: 'Wikis' }),
      {},
      400,
      'Invalid request.',
    ],
    ['a folder', () => createSite(stack.url, admin, 0, { Title: 'Folder' }), {}, 400, 'Invalid request.'],
    ['an id that is no site', async () => 987654, {}, 404, 'not found'],
  ])('refuses %s', async (_, siteOf, body, status, named) => {
    const result = await exported(await siteOf(), body);
    expect(result.status).toBe(status);
    expect(result.body.StatusCode).toBe(status);
    expect(JSON.stringify(result.body)).toContain(named);
  });
});

describe('export permissions', () => {
  it('refuses a reader without the Export bit with 403', async () => {
    const result = await post(`/api/items/${site}/export`, { ApiKey: accounts.user.apiKey });
    expect(result.status).toBe(403);
  });

  it('answers 404 to a user who cannot read the site', async () => {
    const hidden = await createSite(stack.url, admin, 0, { Title: 'Hidden', ReferenceType: 'Issues' });
    const result = await post(`/api/items/${hidden}/export`, { ApiKey: accounts.user.apiKey });
    expect(result.status).toBe(404);
  });

  it('answers 404 to another tenant', async () => {
    const result = await post(`/api/items/${site}/export`, { ApiKey: accounts.other.apiKey });
    expect(result.status).toBe(404);
  });

  it('lets a user with Read and Export export', async () => {
    const shared = await createSite(stack.url, admin, 0, {
      Title: 'Shared',
      ReferenceType: 'Issues',
      Permissions: [`User,${accounts.user.userId},33`],
    });
    await createRecord(stack.url, admin, shared, { Title: 'visible' });
    const result = await post(`/api/items/${shared}/export`, {
      ApiKey: accounts.user.apiKey,
      Export: { Header: false, Columns: [{ ColumnName: 'Title' }] },
    });
    expect(result.status).toBe(200);
    expect((result.body.Response as { Content: string }).Content).toBe('"visible"\n');
  });
});

describe('an export larger than one answer', () => {
  it('is refused with 400, naming the background export', async () => {
    const big = await createSite(stack.url, admin, 0, { Title: 'Big', ReferenceType: 'Results' });
    const text = 'x'.repeat(100_000);
    for (let n = 0; n < 61; n++) await createRecord(stack.url, admin, big, { Title: `r${n}`, Body: text });
    const result = await exported(big, { Export: { Columns: [{ ColumnName: 'Body' }] } });
    expect(result.status).toBe(400);
    expect(String(result.body.Message)).toContain(`/api/BackgroundTasks/${big}/Export`);
  }, 120_000);
});
