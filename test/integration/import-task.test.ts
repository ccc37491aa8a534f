import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { importTask } from '../../lib/imports/task';
import { queryKeys, recordsOf as recordKeysOf } from '../../lib/sites/store';
import { dynamo } from '../../lib/storage/clients';
import { s3 } from '../../lib/storage/s3';
import type { TaskKind } from '../../lib/tasks/model';
import { runStep } from '../../lib/tasks/worker';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { uploadInChunks } from '../fixtures/binaries';
import { call } from '../fixtures/client';
import { csvOf, encoded, recordsOf } from '../fixtures/imports';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * `POST /api/BackgroundTasks/{siteId}/Import` (CONTRACT 12): a CSV uploaded in chunks, imported by the
 * worker's steps, run here by hand (no stream poller) so that a test can crash one between or inside pages.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let reader: TestUser;
let importer: TestUser;

const COLUMNS = [
  { ColumnName: 'ClassA', LabelText: 'Code' },
  { ColumnName: 'NumA', LabelText: 'Amount' },
];

const table = (title: string, permissions?: string[]) =>
  createSite(stack.url, admin, 0, {
    Title: title,
    ReferenceType: 'Results',
    SiteSettings: { Columns: COLUMNS },
    ...(permissions && { Permissions: permissions }),
  });

/** A CSV of `count` rows (Code c1…, Amount = n) with `bad` rows given an Amount that is no number. */
function rows(count: number, bad: readonly number[] = []): string {
  const body = Array.from({ length: count }, (_, index) => [
    `row ${index + 1}`,
    `c${index + 1}`,
    bad.includes(index + 1) ? 'lots' : String(index + 1),
  ]);
  return csvOf([['タイトル', 'Code', 'Amount'], ...body]);
}

/** Uploads the CSV in chunks as the given user and answers its GUID. */
async function upload(site: number, csv: string, apiKey = admin, encoding: 'utf-8' | 'shift-jis' = 'utf-8') {
  const answers = await uploadInChunks(
    `${stack.url}/api/binaries/upload?id=${site}`,
    apiKey,
    'records.csv',
    encoded(csv, encoding),
    64 * 1024,
  );
  return String(answers.at(-1)?.body.Message);
}

const start = (site: number, body: Record<string, unknown>) =>
  call(stack.url, `/api/BackgroundTasks/${site}/Import`, { ApiKey: admin, ...body });
const taskOf = (taskId: string, apiKey = admin) =>
  call(stack.url, `/api/BackgroundTasks/Tasks/${taskId}/Get`, { ApiKey: apiKey });

async function runToEnd(taskId: string): Promise<number> {
  let steps = 0;
  while (await runStep(taskId)) steps++;
  return steps;
}

async function totalCount(site: number): Promise<number> {
  const result = await call(stack.url, `/api/items/${site}/get`, { ApiKey: admin });
  return Number((result.body.Response as { TotalCount: number }).TotalCount);
}

async function stagedObjects(): Promise<number> {
  const listed = await s3().send(
    new ListObjectsV2Command({ Bucket: stack.bucket, Prefix: 'uploads/imports/' }),
  );
  return listed.KeyCount ?? 0;
}

const originalPage = importTask.page;
afterEach(() => {
  (importTask as { page: TaskKind['page'] }).page = originalPage;
});

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  reader = await createUser(stack.url, admin, `reader-${Date.now()}`);
  importer = await createUser(stack.url, admin, `importer-${Date.now()}`);
});
afterAll(() => stack.close());

