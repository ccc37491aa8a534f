import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { getTask } from '../../lib/tasks/repository';
import { importStreamHandler, type StreamHandlerLoader } from '../../local/stream-subscriptions';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { eventually, searchSite, seedRecords } from '../fixtures/search';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * POST /api/search and the rebuild through the real stream poller, whose worker is killed once between
 * two pages (the invocation dies before it does anything) and resumes from the recorded page.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let reader: TestUser;
let readable: number;
let hidden: number;
let kills = 0;

/** The worker as Lambda would run it, except that one invocation after the first page dies at once. */
const killOnce: StreamHandlerLoader = async (name) => {
  const handler = await importStreamHandler(name);
  if (name !== 'background-tasks') return handler;
  return async (event, context) => {
    const image = event.Records[0]?.dynamodb?.NewImage;
    const done = Number(image?.Done?.N ?? 0);
    if (kills === 0 && done > 0 && image?.Status?.S === 'Running') {
      kills++;
      throw new Error('killed between pages');
    }
    return handler(event, context);
  };
};

beforeAll(async () => {
  stack = await startStack({ streams: true, loadStreamHandler: killOnce });
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  reader = await createUser(stack.url, admin, `reader-${Date.now()}`);
  readable = await createSite(stack.url, admin, 0, {
    Title: 'Open',
    ReferenceType: 'Issues',
    Permissions: [`User,${reader.userId},1`],
  });
  hidden = await createSite(stack.url, admin, 0, { Title: 'Closed', ReferenceType: 'Issues' });
});
beforeEach(() => useSettings(undefined));
afterAll(() => stack.close());

const search = (body: object, apiKey = admin) => call(stack.url, '/api/search', { ApiKey: apiKey, ...body });
const hits = async (text: string, apiKey = admin) =>
  (
    (await search({ SearchText: text }, apiKey)).body.Response as { Data: { Id: number }[] } | undefined
  )?.Data.map((row) => row.Id);

describe('POST /api/search', () => {
  it('answers every readable site and record holding every word, newest first, with an excerpt', async () => {
    const older = await createRecord(stack.url, admin, readable, {
      Title: 'shared-word older',
      Body: '会議室の予約',
    });
    const newer = await createRecord(stack.url, admin, readable, { Title: 'shared-word newer' });
    const secret = await createRecord(stack.url, admin, hidden, { Title: 'shared-word secret' });
    await eventually(
      () => hits('shared-word'),
      [newer, older, secret].sort((a, b) => b - a),
    );
    const result = await search({ SearchText: 'SHARED-WORD', PageSize: 2, Offset: 1 });
    expect(result.body).toEqual({
      StatusCode: 200,
      Response: {
        Offset: 1,
        PageSize: 2,
        TotalCount: 3,
        Data: [newer, older].map((id) => ({
          Id: id,
          SiteId: readable,
          Kind: 'record',
          Title: id === newer ? 'shared-word newer' : 'shared-word older',
          Excerpt: expect.stringContaining('shared-word'),
          UpdatedTime: expect.any(String),
        })),
      },
    });
    // A record's postings are written side by side: another of its words may follow a moment later.
    await eventually(() => hits('予約'), [older]);
    // The reader has Read on `readable` only: the record of `hidden` and the site itself never show.
    expect(await hits('shared-word', reader.apiKey)).toEqual([newer, older]);
    expect(await hits('closed', reader.apiKey)).toEqual([]);
    expect(await hits('open', reader.apiKey)).toContain(readable);
    // Another tenant sees none of it.
    expect(await hits('shared-word', accounts.other.apiKey)).toEqual([]);
  });

  it("answers a record of a site the caller cannot read when the record's own rows grant Read, and no other", async () => {
    const granted = await createRecord(stack.url, admin, hidden, { Title: 'rowgrant alpha' });
    const other = await createRecord(stack.url, admin, hidden, { Title: 'rowgrant beta' });
    const update = await call(stack.url, `/api/items/${granted}/update`, {
      ApiKey: admin,
      RecordPermissions: [`User,${reader.userId},1`],
    });
    expect(update.body.StatusCode).toBe(200);
    // Newest first: the grant updated `granted` after `other` was written.
    await eventually(() => hits('rowgrant'), [granted, other]);
    expect(await hits('rowgrant', reader.apiKey)).toEqual([granted]);
    // A record's full text starts with its site's title; the site's own document stays out of the answer.
    expect(await hits('closed', reader.apiKey)).toEqual([granted]);
  });

  it.each([
    ['an empty SearchText', { SearchText: '' }],
    ['only separators', { SearchText: ' \u3000"' }],
    ['no SearchText', {}],
    ['a PageSize over 200', { SearchText: 'x', PageSize: 201 }],
  ])('%s → 400', async (_name, body) => {
    const result = await search(body);
    expect(result.status).toBe(400);
    expect(result.body.StatusCode).toBe(400);
  });
});

describe('the rebuild through the stream worker', () => {
  it('indexes what was written while the live path was off, surviving a worker killed between pages', async () => {
    useSettings(loadSettings({ KIROKU_PARAM_Search_CreateIndexes: 'false' }));
    const site = await createSite(stack.url, admin, 0, { Title: 'Backlog', ReferenceType: 'Issues' });
    const ids = await seedRecords(site, 1, 600, (index) => `backlog-${index} 未処理の課題`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Pages of 100: several, so that the worker can be killed between two.
    useSettings(loadSettings({ KIROKU_PARAM_BackgroundTask_CreateSearchIndexLot: '100' }));
    expect(await searchSite(stack.url, admin, site, '課題')).toEqual([]);

    const started = await call(stack.url, `/api/BackgroundTasks/${site}/RebuildSearchIndexes`, {
      ApiKey: admin,
    });
    const taskId = String(started.body.TaskId);
    await eventually(async () => (await getTask(taskId))?.status, 'Completed', 60_000);
    expect(kills).toBe(1);
    const shown = await call(stack.url, `/api/BackgroundTasks/Tasks/${taskId}/Get`, { ApiKey: admin });
    expect(shown.body.Response).toMatchObject({ Status: 'Completed', Total: 601, Done: 601 });
    const page = await call(stack.url, `/api/items/${site}/get`, { ApiKey: admin, View: { Search: '課題' } });
    expect((page.body.Response as { TotalCount: number }).TotalCount).toBe(600);
    expect(await searchSite(stack.url, admin, site, 'backlog-599')).toEqual([ids[599]]);
  }, 90_000);
});
