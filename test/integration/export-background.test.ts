import { get } from 'node:http';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportTask } from '../../lib/exports/background';
import { getTask } from '../../lib/tasks/repository';
import { runStep } from '../../lib/tasks/worker';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * `POST /api/BackgroundTasks/{siteId}/Export` through the stack, its worker driven step by step: the file
 * it leaves equals the sync export's content (with a BOM, or in Shift-JIS), is downloadable by those who
 * read the site only, and a page done twice leaves the same file. And `/api/binaries/{guid}/getstream`.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let site: number;
let big: number;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const post = (path: string, body?: unknown) => call(stack.url, path, body);
const exportBody = {
  View: { ColumnSorterHash: { Title: 'asc' } },
  Export: {
    Columns: [
      { ColumnName: 'Title' },
      { ColumnName: 'ClassA' },
      { ColumnName: 'NumA' },
      { ColumnName: 'Body' },
    ],
  },
};

async function syncContent(siteId: number, body: object): Promise<string> {
  const result = await post(`/api/items/${siteId}/export`, { ApiKey: admin, ...body });
  expect(result.status).toBe(200);
  return (result.body.Response as { Content: string }).Content;
}

/** Starts a background export, runs its steps to the end, and answers the task as Tasks/Get shows it. */
async function backgroundExport(siteId: number, body: object, key = admin) {
  const started = await post(`/api/BackgroundTasks/${siteId}/Export`, { ApiKey: key, ...body });
  expect(started.status).toBe(200);
  expect(started.body).toMatchObject({ Id: siteId, StatusCode: 200, Message: 'Export started.' });
  const taskId = String(started.body.TaskId);
  while (await runStep(taskId)) {}
  return taskOf(taskId, key);
}

async function taskOf(taskId: string, key = admin) {
  const result = await post(`/api/BackgroundTasks/Tasks/${taskId}/Get`, { ApiKey: key });
  return result.body.Response as Record<string, unknown> & { Guid: string; FileName: string; Status: string };
}

async function download(guid: string, key = admin) {
  const response = await fetch(`${stack.url}/binaries/${guid}/download`, {
    headers: { authorization: `Bearer ${key}` },
    redirect: 'manual',
  });
  if (response.status !== 302) return { status: response.status, bytes: Buffer.alloc(0) };
  return { status: 302, bytes: await presigned(response.headers.get('location') ?? '') };
}

/** Buffers of megabytes compared at once (toEqual walks them byte by byte, and diffs them on failure). */
const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && a.equals(b);

/**
 * A presigned URL's bytes, on a connection of its own: s3rver stalls a second large answer on a kept-alive
 * connection (fetch's pool) for about a minute.
 */
function presigned(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks)));
      response.on('error', reject);
    }).on('error', reject);
  });
}