describe('POST /api/BackgroundTasks/{siteId}/Import', () => {
  it('imports a file in pages with progress and counts, then removes its staged pages', async () => {
    const site = await table('Background');
    const guid = await upload(site, rows(2500), admin, 'shift-jis');
    const started = await start(site, { Guid: guid, Encoding: 'Shift-JIS' });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({
      Id: site,
      StatusCode: 200,
      Message: 'Import started.',
      TaskId: expect.any(String),
    });
    const taskId = String(started.body.TaskId);
    await runStep(taskId);
    const running = await taskOf(taskId);
    expect(running.body.Response).toMatchObject({ Kind: 'Import', Status: 'Running', Total: 2500, Done: 0 });
    expect(await stagedObjects()).toBe(3);
    await runStep(taskId);
    expect((await taskOf(taskId)).body.Response).toMatchObject({ Done: 1000, Added: 1000, Updated: 0 });
    await runToEnd(taskId);
    expect((await taskOf(taskId)).body.Response).toMatchObject({
      Status: 'Completed',
      Total: 2500,
      Done: 2500,
      Added: 2500,
      Updated: 0,
    });
    expect(await totalCount(site)).toBe(2500);
    expect(await stagedObjects()).toBe(0);
  });

  it('updates by Key and adds the rest', async () => {
    const site = await table('Background keyed');
    await createRecord(stack.url, admin, site, { Title: 'old', ClassHash: { ClassA: 'c2' } });
    const guid = await upload(site, rows(3));
    const started = await start(site, { Guid: guid, Key: 'ClassA', UpdatableImport: true });
    await runToEnd(String(started.body.TaskId));
    expect((await taskOf(String(started.body.TaskId))).body.Response).toMatchObject({
      Status: 'Completed',
      Added: 2,
      Updated: 1,
    });
    expect((await recordsOf(stack.url, admin, site)).map((r) => r.Title)).toEqual([
      'row 2',
      'row 1',
      'row 3',
    ]);
  });

  it('fails with the first errors by row and writes nothing when any row is invalid', async () => {
    const site = await table('Background invalid');
    const guid = await upload(site, rows(2500, [3, 1800]));
    const taskId = String((await start(site, { Guid: guid })).body.TaskId);
    await runToEnd(taskId);
    expect((await taskOf(taskId)).body.Response).toMatchObject({
      Status: 'Failed',
      Message: 'Row 3, Amount: "lots" is not a number',
      Errors: [
        { Row: 3, Column: 'Amount', Message: '"lots" is not a number' },
        { Row: 1800, Column: 'Amount', Message: '"lots" is not a number' },
      ],
      Added: 0,
    });
    expect(await totalCount(site)).toBe(0);
    expect(await stagedObjects()).toBe(0);
  });

  /** Page 1 dies once: after its whole work, or after `batches` of its BatchWriteItem requests. */
  const crashes: [string, (taskId: string) => Promise<void>][] = [
    [
      'after its page was written',
      async (taskId) => {
        (importTask as { page: TaskKind['page'] }).page = async (task, cursor) => {
          await originalPage(task, cursor);
          throw new Error('the worker died');
        };
        await runStep(taskId);
      },
    ],
    [
      'in the middle of its batch writes',
      async (taskId) => {
        const client = dynamo();
        const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
        let batches = 0;
        const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
          if (command instanceof BatchWriteCommand && ++batches > 17) throw new Error('the worker died');
          return send(command);
        }) as never);
        try {
          await runStep(taskId);
        } finally {
          spy.mockRestore();
        }
      },
    ],
  ];

  it.each(crashes)(
    'resumes a worker killed %s, writing every row exactly once',
    async (_, crash) => {
      const site = await table(`Background crash ${_}`);
      const guid = await upload(site, rows(2500));
      const taskId = String((await start(site, { Guid: guid })).body.TaskId);
      await runStep(taskId); // start: checked and staged
      await runStep(taskId); // page 0
      await crash(taskId);
      (importTask as { page: TaskKind['page'] }).page = originalPage;
      expect((await taskOf(taskId)).body.Response).toMatchObject({ Status: 'Running', Done: 1000 });
      await runToEnd(taskId);
      expect((await taskOf(taskId)).body.Response).toMatchObject({
        Status: 'Completed',
        Done: 2500,
        Added: 2500,
      });
      // The stored count and the records themselves.
      expect(await totalCount(site)).toBe(2500);
      expect((await queryKeys(recordKeysOf(1, site))).length).toBe(2500);
      const one = await call(stack.url, `/api/items/${site}/get`, {
        ApiKey: admin,
        View: { ColumnFilterHash: { ClassA: 'c1500' }, ColumnFilterSearchTypes: { ClassA: 'ExactMatch' } },
      });
      expect((one.body.Response as { TotalCount: number }).TotalCount).toBe(1);
      // 3.5 s alone; the whole suite's load once made it ten times as long.
    },
    90_000,
  );
});

describe('background import permissions', () => {
  let site: number;
  beforeAll(async () => {
    site = await table('Background guarded', [`User,${reader.userId},1`, `User,${importer.userId},67`]);
  });

  it.each([
    ['a reader without Import', 403, () => reader.apiKey, () => admin],
    ["another user's upload", 404, () => importer.apiKey, () => admin],
    ["another tenant's caller", 404, () => accounts.other.apiKey, () => accounts.other.apiKey],
  ])('refuses %s (%i) and queues nothing', async (_, status, caller, uploader) => {
    const guid = await upload(site, rows(2), uploader());
    const result = await start(site, { ApiKey: caller(), Guid: guid });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ StatusCode: status });
    expect(result.body.TaskId).toBeUndefined();
  });

  it('answers an unknown Guid with 404', async () => {
    const result = await start(site, { Guid: 'F'.repeat(32) });
    expect(result.body).toMatchObject({ StatusCode: 404 });
  });

  it('shows the task to its starter and the tenant managers only', async () => {
    const guid = await upload(site, rows(2), importer.apiKey);
    const started = await start(site, { ApiKey: importer.apiKey, Guid: guid });
    const taskId = String(started.body.TaskId);
    await runToEnd(taskId);
    expect((await taskOf(taskId, importer.apiKey)).body.Response).toMatchObject({
      Status: 'Completed',
      Added: 2,
    });
    expect((await taskOf(taskId, admin)).body.StatusCode).toBe(200);
    expect((await taskOf(taskId, reader.apiKey)).body.StatusCode).toBe(404);
    expect((await taskOf(taskId, accounts.other.apiKey)).body.StatusCode).toBe(404);
  });
});
