import { get as httpGet } from 'node:http';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useClock } from '../../lib/clock';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { getBinary } from '../../lib/files/repository';
import { versionItems } from '../../lib/items/history-store';
import { binKeys } from '../../lib/sites/recycle-bin-store';
import { dynamo } from '../../lib/storage/clients';
import { tableName } from '../../lib/storage/tables';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { eventually, searchSite } from '../fixtures/search';
import { type Stack, startStack } from '../fixtures/stack';

/** Issue 28, item 2: the recycle bin (CONTRACT 15), through the local stack with its streams. */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
/** Read, Create, Update, Delete. */
let writer: TestUser;
/** Read, Create, Update: may not delete, so may not restore. */
let updater: TestUser;
/** Read only. */
let reader: TestUser;
/** No permission at all. */
let stranger: TestUser;
let table: number;

type Row = Record<string, unknown> & { ResultId: number; Ver: number };
type Page = { TotalCount: number; Data: Row[] };
type Attachment = { Guid: string; Name: string };

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const restore = (id: number, key = admin) => post(`/api/items/${id}/restore`, { ApiKey: key });
const remove = (id: number, key = admin) => post(`/api/items/${id}/delete`, { ApiKey: key });
const page = async (id: number, body: object = {}, key = admin) => {
  const answer = await post(`/api/items/${id}/get`, { ApiKey: key, ...body });
  expect(answer.body.StatusCode, answer.text).toBe(200);
  return answer.body.Response as Page;
};
/** A record's bin entry as stored, expired or not (lib/sites/recycle-bin-store.ts). */
const rawEntry = async (id: number) =>
  (
    await dynamo().send(
      new GetCommand({
        TableName: tableName('recycleBin'),
        Key: binKeys.record(1, table, id),
        ConsistentRead: true,
      }),
    )
  ).Item;
const removeEntry = (id: number) =>
  dynamo().send(new DeleteCommand({ TableName: tableName('recycleBin'), Key: binKeys.record(1, table, id) }));
const deletedIds = async (id: number, key = admin) =>
  (await page(id, { TableType: 'Deleted' }, key)).Data.map((row) => row.ResultId);
const inline = (name: string, bytes: Buffer) => ({ Name: name, Base64: bytes.toString('base64') });
const DAY = 86_400_000;

/** A file's bytes through the API: the download's redirect, then the presigned URL on its own connection. */
async function download(guid: string, key = admin): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(`${stack.url}/binaries/${guid}/download`, {
    headers: { authorization: `Bearer ${key}` },
    redirect: 'manual',
  });
  if (response.status !== 302) return { status: response.status, bytes: Buffer.alloc(0) };
  const bytes = await new Promise<Buffer>((resolve, reject) => {
    httpGet(response.headers.get('location') ?? '', { agent: false }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve(Buffer.concat(chunks)));
      answer.on('error', reject);
    }).on('error', reject);
  });
  return { status: 302, bytes };
}

/** A record with three attachments and two kept versions; its files' GUIDs and bytes. */
async function recordWithFilesAndHistory(site = table) {
  const files = [1, 2, 3].map((n) => ({
    name: `file-${n}.bin`,
    bytes: Buffer.from(`bytes ${n} `.repeat(n * 50)),
  }));
  const id = await createRecord(stack.url, admin, site, {
    Title: 'kept',
    ClassA: 'v1',
    AttachmentsHash: { AttachmentsA: files.map((file) => inline(file.name, file.bytes)) },
  });
  for (const value of ['v2', 'v3']) {
    const updated = await post(`/api/items/${id}/update`, { ApiKey: admin, ClassA: value, VerUp: true });
    expect(updated.body.StatusCode, updated.text).toBe(200);
  }
  const [row] = (await page(id)).Data;
  const attached = (row?.AttachmentsHash as { AttachmentsA: Attachment[] } | undefined)?.AttachmentsA ?? [];
  const guids = files.map((file) => String(attached.find((each) => each.Name === file.name)?.Guid));
  return { id, files: files.map((file, index) => ({ ...file, guid: guids[index] as string })) };
}

