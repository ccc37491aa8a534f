import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * What existing callers send (CONTRACT 1, 5.1; reference/pleasanter-items-api.md 1): ApiVersion as a
 * string, numbers as strings, 1/0 as booleans, the reference's date forms, nulls where it takes them;
 * ApiVersion below 1.1 with flat fields; PageSize clamped rather than refused.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let site: number;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const first = async (id: number, body: object = {}) =>
  (
    (await post(`/api/items/${id}/get`, { ApiKey: admin, ...body })).body.Response as {
      Data: Record<string, unknown>[];
    }
  ).Data[0];

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  site = await createSite(stack.url, admin, 0, { Title: 'Lenient', ReferenceType: 'Issues' });
});
afterAll(() => stack.close());
afterEach(() => useSettings(undefined));

describe('lenient JSON', () => {
  it('takes ApiVersion "1.1", numeric strings, 1/0 booleans and the reference date forms', async () => {
    const created = await post(`/api/items/${site}/create`, {
      ApiKey: admin,
      ApiVersion: '1.1',
      Title: 'T',
      Status: '910',
      Manager: '1',
      Locked: 0,
      WorkValue: '1,000',
      ProgressRate: '25',
      CompletionTime: '2025/1/20',
      NumHash: { NumA: '1,234.5', NumB: 7 },
      CheckHash: { CheckA: 1, CheckB: 0, CheckC: 'True' },
      DateHash: { DateA: '2025/01/20 10:00' },
    });
    expect(created.body.StatusCode).toBe(200);
    expect(
      await first(Number(created.body.Id), { ApiVersion: '1.1', Offset: '0', PageSize: '10' }),
    ).toMatchObject({
      Status: 910,
      Manager: 1,
      Locked: false,
      WorkValue: 1000,
      ProgressRate: 25,
      RemainingWorkValue: 750,
      CompletionTime: '2025-01-20T00:00:00',
      // NumA's DecimalPlaces is 0: stored rounded away from zero, as the reference stores it.
      NumHash: { NumA: 1235, NumB: 7 },
      CheckHash: { CheckA: true, CheckB: false, CheckC: true },
      DateHash: { DateA: '2025-01-20T10:00:00' },
      ApiVersion: 1.1,
    });
  });

  it.each([
    ['ApiVersion as words', { ApiVersion: 'one' }],
    ['a decimal Status', { Status: '910.0' }],
    ['"1" for a boolean', { Locked: '1' }],
    ['null for a Check', { CheckHash: { CheckA: null } }],
    ['null for a Date', { DateHash: { DateA: null } }],
    ['a date that does not parse', { DateHash: { DateA: '20/01/2025' } }],
  ])('refuses %s', async (_case, body) => {
    const result = await post(`/api/items/${site}/create`, { ApiKey: admin, Title: 'T', ...body });
    expect(result.body.StatusCode).toBe(400);
  });

  it('takes null for text and numbers: the column is emptied', async () => {
    const created = await post(`/api/items/${site}/create`, {
      ApiKey: admin,
      Title: 'N',
      ClassHash: { ClassA: 'a', ClassB: 'b' },
      NumHash: { NumA: 1 },
    });
    const id = Number(created.body.Id);
    await post(`/api/items/${id}/update`, {
      ApiKey: admin,
      ClassHash: { ClassA: null },
      NumHash: { NumA: null },
    });
    const record = await first(id);
    expect(record?.ClassHash).toEqual({ ClassB: 'b' });
    expect(record?.NumHash).toBeUndefined();
  });

  it('answers ApiVersion 1.0 with flat fields and attachments as JSON text', async () => {
    const created = await post(`/api/items/${site}/create`, {
      ApiKey: admin,
      ApiVersion: 1.0,
      Title: 'Flat',
      ClassA: 'x',
      NumB: 2,
    });
    const record = await first(Number(created.body.Id), { ApiVersion: 1.0 });
    expect(record).toMatchObject({ Title: 'Flat', ClassA: 'x', NumB: 2, ApiVersion: 1 });
    expect(record).not.toHaveProperty('ClassHash');
    expect(record).not.toHaveProperty('NumHash');
  });

  it.each([
    [0, 200],
    [-5, 200],
    [1, 1],
    [199, 199],
    [200, 200],
    [500, 200],
    ['50', 50],
  ])('reads PageSize %s as %s', async (pageSize, effective) => {
    const result = await post(`/api/items/${site}/get`, { ApiKey: admin, PageSize: pageSize });
    expect(result.body.Response).toMatchObject({ PageSize: effective });
  });
});

describe('dates across time zones (Service.TimeZoneDefault)', () => {
  const inZone = (zone: string) => useSettings(loadSettings({ KIROKU_PARAM_Service_TimeZoneDefault: zone }));

  it('stores an instant: Tokyo and New York callers see the same moment in their own wall time', async () => {
    inZone('Asia/Tokyo');
    const created = await post(`/api/items/${site}/create`, {
      ApiKey: admin,
      Title: 'Zoned',
      DateHash: { DateA: '2025-03-01 09:00' },
      StartTime: '2025-03-01T00:00:00Z',
    });
    const id = Number(created.body.Id);
    expect(await first(id)).toMatchObject({
      DateHash: { DateA: '2025-03-01T09:00:00' },
      StartTime: '2025-03-01T09:00:00',
    });
    inZone('America/New_York');
    expect(await first(id)).toMatchObject({
      DateHash: { DateA: '2025-02-28T19:00:00' },
      StartTime: '2025-02-28T19:00:00',
    });
    // A filter bound without offset is a wall time of the caller's zone too.
    const found = await post(`/api/items/${site}/get`, {
      ApiKey: admin,
      View: { ColumnFilterHash: { DateA: '["2025/02/28 19:00,2025/02/28 19:00"]' } },
    });
    expect((found.body.Response as { Data: { Title: string }[] }).Data.map((r) => r.Title)).toEqual([
      'Zoned',
    ]);
  });

  it('refuses a zone it does not know at start-up, naming the setting', () => {
    expect(() => loadSettings({ KIROKU_PARAM_Service_TimeZoneDefault: 'Mars/Olympus' })).toThrow(
      /Service.TimeZoneDefault/,
    );
  });
});

