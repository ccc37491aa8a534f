import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { searchIndex } from '../../lib/search/query';
import { rebuildSearchIndexes } from '../../lib/search/rebuild';
import { dynamo } from '../../lib/storage/clients';
import { taskKinds } from '../../lib/tasks/kinds';
import type { TaskKind } from '../../lib/tasks/model';
import { getTask, queueTask } from '../../lib/tasks/repository';
import { runStep } from '../../lib/tasks/worker';
import { createUser, logIn, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { seedRecords } from '../fixtures/search';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * The endpoints and the task lifecycle, with the worker's steps run by hand (no stream poller here), so
 * that a test can stop it between pages as a crash would.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let stranger: TestUser;
let site: number;
let otherSite: number;

const rebuild = (
  path: string,
  body: object = { ApiKey: admin },
  headers?: Record<string, string>,
  cookies?: string[],
) => call(stack.url, path, body, { headers, cookies });
const taskOf = (taskId: string, apiKey = admin) =>
  call(stack.url, `/api/BackgroundTasks/Tasks/${taskId}/Get`, { ApiKey: apiKey });

/** Runs the worker's steps until the task is no longer pending; the steps it took. */
async function runToEnd(taskId: string): Promise<number> {
  let steps = 0;
  for (;;) {
    const task = await runStep(taskId);
    if (!task) return steps;
    steps++;
  }
}

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  stranger = await createUser(stack.url, admin, `stranger-${Date.now()}`);
  site = await createSite(stack.url, admin, 0, { Title: 'Tasks site', ReferenceType: 'Issues' });
  otherSite = await createSite(stack.url, accounts.other.apiKey, 0, {
    Title: 'Other tenant',
    ReferenceType: 'Issues',
  });
});
/** Small pages, so that a few hundred records make several. */
const PAGE_SIZE = 100;
const smallPages = () =>
  useSettings(loadSettings({ KIROKU_PARAM_BackgroundTask_CreateSearchIndexLot: String(PAGE_SIZE) }));
beforeEach(smallPages);
afterAll(() => stack.close());