beforeAll(async () => {
  stack = await startStack({ streams: true });
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  writer = await createUser(stack.url, admin, `bin-writer-${Date.now()}`);
  updater = await createUser(stack.url, admin, `bin-updater-${Date.now()}`);
  reader = await createUser(stack.url, admin, `bin-reader-${Date.now()}`);
  stranger = await createUser(stack.url, admin, `bin-stranger-${Date.now()}`);
  table = await createSite(stack.url, admin, 0, {
    Title: 'Bin table',
    ReferenceType: 'Results',
    Permissions: [`User,${writer.userId},15`, `User,${updater.userId},7`, `User,${reader.userId},1`],
    SiteSettings: { Columns: [{ ColumnName: 'ClassB', NoDuplication: true }] },
  });
});
afterEach(() => {
  useClock(undefined);
  useSettings(undefined);
});
afterAll(() => stack.close());

describe('delete, Deleted, restore', () => {
  it('brings a record back with the same id, its values, its files byte-exact and its history', async () => {
    const { id, files } = await recordWithFilesAndHistory();
    const before = (await page(id)).Data[0];
    const deleted = await remove(id);
    expect(deleted.body.StatusCode, deleted.text).toBe(200);
    expect((await post(`/api/items/${id}/get`, { ApiKey: admin })).body.StatusCode).toBe(404);
    // Deleted answers the record by its id and in its site's bin.
    const binned = await page(id, { TableType: 'Deleted' });
    expect(binned.Data).toEqual([before]);
    expect(await deletedIds(table)).toContain(id);
    // The streams have had their time: the files stay while the record is in the bin.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const file of files) expect(await getBinary(1, file.guid)).toBeDefined();
    const restored = await restore(id);
    expect(restored.body).toEqual({ Id: id, StatusCode: 200, Message: '" 1 " items have been restored.' });
    expect((await page(id)).Data).toEqual([before]);
    for (const file of files) {
      const got = await download(file.guid);
      expect(got.status).toBe(302);
      expect(got.bytes.equals(file.bytes)).toBe(true);
    }
    const history = await page(id, { TableType: 'History' });
    expect(history.Data.map((row) => row.Ver)).toEqual([2, 1]);
    expect(await deletedIds(table)).not.toContain(id);
    // Its history lost the TTL the deletion gave it.
    const versions = await versionItems(1, table, id);
    expect(versions.map((item) => item.ExpiresAt)).toEqual([undefined, undefined]);
  });

  it('NormalAndDeleted answers the current and the deleted records of a table', async () => {
    const kept = await createRecord(stack.url, admin, table, { Title: 'current one' });
    const gone = await createRecord(stack.url, admin, table, { Title: 'deleted one' });
    await remove(gone);
    const both = await page(table, { TableType: 'NormalAndDeleted' });
    const ids = both.Data.map((row) => row.ResultId);
    expect(ids).toEqual(expect.arrayContaining([kept, gone]));
    expect((await page(kept, { TableType: 'Deleted' })).TotalCount).toBe(0);
    expect((await page(gone, { TableType: 'NormalAndDeleted' })).TotalCount).toBe(1);
  });

  it.each([
    ['a current record', 'current', 400],
    ['an id that never was', 'none', 404],
  ] as const)('refuses to restore %s', async (_, what, status) => {
    const id = what === 'current' ? await createRecord(stack.url, admin, table) : 999_999_999;
    const answer = await restore(id);
    expect(answer.body.StatusCode, answer.text).toBe(status);
    if (status === 400) expect(String(answer.body.Message)).toMatch(/not in the recycle bin/);
  });

  it('refuses an unknown TableType, naming it', async () => {
    const answer = await post(`/api/items/${table}/get`, { ApiKey: admin, TableType: 'Trash' });
    expect(answer.body.StatusCode).toBe(400);
    expect(String(answer.body.Message)).toMatch(/Trash/);
  });
});

