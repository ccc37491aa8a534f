import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { logger } from '../../lib/log';
import { createUser, logIn, seedAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// Where server scripts run on the record APIs and what comes of them (CONTRACT section 8).

let stack: Stack;
let admin: string;
let writer: TestUser;
let cookies: string[];

const post = (path: string, body?: unknown) => call(stack.url, path, body);
/** As the browser wrappers call: the login cookie and X-Requested-With. */
const browser = (path: string, body: object = {}) =>
  call(stack.url, path, body, { cookies, headers: { 'x-requested-with': 'XMLHttpRequest' } });
const record = async (id: number) => {
  const read = await post(`/api/items/${id}/get`, { ApiKey: admin });
  return (read.body.Response as { Data: Record<string, unknown>[] } | undefined)?.Data[0];
};
const withScripts = (ServerScripts: object[]) =>
  createSite(stack.url, admin, 0, {
    ReferenceType: 'Issues',
    Permissions: [`User,${writer.userId},15`],
    SiteSettings: { ServerScripts },
  });
const logged = () =>
  vi
    .mocked(logger.info)
    .mock.calls.filter(([message]) => message === 'server script log')
    .map(([, extra]) => (extra as { message: string }).message);

beforeAll(async () => {
  stack = await startStack();
  const accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  writer = await createUser(stack.url, admin, `writer-${Date.now()}`);
  cookies = await logIn(stack.url, writer.loginId);
});
beforeEach(() => {
  useSettings(undefined);
  // Observes the real logger (it still logs): the After conditions' only trace is their log.
  vi.restoreAllMocks();
  vi.spyOn(logger, 'info');
});
afterAll(() => stack.close());

describe('server scripts on records', () => {
  describe('conditions', () => {
    const all = [
      'WhenloadingRecord',
      'BeforeCreate',
      'AfterCreate',
      'BeforeUpdate',
      'AfterUpdate',
      'BeforeDelete',
      'AfterDelete',
    ];
    let siteId: number;
    beforeAll(async () => {
      siteId = await withScripts(
        all.map((name) => ({ Name: name, Body: `context.Log('${name}');`, [name]: true })),
      );
    });

    it.each([
      [
        'create',
        async () => void (await createRecord(stack.url, writer.apiKey, siteId)),
        ['BeforeCreate', 'AfterCreate'],
      ],
      [
        'update',
        async (id: number) => void (await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey })),
        ['BeforeUpdate', 'AfterUpdate'],
      ],
      [
        'delete',
        async (id: number) => void (await post(`/api/items/${id}/delete`, { ApiKey: writer.apiKey })),
        ['BeforeDelete', 'AfterDelete'],
      ],
      [
        'get of a record',
        async (id: number) => void (await post(`/api/items/${id}/get`, { ApiKey: writer.apiKey })),
        ['WhenloadingRecord'],
      ],
      [
        'get of the site',
        async () => void (await post(`/api/items/${siteId}/get`, { ApiKey: writer.apiKey })),
        ['WhenloadingRecord'],
      ],
    ])('%s fires its conditions and nothing else', async (_, operation, expected) => {
      useSettings({
        ...loadSettings(),
        Script: { ...loadSettings().Script, ServerScript: false, ServerScriptTimeOut: 10000 },
      });
      const id = await createRecord(stack.url, writer.apiKey, siteId);
      useSettings(undefined);
      vi.mocked(logger.info).mockClear();
      await operation(id);
      const seen = logged();
      // A site read runs WhenloadingRecord once per record shown.
      expect([...new Set(seen)]).toEqual(expected);
    });

    it('runs Before conditions before the save and After conditions after it', async () => {
      const look = (name: string) =>
        `const found = items.Get(context.Id); context.Log('${name}:' + (found && found[0] ? found[0].Title : 'none'));`;
      const moments = await withScripts(
        ['BeforeCreate', 'AfterCreate', 'BeforeUpdate', 'AfterUpdate', 'BeforeDelete', 'AfterDelete'].map(
          (name) => ({ Body: look(name), [name]: true }),
        ),
      );
      const created = await post(`/api/items/${moments}/create`, { ApiKey: writer.apiKey, Title: 'one' });
      const id = Number(created.body.Id);
      await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey, Title: 'two' });
      await post(`/api/items/${id}/delete`, { ApiKey: writer.apiKey });
      // On create, context.Id is the site's: items.Get of a site lists its records.
      expect(logged()).toEqual([
        'BeforeCreate:none',
        'AfterCreate:one',
        'BeforeUpdate:one',
        'AfterUpdate:two',
        'BeforeDelete:two',
        'AfterDelete:none',
      ]);
    });

    it('runs none with Script.ServerScript false', async () => {
      useSettings({
        ...loadSettings(),
        Script: { ...loadSettings().Script, ServerScript: false, ServerScriptTimeOut: 10000 },
      });
      const id = await createRecord(stack.url, writer.apiKey, siteId);
      await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey });
      expect(logged()).toEqual([]);
    });
  });

  describe('the model', () => {
    it('saves what a BeforeUpdate script writes, from the query string of a cookie call', async () => {
      const siteId = await withScripts([
        {
          Body: "model.ClassA = context.QueryStrings.Data('color'); model.NumB = context.QueryStrings.Int('n') + 1;",
          BeforeUpdate: true,
        },
      ]);
      const id = await createRecord(stack.url, writer.apiKey, siteId);
      const updated = await browser(`/api/items/${id}/update?color=%E8%B5%A4+blue&N=41`, {
        Title: 'changed',
      });
      expect(updated.body).toMatchObject({ StatusCode: 200, Id: id });
      expect(await record(id)).toMatchObject({
        Title: 'changed',
        ClassHash: { ClassA: '赤 blue' },
        NumHash: { NumB: 42 },
      });
    });

    it('gives an ApiKey caller empty QueryStrings, but the raw context.Query', async () => {
      const siteId = await withScripts([
        {
          Body: "model.ClassA = '[' + context.QueryStrings.Data('color') + ']' + context.Query; model.CheckA = context.QueryStrings.Bool('b');",
          BeforeUpdate: true,
        },
      ]);
      const id = await createRecord(stack.url, writer.apiKey, siteId);
      await post(`/api/items/${id}/update?color=red&b=1`, { ApiKey: writer.apiKey });
      expect(await record(id)).toMatchObject({
        ClassHash: { ClassA: '[]?color=red&b=1' },
        CheckHash: { CheckA: false },
      });
      await browser(`/api/items/${id}/update?color=red&b=1`);
      expect(await record(id)).toMatchObject({
        ClassHash: { ClassA: '[red]?color=red&b=1' },
        CheckHash: { CheckA: true },
      });
    });

    it('shows saved as the stored record and context as the request', async () => {
      const siteId = await withScripts([
        {
          Body: `model.DescriptionA = JSON.stringify([saved.Title, model.Title, context.UserId, context.LoginId,
                 context.SiteId, context.Id, context.HttpMethod, context.Controller, context.Action, context.TenantId]);`,
          BeforeUpdate: true,
        },
      ]);
      const id = await createRecord(stack.url, writer.apiKey, siteId, { Title: 'old' });
      await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey, Title: 'new' });
      const shown = (await record(id)) as { DescriptionHash: { DescriptionA: string } };
      expect(JSON.parse(shown.DescriptionHash.DescriptionA)).toEqual([
        'old',
        'new',
        writer.userId,
        writer.loginId,
        siteId,
        id,
        'POST',
        'items',
        'update',
        1,
      ]);
    });

    it.each([
      ['a field that is no column', 'model.Colour = "red";', 'model.Colour: no such column'],
      ['a read-only field', 'model.Ver = 99;', 'model.Ver: is read-only'],
      ['a number as text', 'model.NumA = "12";', 'model.NumA: wrong type (string)'],
      ['an object as text', 'model.ClassA = { a: 1 };', 'model.ClassA: wrong type (object)'],
      ['text as a check', 'model.CheckA = "true";', 'model.CheckA: wrong type (string)'],
      ['a bad date', 'model.DateA = "tomorrow";', 'model.DateA: wrong type (string)'],
      ['NaN', 'model.NumA = 0 / 0;', 'model.NumA: wrong type (null)'],
      ['a BigInt', 'model.NumA = 1n;', 'model.NumA: wrong type (bigint)'],
      ['a removed field', 'delete model.Title;', 'model.Title: cannot be removed'],
    ])('refuses %s with 400 naming it, saving nothing', async (_, body, message) => {
      const siteId = await withScripts([{ Body: body, BeforeUpdate: true }]);
      const id = await createRecord(stack.url, writer.apiKey, siteId, { Title: 'kept' });
      const result = await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey, Title: 'lost' });
      expect(result.status).toBe(400);
      expect(result.body.Message).toContain(message);
      expect(await record(id)).toMatchObject({ Title: 'kept', Ver: 1 });
    });

    it('changes what WhenloadingRecord answers, never what is stored', async () => {
      const siteId = await withScripts([
        { Body: "model.Title = model.Title + ' (shown)';", WhenloadingRecord: true },
      ]);
      const id = await createRecord(stack.url, writer.apiKey, siteId, { Title: 'stored' });
      expect(await record(id)).toMatchObject({ Title: 'stored (shown)' });
      const list = await post(`/api/items/${siteId}/get`, { ApiKey: admin });
      expect((list.body.Response as { Data: object[] }).Data).toEqual([
        expect.objectContaining({ Title: 'stored (shown)' }),
      ]);
      useSettings({
        ...loadSettings(),
        Script: { ...loadSettings().Script, ServerScript: false, ServerScriptTimeOut: 10000 },
      });
      expect(await record(id)).toMatchObject({ Title: 'stored', Ver: 1 });
    });
  });

  describe('scripts of a site', () => {
    it('skips Disabled scripts, prepends Shared ones, and runs the rest in list order', async () => {
      const siteId = await withScripts([
        { Body: 'model.ClassA += "1";', BeforeUpdate: true },
        { Body: 'model.ClassA += "never";', BeforeUpdate: true, Disabled: true },
        { Body: 'const mark = (text) => text + "!";', Shared: true },
        { Body: 'model.ClassA = mark(model.ClassA + "2");', BeforeUpdate: true },
        { Body: 'model.ClassA += "never";', Shared: true, Disabled: true },
      ]);
      const id = await createRecord(stack.url, writer.apiKey, siteId, { ClassA: '' });
      await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey });
      expect(await record(id)).toMatchObject({ ClassHash: { ClassA: '12!' } });
    });

    it('shares UserData between the scripts of a request, and starts empty in the next', async () => {
      const siteId = await withScripts([
        { Body: 'context.UserData.n = (context.UserData.n || 0) + 1;', BeforeUpdate: true },
        { Body: 'model.NumA = context.UserData.n * 10 + (context.UserData.m || 0);', BeforeUpdate: true },
        { Body: 'context.UserData.m = 5;', BeforeUpdate: true },
      ]);
      const id = await createRecord(stack.url, writer.apiKey, siteId);
      for (let round = 0; round < 2; round++) {
        await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey });
        expect(await record(id)).toMatchObject({ NumHash: { NumA: 10 } });
      }
    });

    it('lets Functionalize return early', async () => {
      const siteId = await withScripts([
        { Body: 'model.ClassA = "a"; return; model.ClassA = "b";', BeforeUpdate: true, Functionalize: true },
      ]);
      const id = await createRecord(stack.url, writer.apiKey, siteId);
      expect((await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey })).body.StatusCode).toBe(200);
      expect(await record(id)).toMatchObject({ ClassHash: { ClassA: 'a' } });
    });

    it('leaves the answer as it is after AddResponse and ResponseSet', async () => {
      const siteId = await withScripts([
        {
          Body: 'context.AddResponse("Set", "NumA", 1); context.ResponseSet("NumB", 2);',
          BeforeUpdate: true,
        },
      ]);
      const id = await createRecord(stack.url, writer.apiKey, siteId, { Title: 't' });
      const result = await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey });
      expect(result.body).toEqual({ Id: id, StatusCode: 200, Message: '" t " has been updated.' });
    });
  });
});
