import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, seedAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// SiteSettings.ServerScripts (CONTRACT section 8): where they are set, who may set them, their limits.

let stack: Stack;
let admin: string;
let writer: TestUser;
let manager: TestUser;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const scriptsOf = async (siteId: number) => {
  const read = await post(`/api/items/${siteId}/getsite`, { ApiKey: admin });
  return (read.body.Response as { Data: { SiteSettings: { ServerScripts?: Record<string, unknown>[] } } })
    .Data.SiteSettings.ServerScripts;
};
const update = (siteId: number, ServerScripts: unknown, key = admin) =>
  post(`/api/items/${siteId}/updatesitesettings`, { ApiKey: key, ServerScripts });

beforeAll(async () => {
  stack = await startStack();
  const accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  writer = await createUser(stack.url, admin, `writer-${Date.now()}`);
  manager = await createUser(stack.url, admin, `manager-${Date.now()}`);
});
afterAll(() => stack.close());

const issues = (body: object = {}) =>
  createSite(stack.url, admin, 0, {
    ReferenceType: 'Issues',
    Permissions: [`User,${writer.userId},15`, `User,${manager.userId},143`],
    ...body,
  });

describe('SiteSettings.ServerScripts', () => {
  it('takes the reference form names as aliases on createsite and numbers the scripts', async () => {
    const siteId = await issues({
      SiteSettings: {
        Other: { kept: true },
        ServerScripts: [
          { ServerScriptTitle: 'one', ServerScriptBody: 'a', ServerScriptBeforeCreate: 1 },
          { Title: 'two', body: 'b', afterupdate: true, TimeOut: 500 },
        ],
      },
    });
    expect(await scriptsOf(siteId)).toEqual([
      { Id: 1, Title: 'one', Body: 'a', BeforeCreate: true },
      { Id: 2, Title: 'two', Body: 'b', AfterUpdate: true, TimeOut: 500 },
    ]);
  });

  describe('updatesitesettings', () => {
    it('adds, changes by Id and removes scripts, keeping the rest of the settings', async () => {
      const siteId = await issues({ SiteSettings: { Kept: 1, ServerScripts: [{ Id: 3, Body: 'x' }] } });
      expect((await update(siteId, [{ Body: 'new', ServerScriptBeforeUpdate: true }])).body).toMatchObject({
        StatusCode: 200,
      });
      expect(await scriptsOf(siteId)).toEqual([
        { Id: 3, Body: 'x' },
        { Id: 4, Body: 'new', BeforeUpdate: true },
      ]);
      await update(siteId, [{ Id: 3, Disabled: true, Name: 'renamed' }]);
      await update(siteId, [{ Id: 4, Delete: true }]);
      expect(await scriptsOf(siteId)).toEqual([{ Id: 3, Body: 'x', Disabled: true, Name: 'renamed' }]);
      const read = await post(`/api/items/${siteId}/getsite`, { ApiKey: admin });
      expect((read.body.Response as { Data: { SiteSettings: object } }).Data.SiteSettings).toMatchObject({
        Kept: 1,
      });
    });

    it.each([
      ['a writer without ManageSite', () => writer.apiKey, 403],
      ['a holder of ManageSite', () => manager.apiKey, 200],
    ])('answers %s with %d', async (_, key, status) => {
      const siteId = await issues();
      expect((await update(siteId, [{ Body: 'x' }], key())).body.StatusCode).toBe(status);
    });

    it('refuses updatesite from a writer too', async () => {
      const siteId = await issues();
      const result = await post(`/api/items/${siteId}/updatesite`, {
        ApiKey: writer.apiKey,
        SiteSettings: { ServerScripts: [{ Body: 'x' }] },
      });
      expect(result.body.StatusCode).toBe(403);
    });

    it("answers 404 for another tenant's site", async () => {
      const accounts = await seedOther();
      const siteId = await issues();
      expect((await update(siteId, [{ Body: 'x' }], accounts)).body.StatusCode).toBe(404);
    });
  });

  describe('limits and bad input', () => {
    const body64k = 'x'.repeat(64 * 1024);
    it.each([
      ['a body of 64 KB', [{ Body: body64k }], 200],
      ['a body over 64 KB', [{ Body: `${body64k}x` }], 400],
      ['a body over 64 KB of UTF-8', [{ Body: 'あ'.repeat(22_000) }], 400],
      ['100 scripts', Array.from({ length: 100 }, () => ({ Body: 'x' })), 200],
      ['101 scripts', Array.from({ length: 101 }, () => ({ Body: 'x' })), 400],
      ['an unknown field', [{ Body: 'x', Sometimes: true }], 400],
      ['a screen condition set', [{ Body: 'x', BeforeOpeningPage: true }], 400],
      ['a screen condition off', [{ Body: 'x', BeforeOpeningPage: false }], 200],
      ['a new script without a Body', [{ Title: 'x' }], 400],
      ['a flag of the wrong type', [{ Body: 'x', BeforeUpdate: 'yes' }], 400],
      ['a negative TimeOut', [{ Body: 'x', TimeOut: -1 }], 400],
      ['not a list', { Body: 'x' }, 400],
    ])('updatesitesettings with %s: %d', async (_, scripts, status) => {
      const siteId = await issues();
      const result = await update(siteId, scripts);
      expect(result.body.StatusCode, result.text).toBe(status);
    });

    it('keeps at most 100 scripts when adding to a stored list', async () => {
      const siteId = await issues();
      await update(
        siteId,
        Array.from({ length: 100 }, () => ({ Body: 'x' })),
      );
      expect((await update(siteId, [{ Body: 'one more' }])).body.StatusCode).toBe(400);
      expect((await update(siteId, [{ Id: 100, Body: 'changed' }])).body.StatusCode).toBe(200);
    });

    it.each([
      ['createsite', { ServerScripts: [{ Body: 'x', Delete: true }] }],
      ['createsite', { ServerScripts: [{ Title: 'no body' }] }],
      ['createsite', { ServerScripts: 'x' }],
    ])('%s refuses %j', async (_, SiteSettings) => {
      const result = await post('/api/items/0/createsite', {
        ApiKey: admin,
        Title: 't',
        ReferenceType: 'Issues',
        SiteSettings,
      });
      expect(result.body.StatusCode).toBe(400);
    });
  });

  it('travels with a site package and back', async () => {
    const siteId = await issues({
      SiteSettings: { ServerScripts: [{ Title: 't', Body: 'model.ClassA = "x";', BeforeUpdate: true }] },
    });
    const exported = await post(`/api/items/${siteId}/exportsitepackage`, { ApiKey: admin });
    const pkg = (
      exported.body.Response as { Package: { Sites: { SiteSettings: Record<string, unknown> }[] } }
    ).Package;
    expect(pkg.Sites[0]?.SiteSettings).toEqual({
      Version: 1.017,
      ReferenceType: 'Issues',
      SiteId: siteId,
      ServerScripts: [{ Id: 1, Title: 't', Body: 'model.ClassA = "x";', BeforeUpdate: true }],
    });
    const imported = await post('/api/items/0/importsitepackage', { ApiKey: admin, Package: pkg });
    expect(imported.body.StatusCode, imported.text).toBe(200);
    expect(await scriptsOf(Number(imported.body.Id))).toEqual(await scriptsOf(siteId));
  });
});

async function seedOther(): Promise<string> {
  const tenant = await post('/api/tenants/create', {
    ApiKey: admin,
    TenantName: `Other ${Date.now()}`,
    AdminLoginId: `boss-${Date.now()}`,
    AdminPassword: 'correct horse battery staple',
  });
  return String(tenant.body.ApiKey);
}