describe('bulk delete and site delete', () => {
  it('keeps bulk-deleted records restorable', async () => {
    const ids = [
      await createRecord(stack.url, admin, table, { Title: 'b1' }),
      await createRecord(stack.url, admin, table, { Title: 'b2' }),
    ];
    const bulk = await post(`/api/items/${table}/bulkdelete`, { ApiKey: admin, Selected: ids });
    expect(bulk.body.StatusCode, bulk.text).toBe(200);
    expect(await deletedIds(table)).toEqual(expect.arrayContaining(ids));
    for (const id of ids) expect((await restore(id)).body.StatusCode).toBe(200);
    for (const id of ids) expect((await page(id)).Data[0]?.ResultId).toBe(id);
  });

  it('restores a deleted site with its subtree and records; its parts alone are refused', async () => {
    const folder = await createSite(stack.url, admin, 0, { Title: 'Bin folder', SiteName: 'bin-folder' });
    const child = await createSite(stack.url, admin, folder, {
      Title: 'Bin child',
      ReferenceType: 'Results',
    });
    const { id: record, files } = await recordWithFilesAndHistory(child);
    const earlier = await createRecord(stack.url, admin, child, { Title: 'deleted before' });
    await remove(earlier);
    expect((await post(`/api/items/${folder}/deletesite`, { ApiKey: admin })).body.StatusCode).toBe(200);
    expect((await post(`/api/items/${child}/getsite`, { ApiKey: admin })).body.StatusCode).toBe(404);
    const alone = await restore(record);
    expect(alone.body.StatusCode).toBe(400);
    expect(String(alone.body.Message)).toMatch(
      new RegExp(`restore that site \\(POST /api/items/${folder}/restore\\)`),
    );
    expect((await restore(child)).body.StatusCode).toBe(400);
    const restored = await restore(folder);
    // The folder, the table and the record deleted with them; the record deleted before stays in the bin.
    expect(restored.body, restored.text).toMatchObject({
      StatusCode: 200,
      Message: '" 3 " items have been restored.',
    });
    expect((await post(`/api/items/${child}/getsite`, { ApiKey: admin })).body.StatusCode).toBe(200);
    expect((await page(record)).Data[0]?.ClassHash).toEqual({ ClassA: 'v3' });
    expect((await page(child)).TotalCount).toBe(1);
    expect(await deletedIds(child)).toEqual([earlier]);
    expect((await page(record, { TableType: 'History' })).TotalCount).toBe(2);
    for (const file of files) expect((await download(file.guid)).bytes.equals(file.bytes)).toBe(true);
    // The site-name index catches up through the Items stream.
    await vi.waitFor(
      async () => {
        const found = await post('/api/items/0/getclosestsiteid', {
          ApiKey: admin,
          FindSiteNames: ['bin-folder'],
        });
        expect(JSON.stringify(found.body)).toContain(`"SiteId":${folder}`);
      },
      { timeout: 20_000, interval: 200 },
    );
  });
});

