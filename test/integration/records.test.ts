import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
/** Read, Create, Update, Delete on `table`. */
let writer: TestUser;
let other: TestUser;
let table: number;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const record = (body: object = {}, key = admin, siteId = table) => createRecord(stack.url, key, siteId, body);
const get = async (id: number, key = admin, body: object = {}) =>
  (await post(`/api/items/${id}/get`, { ApiKey: key, ...body })).body;

const firstOf = async (id: number) =>
  ((await get(id)).Response as { Data: Record<string, unknown>[] }).Data[0];

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  writer = await createUser(stack.url, admin, `writer-${Date.now()}`);
  other = await createUser(stack.url, admin, `other-${Date.now()}`);
  table = await createSite(stack.url, admin, 0, {
    Title: 'Issues',
    ReferenceType: 'Issues',
    Permissions: [`User,${writer.userId},15`, `User,${other.userId},15`],
  });
});
beforeEach(() => useSettings(undefined));
afterAll(() => stack.close());

describe('records', () => {
  describe('create and get', () => {
    it('stores every field family and shows them as hashes', async () => {
      const created = await post(`/api/items/${table}/create`, {
        ApiKey: writer.apiKey,
        Title: 'First',
        Body: 'text',
        Status: 100,
        ClassA: 'a',
        NumB: 1.5,
        DateC: '2024-05-06T07:08:09+09:00',
        DescriptionD: 'long',
        CheckE: true,
      });
      expect(created.body).toEqual({
        Id: expect.any(Number),
        StatusCode: 200,
        Message: '" First " has been created.',
      });
      const id = Number(created.body.Id);
      const localTime = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?$/);
      const midnight = expect.stringMatching(/^\d{4}-\d\d-\d\dT00:00:00$/);
      expect(await get(id, writer.apiKey)).toEqual({
        StatusCode: 200,
        Response: {
          Offset: 0,
          PageSize: 200,
          TotalCount: 1,
          Data: [
            {
              SiteId: table,
              UpdatedTime: localTime,
              IssueId: id,
              Ver: 1,
              Title: 'First',
              Body: 'text',
              // Not sent: the Issues defaults (DefaultInput), today and today + 7 in the caller's zone.
              StartTime: midnight,
              CompletionTime: midnight,
              WorkValue: 0,
              ProgressRate: 0,
              RemainingWorkValue: 0,
              Status: 100,
              Manager: writer.userId,
              Owner: writer.userId,
              Locked: false,
              Creator: writer.userId,
              Updator: writer.userId,
              CreatedTime: localTime,
              ItemTitle: 'First',
              ApiVersion: 1.1,
              ClassHash: { ClassA: 'a' },
              // NumB's DecimalPlaces is 0: 1.5 is stored rounded away from zero, as the reference.
              NumHash: { NumB: 2 },
              // Asia/Tokyo, Service.TimeZoneDefault's default: the +09:00 instant reads as given.
              DateHash: { DateC: '2024-05-06T07:08:09' },
              DescriptionHash: { DescriptionD: 'long' },
              CheckHash: { CheckE: true },
            },
          ],
        },
      });
    });

    it('lets a hash win over the direct field, and matches names in any case', async () => {
      const id = await record({
        classa: 'direct',
        ClassHash: { classa: 'hash', CLASSB: 'b' },
        NumHash: { numa: 2 },
        checkhash: { CheckZ: false },
      });
      expect(await firstOf(id)).toMatchObject({
        ClassHash: { ClassA: 'hash', ClassB: 'b' },
        NumHash: { NumA: 2 },
        CheckHash: { CheckZ: false },
      });
    });

    it.each([
      ['a text NumA', { NumA: 'one' }],
      ['a bad DateA', { DateA: 'yesterday' }],
      ['a text CheckA', { CheckA: 'yes' }],
      ['an unknown ClassHash column', { ClassHash: { ClassAA: 'x' } }],
      ['a NumHash text value', { NumHash: { NumA: 'x' } }],
      ['an attachment without Guid', { AttachmentsA: [{ Name: 'a' }] }],
      ['a text Status', { Status: 'open' }],
    ])('answers 400 for %s', async (_case, body) => {
      const result = await post(`/api/items/${table}/create`, { ApiKey: admin, ...body });
      expect(result.body).toEqual({
        Id: table,
        StatusCode: 400,
        Message: 'Invalid request.',
        Errors: expect.any(Array),
      });
    });

    it.each(['Sites', 'Dashboards'])(
      'answers 400 for creating records in a %s site',
      async (referenceType) => {
        const site = await createSite(stack.url, admin, 0, { ReferenceType: referenceType });
        expect((await post(`/api/items/${site}/create`, { ApiKey: admin })).body.StatusCode).toBe(400);
      },
    );

    it('answers a folder get with the folder as one object, and a dashboard get with 404', async () => {
      const folder = await createSite(stack.url, admin, 0, { ReferenceType: 'Sites', Title: 'Folder' });
      expect(await get(folder)).toEqual({
        StatusCode: 200,
        Response: {
          Data: expect.objectContaining({ SiteId: folder, Title: 'Folder', ReferenceType: 'Sites' }),
        },
      });
      const dashboard = await createSite(stack.url, admin, 0, { ReferenceType: 'Dashboards' });
      expect((await get(dashboard)).StatusCode).toBe(404);
    });

    it('pages the records of a site, latest update first (the reference default order)', async () => {
      const site = await createSite(stack.url, admin, 0, { ReferenceType: 'Results' });
      const ids = [];
      for (let n = 0; n < 5; n++) ids.push(await record({ Title: `r${n}` }, admin, site));
      const page = await get(site, admin, { Offset: 2, PageSize: 2 });
      expect(page).toMatchObject({ StatusCode: 200, Response: { Offset: 2, PageSize: 2, TotalCount: 5 } });
      const data = (page.Response as { Data: { ResultId: number }[] }).Data;
      expect(data.map((r) => r.ResultId)).toEqual([...ids].reverse().slice(2, 4));
      const all = (await get(site)).Response as { PageSize: number; Data: unknown[] };
      expect(all).toMatchObject({ PageSize: 200, TotalCount: 5 });
      expect(all.Data).toHaveLength(5);
      expect(((await get(site, admin, { Offset: 5 })).Response as { Data: unknown[] }).Data).toEqual([]);
    });
  });

  describe('update and delete', () => {
    it('keeps what is not given and counts versions', async () => {
      const id = await record({ Title: 'Old', ClassA: 'a', NumA: 1 });
      const updated = await post(`/api/items/${id}/update`, {
        ApiKey: writer.apiKey,
        Title: 'New',
        NumHash: { NumA: 2 },
      });
      expect(updated.body).toEqual({ Id: id, StatusCode: 200, Message: '" New " has been updated.' });
      const data = await firstOf(id);
      expect(data).toMatchObject({ Title: 'New', Ver: 2, ClassHash: { ClassA: 'a' }, NumHash: { NumA: 2 } });
      expect(data).toMatchObject({ Creator: accounts.admin.userId, Updator: writer.userId });
    });

    it('deletes a record and counts it out of its site', async () => {
      const site = await createSite(stack.url, admin, 0, { ReferenceType: 'Issues' });
      const id = await record({ Title: 'Gone' }, admin, site);
      const deleted = await post(`/api/items/${id}/delete`, { ApiKey: admin });
      expect(deleted.body).toEqual({ Id: id, StatusCode: 200, Message: '" Gone " has been deleted.' });
      expect((await get(id)).StatusCode).toBe(404);
      expect((await get(site)).Response).toMatchObject({ TotalCount: 0, Data: [] });
    });

    it.each([
      ['get', 'Read', 'record', `User,-1,14`],
      ['get', 'Read (a page)', 'site', `User,-1,14`],
      ['create', 'Read (Create alone)', 'site', `User,-1,2`],
      ['create', 'Read (nothing at all)', 'site', `User,-1,0`],
    ])(
      'answers %s without %s as if nothing were there (404, as the reference)',
      async (route, _flag, kind, permission) => {
        const site = await createSite(stack.url, admin, 0, {
          ReferenceType: 'Results',
          Permissions: [permission],
        });
        const id = kind === 'site' ? site : await record({}, admin, site);
        const result = await post(`/api/items/${id}/${route}`, { ApiKey: accounts.user.apiKey });
        expect(result.body).toEqual({
          Id: id,
          StatusCode: 404,
          Message: 'The specified information was not found.',
        });
      },
    );

    it.each([
      ['create', 'Create', 'site', `User,-1,13`],
      ['update', 'Update', 'record', `User,-1,11`],
      ['delete', 'Delete', 'record', `User,-1,7`],
    ])('refuses %s without %s (403)', async (route, _flag, kind, permission) => {
      const site = await createSite(stack.url, admin, 0, {
        ReferenceType: 'Results',
        Permissions: [permission],
      });
      const id = kind === 'site' ? site : await record({}, admin, site);
      const result = await post(`/api/items/${id}/${route}`, { ApiKey: accounts.user.apiKey });
      expect(result.body).toEqual({
        Id: id,
        StatusCode: 403,
        Message: 'You do not have permission to perform this operation.',
      });
    });

    it.each(['update', 'delete', 'get'])('answers 404 for %s of a nonexistent record', async (route) => {
      expect((await post(`/api/items/987654321/${route}`, { ApiKey: admin })).body.StatusCode).toBe(404);
    });
  });

  describe('ProcessId and ProcessIds', () => {
    it.each([
      ['ProcessId', { ProcessId: 1 }],
      ['ProcessId as a numeric string', { ProcessId: '3' }],
      ['ProcessIds', { ProcessIds: [1, 2] }],
      ['both, null among the ids', { ProcessId: 5, ProcessIds: [null, 4] }],
    ])(
      'accepts %s on create and update, with no effect (Kiroku sites hold no Processes)',
      async (_case, ids) => {
        const created = await post(`/api/items/${table}/create`, {
          ApiKey: writer.apiKey,
          Title: 'P',
          ...ids,
        });
        expect(created.body).toEqual({
          Id: expect.any(Number),
          StatusCode: 200,
          Message: '" P " has been created.',
        });
        const id = Number(created.body.Id);
        const updated = await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey, Status: 200, ...ids });
        expect(updated.body).toEqual({ Id: id, StatusCode: 200, Message: '" P " has been updated.' });
        // Its creator updating it the same day: no new version (AutoVerUpType Default).
        expect(await firstOf(id)).toMatchObject({ Title: 'P', Status: 200, Ver: 1 });
      },
    );

    it.each([
      ['a ProcessId that is no number', { ProcessId: 'first' }, 'ProcessId'],
      ['a ProcessIds that is no list', { ProcessIds: 1 }, 'ProcessIds'],
      ['a ProcessIds item that is no integer', { ProcessIds: [1.5] }, 'ProcessIds.0'],
    ])('answers 400 for %s, naming it', async (_case, ids, property) => {
      const result = await post(`/api/items/${table}/create`, { ApiKey: writer.apiKey, ...ids });
      expect(result.body).toMatchObject({
        StatusCode: 400,
        Errors: [expect.objectContaining({ Property: property })],
      });
    });
  });

  describe('locking', () => {
    it('refuses others with 405 until the locker unlocks', async () => {
      const id = await record({ Title: 'Locked' }, writer.apiKey);
      expect((await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey, Locked: true })).status).toBe(
        200,
      );
      for (const route of ['update', 'delete']) {
        const refused = await post(`/api/items/${id}/${route}`, { ApiKey: other.apiKey, Title: 'x' });
        expect(refused.status).toBe(405);
        expect(refused.body).toEqual({
          Id: id,
          StatusCode: 405,
          Message: expect.stringMatching(
            new RegExp(
              `^Record ${id} has been locked by ${writer.loginId} at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.$`,
            ),
          ),
        });
      }
      expect((await post(`/api/items/${id}/update`, { ApiKey: other.apiKey, Locked: false })).status).toBe(
        405,
      );
      expect((await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey, ClassA: 'mine' })).status).toBe(
        200,
      );
      expect((await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey, Locked: false })).status).toBe(
        200,
      );
      expect((await post(`/api/items/${id}/update`, { ApiKey: other.apiKey, Title: 'free' })).status).toBe(
        200,
      );
    });

    it('lets a tenant manager change and unlock a locked record', async () => {
      const id = await record({ Locked: true }, writer.apiKey);
      expect((await post(`/api/items/${id}/update`, { ApiKey: other.apiKey, Title: 'x' })).status).toBe(405);
      expect((await post(`/api/items/${id}/update`, { ApiKey: admin, Locked: false })).status).toBe(200);
      expect((await post(`/api/items/${id}/update`, { ApiKey: other.apiKey, Title: 'x' })).status).toBe(200);
    });
  });

  describe('daily API limit', () => {
    it('counts create, get, update and delete per site, then answers 429', async () => {
      useSettings(loadSettings({ KIROKU_PARAM_Api_LimitPerSite: '4' }));
      const site = await createSite(stack.url, admin, 0, { ReferenceType: 'Issues' });
      const created = await post(`/api/items/${site}/create`, { ApiKey: admin, Title: 'a' });
      expect(created.body).toMatchObject({ StatusCode: 200, LimitPerDate: 4, LimitRemaining: 3 });
      const id = Number(created.body.Id);
      expect(await get(id)).toMatchObject({ StatusCode: 200, LimitPerDate: 4, LimitRemaining: 2 });
      const updated = await post(`/api/items/${id}/update`, { ApiKey: admin, Title: 'b' });
      expect(updated.body).toMatchObject({ LimitPerDate: 4, LimitRemaining: 1 });
      expect((await get(site)).LimitRemaining).toBe(0);
      const over = await post(`/api/items/${id}/delete`, { ApiKey: admin });
      expect(over.status).toBe(429);
      expect(over.body).toEqual({
        Id: id,
        StatusCode: 429,
        Message: `The API limit (4 Requests/Day) that can be used on the site with ID ${site} has been exceeded.`,
      });
      expect((await get(id)).StatusCode).toBe(429);
      const elsewhere = await post(`/api/items/${table}/create`, { ApiKey: admin });
      expect(elsewhere.body).toMatchObject({ StatusCode: 200, LimitRemaining: 3 });
    });

    it('leaves the limit fields out when the limit is 0', async () => {
      const created = await post(`/api/items/${table}/create`, { ApiKey: admin });
      expect(created.body).not.toHaveProperty('LimitPerDate');
      expect(await get(Number(created.body.Id))).not.toHaveProperty('LimitRemaining');
    });
  });
});