describe('POST /api/BackgroundTasks/{id}/RebuildSearchIndexes', () => {
  it('records a task and answers at once with its TaskId; the same scope pending gets the same one', async () => {
    const first = await rebuild(`/api/BackgroundTasks/${site}/RebuildSearchIndexes`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      Id: site,
      StatusCode: 200,
      Message: 'Search index rebuild started.',
      TaskId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const again = await rebuild(`/api/backgroundtasks/${site}/rebuildsearchindexes`);
    expect(again.body.TaskId).toBe(first.body.TaskId);
    const tenant = await rebuild('/api/BackgroundTasks/RebuildSearchIndexes');
    expect(tenant.body).toMatchObject({ Id: 0, StatusCode: 200 });
    expect(tenant.body.TaskId).not.toBe(first.body.TaskId);
    const status = await taskOf(String(first.body.TaskId));
    expect(status.body).toEqual({
      StatusCode: 200,
      Response: {
        TaskId: first.body.TaskId,
        Kind: 'RebuildSearchIndexes',
        Status: 'Queued',
        Total: 0,
        Done: 0,
        CreatedTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    await runToEnd(String(first.body.TaskId));
    await runToEnd(String(tenant.body.TaskId));
  });

  it.each([
    ['no ApiKey', 401, () => ({}), () => `/api/BackgroundTasks/RebuildSearchIndexes`],
    [
      'a wrong ApiKey',
      401,
      () => ({ ApiKey: 'f'.repeat(128) }),
      () => `/api/BackgroundTasks/RebuildSearchIndexes`,
    ],
    [
      'a site that does not exist',
      404,
      () => ({ ApiKey: admin }),
      () => `/api/BackgroundTasks/99999999/RebuildSearchIndexes`,
    ],
    [
      "another tenant's site",
      404,
      () => ({ ApiKey: admin }),
      () => `/api/BackgroundTasks/${otherSite}/RebuildSearchIndexes`,
    ],
    [
      'a site the caller cannot read',
      404,
      () => ({ ApiKey: stranger.apiKey }),
      () => `/api/BackgroundTasks/${site}/RebuildSearchIndexes`,
    ],
    [
      'a site id that is not a number',
      400,
      () => ({ ApiKey: admin }),
      () => `/api/BackgroundTasks/abc/RebuildSearchIndexes`,
    ],
    ['a body that is not JSON', 400, () => 'not json', () => `/api/BackgroundTasks/RebuildSearchIndexes`],
  ])('%s → StatusCode %i, HTTP 200', async (_name, statusCode, body, path) => {
    const value = body();
    const result =
      typeof value === 'string'
        ? await call(stack.url, path(), undefined, { raw: value })
        : await rebuild(path(), value);
    expect(result.status).toBe(200);
    expect(result.body.StatusCode).toBe(statusCode);
    expect(result.body.TaskId).toBeUndefined();
  });

  it('BackgroundTask.Enabled false → StatusCode 403, HTTP 200', async () => {
    useSettings(loadSettings({ KIROKU_PARAM_BackgroundTask_Enabled: 'false' }));
    const result = await rebuild(`/api/BackgroundTasks/${site}/RebuildSearchIndexes`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      Id: site,
      StatusCode: 403,
      Message: 'You do not have permission to perform this operation.',
    });
  });

  it('takes a login cookie with X-Requested-With, and refuses it without (CSRF)', async () => {
    const cookies = await logIn(stack.url, accounts.admin.loginId);
    const path = `/api/BackgroundTasks/${site}/RebuildSearchIndexes`;
    const bare = await rebuild(path, {}, undefined, cookies);
    expect(bare.body.StatusCode).toBe(403);
    const xhr = await rebuild(path, {}, { 'x-requested-with': 'XMLHttpRequest' }, cookies);
    expect(xhr.body).toMatchObject({ StatusCode: 200, TaskId: expect.any(String) });
    await runToEnd(String(xhr.body.TaskId));
  });
});

describe('POST /api/BackgroundTasks/Tasks/{taskId}/Get', () => {
  it("is for users of the task's tenant only; unknown ids are 404", async () => {
    const started = await rebuild(`/api/BackgroundTasks/${site}/RebuildSearchIndexes`);
    const taskId = String(started.body.TaskId);
    expect((await taskOf(taskId, stranger.apiKey)).body.StatusCode).toBe(200);
    expect((await taskOf(taskId, accounts.other.apiKey)).body).toMatchObject({ StatusCode: 404 });
    expect((await taskOf('00000000-0000-0000-0000-000000000000')).body.StatusCode).toBe(404);
    expect((await taskOf('not-a-task')).body.StatusCode).toBe(404);
    await runToEnd(taskId);
  });
});

describe('the worker', () => {
  it('queued → running → completed, Total and Done; a crash between pages resumes from the last recorded page', async () => {
    const big = await createSite(stack.url, admin, 0, { Title: 'Bulk', ReferenceType: 'Results' });
    const ids = await seedRecords(big, 1, PAGE_SIZE + 30, (index) => `bulk-${index} 大量の記録`);
    const started = await rebuild(`/api/BackgroundTasks/${big}/RebuildSearchIndexes`);
    const taskId = String(started.body.TaskId);

    const running = await runStep(taskId);
    expect(running).toMatchObject({ status: 'Running', total: PAGE_SIZE + 31, done: 0 });
    const afterFirstPage = await runStep(taskId);
    expect(afterFirstPage).toMatchObject({ status: 'Running', done: PAGE_SIZE + 1 });

    // A crash: the next page's work is done, its progress never recorded. The redelivered event does the
    // page again, which writes nothing more, and records it once.
    const recorded = await getTask(taskId);
    if (!recorded) throw new Error('the task vanished');
    await rebuildSearchIndexes.page(recorded, recorded.cursor);
    const before = await indexRows();
    await rebuildSearchIndexes.page(recorded, recorded.cursor);
    expect(await indexRows()).toEqual(before);

    // The last page, then the sweep of the tenant's documents for the site's items that are gone, in
    // pages that count nothing towards Done.
    let completed = await runStep(taskId);
    while (completed?.status === 'Running') {
      expect(completed).toMatchObject({ done: PAGE_SIZE + 31 });
      completed = await runStep(taskId);
    }
    expect(completed).toMatchObject({ status: 'Completed', total: PAGE_SIZE + 31, done: PAGE_SIZE + 31 });
    expect(await runStep(taskId)).toBeUndefined();
    const shown = await taskOf(taskId);
    expect(shown.body.Response).toMatchObject({
      Status: 'Completed',
      Total: PAGE_SIZE + 31,
      Done: PAGE_SIZE + 31,
      CompletedTime: expect.any(String),
    });

    const found = await searchIndex(1, '大量', { kind: 'record' });
    expect(found.map((doc) => doc.id).sort((a, b) => a - b)).toEqual(ids);
    expect(
      (await searchIndex(1, 'bulk-7', { kind: 'record' })).map((doc) => doc.id).sort((a, b) => a - b),
    ).toEqual(ids.filter((_, index) => String(index).startsWith('7')));
    // Done again, the scope is free: a new task that finds nothing stale.
    const again = await rebuild(`/api/BackgroundTasks/${big}/RebuildSearchIndexes`);
    expect(again.body.TaskId).not.toBe(taskId);
    const rows = await indexRows();
    await runToEnd(String(again.body.TaskId));
    expect(await indexRows()).toEqual(rows);
  });

  it('covers the whole tenant without {id}, and never another tenant', async () => {
    const record = await createRecord(stack.url, admin, site, { Title: 'tenant-wide' });
    const mine = await rebuild('/api/BackgroundTasks/RebuildSearchIndexes');
    const theirs = await rebuild('/api/BackgroundTasks/RebuildSearchIndexes', {
      ApiKey: accounts.other.apiKey,
    });
    await runToEnd(String(mine.body.TaskId));
    await runToEnd(String(theirs.body.TaskId));
    expect((await searchIndex(1, 'tenant-wide')).map((doc) => doc.id)).toEqual([record]);
    const other = await getTask(String(theirs.body.TaskId));
    expect(other).toMatchObject({ status: 'Completed', total: 1, done: 1 });
    const otherTenant = other?.tenantId ?? 0;
    expect(await searchIndex(otherTenant, 'tenant-wide')).toEqual([]);
    expect((await searchIndex(otherTenant, 'other tenant')).map((doc) => doc.id)).toEqual([otherSite]);
  });

  it('without {id}, drops the documents of records deleted while the live path was away', async () => {
    const record = await createRecord(stack.url, admin, site, { Title: 'sweep-me' });
    await runToEnd(String((await rebuild('/api/BackgroundTasks/RebuildSearchIndexes')).body.TaskId));
    expect((await searchIndex(1, 'sweep-me')).map((doc) => doc.id)).toEqual([record]);
    // No stream poller in this stack: the deletion reaches the index only through the rebuild.
    await call(stack.url, `/api/items/${record}/delete`, { ApiKey: admin });
    expect((await searchIndex(1, 'sweep-me')).map((doc) => doc.id)).toEqual([record]);
    await runToEnd(String((await rebuild('/api/BackgroundTasks/RebuildSearchIndexes')).body.TaskId));
    expect(await searchIndex(1, 'sweep-me')).toEqual([]);
  });

  it('a task whose page keeps failing is Failed with a public message (the reason is logged), and its scope can be started again', async () => {
    const kinds = taskKinds as Record<string, TaskKind>;
    kinds.Faulty = {
      start: async () => ({ total: 1, cursor: 0 }),
      page: async () => {
        throw new Error('the disk is on fire');
      },
    };
    try {
      const { task } = await queueTask({ tenantId: 1, kind: 'Faulty', scopeId: 0 }, Date.now());
      await runToEnd(task.taskId);
      expect(await getTask(task.taskId)).toMatchObject({
        status: 'Failed',
        error: 'An internal server error occurred.',
        done: 0,
      });
      expect((await taskOf(task.taskId)).body.Response).toMatchObject({
        Status: 'Failed',
        Message: 'An internal server error occurred.',
      });
      const again = await queueTask({ tenantId: 1, kind: 'Faulty', scopeId: 0 }, Date.now());
      expect(again.created).toBe(true);
    } finally {
      delete kinds.Faulty;
    }
  });
});

async function indexRows(): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new ScanCommand({ TableName: stack.tables.searchIndex, ExclusiveStartKey: start }),
    );
    rows.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return rows
    .map(
      (row): Record<string, unknown> => ({
        ...row,
        Ids: row.Ids ? [...(row.Ids as Set<number>)].sort() : undefined,
      }),
    )
    .sort((a, b) => `${String(a.pk)}${String(a.sk)}`.localeCompare(`${String(b.pk)}${String(b.sk)}`));
}