describe("a folder's bin: childsites with TableType Deleted", () => {
  type Child = { SiteId: number; Title: string; DeletedTime?: string; Deleter?: number };
  const binOf = async (folder: number, key = admin) => {
    const answer = await post(`/api/items/${folder}/childsites`, { ApiKey: key, TableType: 'Deleted' });
    return {
      status: Number(answer.body.StatusCode),
      data: (answer.body.Response as { Data?: Child[] })?.Data,
    };
  };
  const idsIn = async (folder: number, key = admin) =>
    (await binOf(folder, key)).data?.map((child) => child.SiteId);

  it('lists the sites deleted directly under it, with when and by whom, until restored', async () => {
    const folder = await createSite(stack.url, admin, 0, { Title: 'Bin parent' });
    const inner = await createSite(stack.url, admin, folder, { Title: 'Bin inner folder' });
    const table = await createSite(stack.url, admin, inner, {
      Title: 'Bin inner table',
      ReferenceType: 'Issues',
    });
    const other = await createSite(stack.url, admin, folder, {
      Title: 'Bin other',
      ReferenceType: 'Results',
    });
    expect(await idsIn(folder)).toEqual([]);
    await post(`/api/items/${inner}/deletesite`, { ApiKey: admin });
    await post(`/api/items/${other}/deletesite`, { ApiKey: admin });
    const { data } = await binOf(folder);
    // The sites the deletions named, not those deleted with them (the table under the inner folder).
    expect(data).toEqual([
      expect.objectContaining({ SiteId: inner, Title: 'Bin inner folder', Deleter: accounts.admin.userId }),
      expect.objectContaining({ SiteId: other, Title: 'Bin other', Deleter: accounts.admin.userId }),
    ]);
    expect(data?.[0]?.DeletedTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(await idsIn(inner)).toBeUndefined();
    // A plain childsites read shows neither.
    const current = await post(`/api/items/${folder}/childsites`, { ApiKey: admin });
    expect((current.body.Response as { Data: Child[] }).Data).toEqual([]);
    expect((await restore(inner)).body.StatusCode).toBe(200);
    expect(await idsIn(folder)).toEqual([other]);
    expect(await idsIn(inner)).toEqual([]);
    expect((await post(`/api/items/${table}/getsite`, { ApiKey: admin })).body.StatusCode).toBe(200);
    // Deleted again after its restore: listed once.
    await post(`/api/items/${inner}/deletesite`, { ApiKey: admin });
    expect(await idsIn(folder)).toEqual([inner, other]);
  });

  it('lists top-level deletions under 0', async () => {
    const top = await createSite(stack.url, admin, 0, { Title: 'Bin top', ReferenceType: 'Wikis' });
    await post(`/api/items/${top}/deletesite`, { ApiKey: admin });
    expect(await idsIn(0)).toContain(top);
    expect(await idsIn(0, accounts.other.apiKey)).not.toContain(top);
  });

  it.each([
    ['a user who may read the folder but not manage the deleted site', 200, () => reader.apiKey, []],
    // As for the folder's current sites (childsites, getsite).
    ['a user without Read on the folder', 403, () => stranger.apiKey, undefined],
    ["another tenant's manager", 404, () => accounts.other.apiKey, undefined],
  ])('shows %s only what they may restore (%i)', async (_, status, key, shown) => {
    const folder = await createSite(stack.url, admin, 0, {
      Title: 'Bin guarded',
      Permissions: [`User,${reader.userId},1`],
    });
    const child = await createSite(stack.url, admin, folder, {
      Title: 'Bin guarded child',
      ReferenceType: 'Results',
    });
    await post(`/api/items/${child}/deletesite`, { ApiKey: admin });
    expect(await idsIn(folder)).toEqual([child]);
    const seen = await binOf(folder, key());
    expect(seen.status).toBe(status);
    expect(seen.data?.map((each) => each.SiteId)).toEqual(shown);
  });

  it('refuses an unknown TableType, naming it', async () => {
    const answer = await post('/api/items/0/childsites', { ApiKey: admin, TableType: 'History' });
    expect(answer.body.StatusCode).toBe(400);
    expect(answer.text).toContain('TableType');
  });
});

describe('PhysicalDelete', () => {
  it('purges the selected records, current and already deleted, with their files and history', async () => {
    const live = await recordWithFilesAndHistory();
    const binned = await recordWithFilesAndHistory();
    await remove(binned.id);
    const purge = await post(`/api/items/${table}/bulkdelete`, {
      ApiKey: admin,
      Selected: [live.id, binned.id],
      PhysicalDelete: true,
    });
    expect(purge.body, purge.text).toMatchObject({
      StatusCode: 200,
      Message: '" 2 " items have been physically deleted',
    });
    for (const id of [live.id, binned.id]) {
      expect(await deletedIds(table)).not.toContain(id);
      expect((await restore(id)).body.StatusCode).toBe(404);
    }
    await vi.waitFor(
      async () => {
        for (const { guid } of [...live.files, ...binned.files])
          expect(await getBinary(1, guid)).toBeUndefined();
        for (const { id } of [live, binned]) expect(await versionItems(1, table, id)).toEqual([]);
      },
      { timeout: 20_000, interval: 200 },
    );
  });

  it.each([
    ['a writer (no ManageSite)', 403, () => writer.apiKey],
    ['the administrator', 200, () => admin],
  ])('by %s answers %i', async (_, status, key) => {
    const id = await createRecord(stack.url, admin, table);
    const answer = await post(`/api/items/${table}/bulkdelete`, {
      ApiKey: key(),
      Selected: [id],
      PhysicalDelete: true,
    });
    expect(answer.body.StatusCode, answer.text).toBe(status);
  });
});

describe('expiry after Deletion.RetentionDays', () => {
  it('forgets a record deleted longer ago than the setting, with its files and history', async () => {
    useSettings(loadSettings({ KIROKU_PARAM_Deletion_RetentionDays: '2' }));
    const kept = await recordWithFilesAndHistory();
    const expired = await recordWithFilesAndHistory();
    const start = Date.now();
    useClock(() => start - 1 * DAY);
    await remove(kept.id);
    useClock(() => start - 3 * DAY);
    await remove(expired.id);
    useClock(undefined);
    // Past its expiry, a read no longer shows it, before the TTL has even removed it.
    const bin = await deletedIds(table);
    expect(bin).toContain(kept.id);
    expect(bin).not.toContain(expired.id);
    expect((await restore(expired.id)).body.StatusCode).toBe(404);
    // The entry is kept for DynamoDB's TTL to remove, RetentionDays after the deletion.
    const entry = await rawEntry(expired.id);
    expect(Number(entry?.ExpiresAt)).toBeCloseTo((start - 3 * DAY + 2 * DAY) / 1000, -2);
    // DynamoDB Local's TTL removes it within seconds when run alone; on a loaded shared DynamoDB Local it
    // may lag far behind (its sweep serves every test's tables), so after 20 s the test removes the entry
    // itself, as the TTL would: what follows, the bin's stream taking the files and history, is Kiroku's.
    const removedBy = Date.now() + 20_000;
    let nudged = 0;
    await vi.waitFor(
      async () => {
        if (Date.now() > removedBy && (await rawEntry(expired.id))) await removeEntry(expired.id);
        // The removal is a write from outside this process, which the local stream poller may leave for up
        // to a minute on a shard that is dear to read (local/stream-poller.ts MAX_IDLE_MS): a delete of this
        // process's own into the bin, now and then, wakes that shard.
        if (Date.now() - nudged > 5_000) {
          nudged = Date.now();
          await remove(await createRecord(stack.url, admin, table));
        }
        for (const { guid } of expired.files) expect(await getBinary(1, guid)).toBeUndefined();
        expect(await versionItems(1, table, expired.id)).toEqual([]);
      },
      { timeout: 90_000, interval: 500 },
    );
    for (const { guid } of kept.files) expect(await getBinary(1, guid)).toBeDefined();
    expect((await restore(kept.id)).body.StatusCode).toBe(200);
  }, 150_000);

  it('refuses a RetentionDays that is not a positive whole number of days', () => {
    expect(() => loadSettings({ KIROKU_PARAM_Deletion_RetentionDays: '0' })).toThrow(
      /Deletion.RetentionDays/,
    );
  });
});

describe('permissions and tenants', () => {
  // [caller, Deleted read of the record, restore, the caller's key]
  it.each([
    ['the administrator', 200, 200, () => admin],
    ['a writer (Delete)', 200, 200, () => writer.apiKey],
    ['an updater (no Delete)', 200, 403, () => updater.apiKey],
    ['a reader', 200, 403, () => reader.apiKey],
    ['a user without permission', 404, 404, () => stranger.apiKey],
    ['another tenant', 404, 404, () => accounts.other.apiKey],
  ])('%s: Deleted read %i, restore %i', async (_, read, restored, key) => {
    const id = await createRecord(stack.url, admin, table, { Title: 'guarded' });
    await remove(id);
    const got = await post(`/api/items/${id}/get`, { ApiKey: key(), TableType: 'Deleted' });
    expect(got.body.StatusCode, got.text).toBe(read);
    const back = await restore(id, key());
    expect(back.body.StatusCode, back.text).toBe(restored);
    if (restored !== 200) expect(await deletedIds(table)).toContain(id);
  });

  it('a record’s own permission rows let a user without site Delete restore it', async () => {
    const id = await createRecord(stack.url, admin, table, { Title: 'own rows' });
    const granted = await post(`/api/items/${id}/update`, {
      ApiKey: admin,
      RecordPermissions: [`User,${stranger.userId},15`],
    });
    expect(granted.body.StatusCode, granted.text).toBe(200);
    await remove(id);
    // Their own rows let them read it by id; the table they may not read stays hidden (404), as for Normal.
    expect((await page(id, { TableType: 'Deleted' }, stranger.apiKey)).TotalCount).toBe(1);
    const table404 = await post(`/api/items/${table}/get`, { ApiKey: stranger.apiKey, TableType: 'Deleted' });
    expect(table404.body.StatusCode).toBe(404);
    expect((await restore(id, stranger.apiKey)).body.StatusCode).toBe(200);
  });
});

describe('derived data and claims', () => {
  it('search finds a restored record again', async () => {
    const word = `binword${Date.now()}`;
    const id = await createRecord(stack.url, admin, table, { Title: word });
    await eventually(() => searchSite(stack.url, admin, table, word), [id]);
    await remove(id);
    await eventually(() => searchSite(stack.url, admin, table, word), []);
    expect((await restore(id)).body.StatusCode).toBe(200);
    await eventually(() => searchSite(stack.url, admin, table, word), [id]);
  });

  it('refuses with 409 a restore whose unique value another record took meanwhile, changing nothing', async () => {
    const value = `unique-${Date.now()}`;
    const first = await createRecord(stack.url, admin, table, { ClassB: value });
    await remove(first);
    const second = await createRecord(stack.url, admin, table, { ClassB: value });
    const answer = await restore(first);
    expect(answer.body.StatusCode, answer.text).toBe(409);
    expect(String(answer.body.Message)).toMatch(/duplicated/);
    expect(await deletedIds(table)).toContain(first);
    expect((await page(second)).Data[0]?.ClassHash).toMatchObject({ ClassB: value });
    await remove(second);
    expect((await restore(first)).body.StatusCode).toBe(200);
  });
});
