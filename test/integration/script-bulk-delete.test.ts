import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../../lib/log';
import { createUser, seedAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// BeforeBulkDelete and AfterBulkDelete around items/{siteId}/bulkdelete (CONTRACT 13,
// reference/pleasanter-script-objects.md 6): once each per bulk delete, never a record's own conditions.

let stack: Stack;
let admin: string;
let writer: TestUser;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const withScripts = (ServerScripts: object[]) =>
  createSite(stack.url, admin, 0, {
    ReferenceType: 'Results',
    Permissions: [`User,${writer.userId},15`],
    SiteSettings: { ServerScripts },
  });
const logged = () =>
  vi
    .mocked(logger.info)
    .mock.calls.filter(([message]) => message === 'server script log')
    .map(([, extra]) => (extra as { message: string }).message);
const records = async (siteId: number, count: number) => {
  const ids: number[] = [];
  for (let index = 0; index < count; index++) ids.push(await createRecord(stack.url, writer.apiKey, siteId));
  return ids;
};
const exists = async (id: number) =>
  (await post(`/api/items/${id}/get`, { ApiKey: admin })).body.StatusCode === 200;

beforeAll(async () => {
  stack = await startStack();
  admin = (await seedAccounts(stack.url)).admin.apiKey;
  writer = await createUser(stack.url, admin, `bulk-${Date.now()}`);
});
beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(logger, 'info');
});
afterAll(() => stack.close());

describe('server scripts on bulkdelete', () => {
  const log = (name: string, expression: string) => ({
    Name: name,
    [name]: true,
    Body: `context.Log('${name}:' + JSON.stringify(${expression}));`,
  });

  it('runs BeforeBulkDelete and AfterBulkDelete once each, with the body and UserData, and no delete conditions', async () => {
    const siteId = await withScripts([
      {
        BeforeBulkDelete: true,
        Body: `context.UserData.targets = JSON.parse(context.ApiRequestBody).Selected;
               context.Log('BeforeBulkDelete:' + JSON.stringify([Object.keys(model).length, context.Action, context.Id, context.Condition]));`,
      },
      log('AfterBulkDelete', '[context.UserData.targets, context.ApiRequestBody, context.RecordTitle]'),
      log('BeforeDelete', 'model.ResultId'),
      log('AfterDelete', 'model.ResultId'),
    ]);
    const ids = await records(siteId, 3);
    const selected = ids.slice(0, 2);
    const result = await post(`/api/items/${siteId}/bulkdelete`, {
      ApiKey: writer.apiKey,
      Selected: selected,
    });
    expect(result.body).toMatchObject({ StatusCode: 200 });
    expect(logged()).toEqual([
      `BeforeBulkDelete:${JSON.stringify([0, 'bulkdelete', siteId, 'BeforeBulkDelete'])}`,
      `AfterBulkDelete:${JSON.stringify([selected, JSON.stringify({ Selected: selected }), ''])}`,
    ]);
    expect(await Promise.all(ids.map(exists))).toEqual([false, false, true]);
  });

  it.each([
    ['context.Error', 'context.Error("not today");', 400, 'not today'],
    ['a script that throws', 'throw new Error("broken");', 500, 'An internal server error occurred.'],
  ])(
    'refuses the bulk delete after %s in BeforeBulkDelete, deleting nothing',
    async (_, body, status, message) => {
      const siteId = await withScripts([{ BeforeBulkDelete: true, Body: body }, log('AfterBulkDelete', '1')]);
      const ids = await records(siteId, 2);
      const result = await post(`/api/items/${siteId}/bulkdelete`, { ApiKey: writer.apiKey, All: true });
      expect(result.status).toBe(status);
      expect(result.body.Message).toBe(message);
      expect(logged()).toEqual([]);
      expect(await Promise.all(ids.map(exists))).toEqual([true, true]);
    },
  );

  it('keeps the delete when AfterBulkDelete fails', async () => {
    const siteId = await withScripts([{ AfterBulkDelete: true, Body: 'throw new Error("late");' }]);
    const ids = await records(siteId, 2);
    const result = await post(`/api/items/${siteId}/bulkdelete`, { ApiKey: writer.apiKey, All: true });
    expect(result.body).toMatchObject({ StatusCode: 200 });
    expect(await Promise.all(ids.map(exists))).toEqual([false, false]);
  });

  it('runs no script for a bulk delete that is refused before it starts', async () => {
    const siteId = await withScripts([log('BeforeBulkDelete', '1'), log('AfterBulkDelete', '1')]);
    await records(siteId, 1);
    const result = await post(`/api/items/${siteId}/bulkdelete`, { ApiKey: writer.apiKey });
    expect(result.status).toBe(400);
    expect(logged()).toEqual([]);
  });

  it('stores the bulk conditions as real flags', async () => {
    const siteId = await withScripts([log('BeforeBulkDelete', '1')]);
    const site = await post(`/api/items/${siteId}/getsite`, { ApiKey: admin });
    const scripts = (site.body.Response as { Data: { SiteSettings: { ServerScripts: object[] } } }).Data
      .SiteSettings.ServerScripts;
    expect(scripts).toEqual([expect.objectContaining({ BeforeBulkDelete: true })]);
  });
});