describe('every record field', () => {
  it('round-trips Manager, Owner, the Issues fields and Comments (one added per write, newest first)', async () => {
    const created = await post(`/api/items/${site}/create`, {
      ApiKey: admin,
      Title: 'All',
      Status: 150,
      Manager: accounts.user.userId,
      Owner: accounts.admin.userId,
      StartTime: '2025-04-01 09:00',
      CompletionTime: '2025-04-30',
      WorkValue: 8,
      ProgressRate: 50,
      Comments: 'first',
      VerUp: true,
    });
    const id = Number(created.body.Id);
    await post(`/api/items/${id}/update`, { ApiKey: admin, Comments: 'second', ProgressRate: 75 });
    await post(`/api/items/${id}/update`, { ApiKey: admin, Comments: '   ' });
    const record = await first(id);
    expect(record).toMatchObject({
      Title: 'All',
      Status: 150,
      Manager: accounts.user.userId,
      Owner: accounts.admin.userId,
      StartTime: '2025-04-01T09:00:00',
      CompletionTime: '2025-04-30T00:00:00',
      WorkValue: 8,
      ProgressRate: 75,
      RemainingWorkValue: 2,
      // VerUp on a create makes no version; two updates by the creator the same day make none either.
      Ver: 1,
    });
    const comments = JSON.parse(String(record?.Comments)) as {
      CommentId: number;
      Body: string;
      Creator: number;
    }[];
    expect(comments.map((c) => [c.CommentId, c.Body, c.Creator])).toEqual([
      [2, 'second', accounts.admin.userId],
      [1, 'first', accounts.admin.userId],
    ]);
  });

  it.each(['MigrationMode'])('refuses %s (a feature Kiroku lacks), naming it', async (field) => {
    const result = await post(`/api/items/${site}/create`, { ApiKey: admin, Title: 'X', [field]: 1 });
    expect(result.body).toMatchObject({ StatusCode: 400, Message: expect.stringContaining(field) });
  });

  it('refuses the Issues fields on a Results site, naming them', async () => {
    const results = await createSite(stack.url, admin, 0, { ReferenceType: 'Results' });
    const result = await post(`/api/items/${results}/create`, { ApiKey: admin, Title: 'X', WorkValue: 1 });
    expect(result.body).toMatchObject({ StatusCode: 400, Message: expect.stringContaining('WorkValue') });
  });
});

describe('inline attachments', () => {
  it('stores {Name, Base64} as a new file, keeps omitted ones, and removes {Guid, Deleted: 1}', async () => {
    const created = await post(`/api/items/${site}/create`, {
      ApiKey: admin,
      Title: 'Files',
      AttachmentsHash: {
        AttachmentsA: [
          { Name: 'a.txt', Base64: Buffer.from('hello').toString('base64') },
          { Name: 'b.csv', Base64: Buffer.from('x,y').toString('base64'), ContentType: 'text/csv' },
        ],
      },
    });
    expect(created.body.StatusCode).toBe(200);
    const id = Number(created.body.Id);
    type Entry = { Guid: string; Name: string; Size: number };
    const files = async () =>
      ((await first(id))?.AttachmentsHash as { AttachmentsA: Entry[] } | undefined)?.AttachmentsA ?? [];
    const [a, b] = await files();
    expect([a?.Name, a?.Size, b?.Name, b?.Size]).toEqual(['a.txt', 5, 'b.csv', 3]);
    expect(a?.Guid).toMatch(/^[0-9A-F]{32}$/);
    const content = await post(`/api/binaries/${a?.Guid}/get`, { ApiKey: admin });
    expect(JSON.stringify(content.body)).toContain(Buffer.from('hello').toString('base64'));
    await post(`/api/items/${id}/update`, {
      ApiKey: admin,
      AttachmentsHash: { AttachmentsA: [{ Guid: a?.Guid, Deleted: 1 }, b] },
    });
    expect((await files()).map((entry) => entry.Name)).toEqual(['b.csv']);
  });

  it.each([
    ['bad base64', { Name: 'x.txt', Base64: '***' }, 400],
    ['no Name', { Base64: 'aGVsbG8=' }, 400],
  ])('refuses %s', async (_case, entry, status) => {
    const result = await post(`/api/items/${site}/create`, {
      ApiKey: admin,
      Title: 'Bad file',
      AttachmentsHash: { AttachmentsA: [entry] },
    });
    expect(result.body.StatusCode).toBe(status);
  });

  it('refuses a file over BinaryStorage.MaxSize with 442', async () => {
    useSettings(loadSettings({ ...process.env, KIROKU_PARAM_BinaryStorage_MaxSize: '0.000001' }));
    const result = await post(`/api/items/${site}/create`, {
      ApiKey: admin,
      Title: 'Big file',
      AttachmentsHash: {
        AttachmentsA: [{ Name: 'big.txt', Base64: Buffer.from('0123456789').toString('base64') }],
      },
    });
    expect(result.body.StatusCode).toBe(442);
  });
});