async function getstream(guid: string, key = admin) {
  const response = await fetch(`${stack.url}/api/binaries/${guid}/getstream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ApiKey: key }),
    redirect: 'manual',
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  site = await createSite(stack.url, admin, 0, {
    Title: '受注',
    ReferenceType: 'Results',
    Permissions: [`User,${accounts.user.userId},1`],
    SiteSettings: { Columns: [{ ColumnName: 'ClassA', ChoicesText: 'a,りんご\nb,髙橋①' }] },
  });
  for (const [n, choice] of ['a', 'b', 'a', 'b', 'a'].entries()) {
    await createRecord(stack.url, admin, site, {
      Title: `行${n}`,
      ClassHash: { ClassA: choice },
      NumHash: { NumA: n * 1.5 },
      Body: `本文 "${n}"\n二行目`,
    });
  }
  // Over 6 MB: two parts of a multipart upload, and too big for one answer.
  big = await createSite(stack.url, admin, 0, { Title: 'Big', ReferenceType: 'Results' });
  const text = 'x'.repeat(100_000);
  for (let n = 0; n < 61; n++) await createRecord(stack.url, admin, big, { Title: `r${n}`, Body: text });
}, 120_000);
afterAll(() => stack.close());

describe('BackgroundTasks/{siteId}/Export', () => {
  it('leaves a file equal to the sync export, UTF-8 with a BOM by default', async () => {
    const task = await backgroundExport(site, exportBody);
    expect(task).toMatchObject({ Kind: 'Export', Status: 'Completed', Total: 5, Done: 5 });
    expect(task.FileName).toMatch(/^受注_\d{4}_\d{2}_\d{2} \d{2}_\d{2}_\d{2}\.Csv$/);
    const file = await download(task.Guid);
    expect(file.status).toBe(302);
    expect(file.bytes).toEqual(Buffer.concat([BOM, Buffer.from(await syncContent(site, exportBody))]));
  });

  it('writes Shift-JIS (code page 932) when asked', async () => {
    const task = await backgroundExport(site, { ...exportBody, Encoding: 'Shift-JIS' });
    const file = await download(task.Guid);
    const content = await syncContent(site, exportBody);
    expect(content).toContain('髙橋①');
    expect(file.bytes).toEqual(iconv.encode(content, 'cp932'));
  });

  it('writes the default order and Json alike', async () => {
    const json = { Export: { Type: 'Json', Columns: [{ ColumnName: 'Title' }, { ColumnName: 'ClassA' }] } };
    const task = await backgroundExport(site, json);
    expect(task.FileName).toMatch(/\.Json$/);
    const file = await download(task.Guid);
    expect(file.bytes).toEqual(Buffer.concat([BOM, Buffer.from(await syncContent(site, json))]));
  });

  it('writes a file over 5 MiB in parts, whole', async () => {
    const body = { Export: { Header: false, Columns: [{ ColumnName: 'Title' }, { ColumnName: 'Body' }] } };
    const task = await backgroundExport(big, body);
    expect(task).toMatchObject({ Status: 'Completed', Done: 61 });
    const file = await download(task.Guid);
    const text = file.bytes.subarray(3).toString('utf8');
    const rows = text.split('\n').slice(0, -1);
    expect(rows).toHaveLength(61);
    expect(rows.map((row) => row.slice(0, row.indexOf(','))).reverse()).toEqual(
      Array.from({ length: 61 }, (_, n) => `"r${n}"`),
    );
    expect(file.bytes.length).toBeGreaterThan(6_000_000);
  }, 60_000);

  it('leaves the same file when a page is done twice (a worker that died after uploading)', async () => {
    const body = { Export: { Columns: [{ ColumnName: 'Title' }, { ColumnName: 'Body' }] } };
    const started = await post(`/api/BackgroundTasks/${big}/Export`, { ApiKey: admin, ...body });
    const taskId = String(started.body.TaskId);
    await runStep(taskId); // sized and started
    const running = await getTask(taskId);
    if (!running) throw new Error('no task');
    await exportTask.page(running, running.cursor); // a page whose result was never recorded
    await runStep(taskId); // the same page again, recorded
    const paged = await getTask(taskId);
    // 100 kB rows: the first part stops past 5 MiB, with rows left for the second.
    expect(paged).toMatchObject({ status: 'Running', cursor: { parts: [{ PartNumber: 1 }], rows: 53 } });
    while (await runStep(taskId)) {}
    const task = await taskOf(taskId);
    expect(task.Status).toBe('Completed');
    const file = await download(task.Guid);
    const again = (await download((await backgroundExport(big, body)).Guid)).bytes;
    expect(sameBytes(file.bytes, again)).toBe(true);
  }, 60_000);

  it('serves the file to readers of the site only, never to another tenant', async () => {
    const task = await backgroundExport(site, exportBody);
    expect((await download(task.Guid, accounts.user.apiKey)).status).toBe(302);
    const hidden = await createSite(stack.url, admin, 0, { Title: 'Hidden', ReferenceType: 'Issues' });
    await createRecord(stack.url, admin, hidden, { Title: 'secret' });
    const secret = await backgroundExport(hidden, {});
    expect((await download(secret.Guid, accounts.user.apiKey)).status).toBe(404);
    expect((await getstream(secret.Guid, accounts.user.apiKey)).status).toBe(404);
    expect((await download(task.Guid, accounts.other.apiKey)).status).toBe(404);
    expect((await getstream(task.Guid, accounts.other.apiKey)).status).toBe(404);
  });

  it.each<[string, () => string, object, number]>([
    ['a reader without the Export bit', () => accounts.user.apiKey, {}, 403],
    ['another tenant', () => accounts.other.apiKey, {}, 404],
    ['an Encoding it does not know', () => admin, { Encoding: 'latin-1' }, 400],
    ['an inline Export without Columns', () => admin, { Export: {} }, 400],
    ['a View it cannot apply', () => admin, { View: { ColumnFilterHash: { NumA: 'x' } } }, 400],
  ])('refuses %s before queueing anything', async (_, key, body, status) => {
    const result = await post(`/api/BackgroundTasks/${site}/Export`, { ApiKey: key(), ...body });
    expect(result.status).toBe(200);
    expect(result.body.StatusCode).toBe(status);
    expect(result.body.TaskId).toBeUndefined();
  });
});

describe('binaries/{guid}/getstream', () => {
  it('answers the bytes as an attachment', async () => {
    const task = await backgroundExport(site, exportBody);
    const stream = await getstream(task.Guid, accounts.user.apiKey);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/csv');
    const encoded = encodeURIComponent(task.FileName);
    expect(stream.headers.get('content-disposition')).toBe(
      `attachment; filename="${task.FileName.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encoded}`,
    );
    expect(stream.bytes).toEqual((await download(task.Guid)).bytes);
  });

  it('redirects to a presigned URL for a file over 4 MiB', async () => {
    const task = await backgroundExport(big, { Export: { Columns: [{ ColumnName: 'Body' }] } });
    const stream = await getstream(task.Guid);
    expect(stream.status).toBe(302);
    const bytes = await presigned(stream.headers.get('location') ?? '');
    expect(sameBytes(bytes, (await download(task.Guid)).bytes)).toBe(true);
  }, 60_000);

  it.each([
    ['an unknown GUID', '0123456789ABCDEF0123456789ABCDEF'],
    ['no GUID at all', 'not-a-guid'],
  ])('answers 404 in the envelope for %s', async (_, guid) => {
    const result = await post(`/api/binaries/${guid}/getstream`, { ApiKey: admin });
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ StatusCode: 404 });
  });
});
