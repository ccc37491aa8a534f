import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useClock } from '../../lib/clock';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { createUser, seedAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// items.GetClosestSite (reference 2.4): the name index is kept by the stream handler, as under npm start.

let stack: Stack;
let admin: string;
let writer: TestUser;
const tree = { folder: 0, near: 0, far: 0, locked: 0, elsewhere: 0, origin: 0 };

const post = (path: string, body?: unknown) => call(stack.url, path, body);

async function indexed(origin: number, name: string, expected: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const found = await post(`/api/items/${origin}/GetClosestSiteId`, {
      ApiKey: admin,
      FindSiteNames: [name],
    });
    if ((found.body.Data as { SiteId: number }[] | undefined)?.[0]?.SiteId === expected) return;
    if (Date.now() - started > 10_000) throw new Error(`${name} not indexed after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  stack = await startStack({ streams: true });
  const accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  writer = await createUser(stack.url, admin, `writer-${Date.now()}`);
  const read = [`User,${writer.userId},1`];
  // folder ─┬─ near    (Issues, "target")       far (Issues, "target", top level)
  //         ├─ locked  (Issues, "locked": admin only)
  //         └─ origin  (Issues, the scripts)     elsewhere (Issues, top level)
  tree.folder = await createSite(stack.url, admin, 0, { Title: 'folder', Permissions: read });
  tree.near = await createSite(stack.url, admin, tree.folder, {
    ReferenceType: 'Issues',
    SiteName: 'target',
  });
  tree.far = await createSite(stack.url, admin, 0, {
    ReferenceType: 'Issues',
    SiteName: 'target',
    Permissions: read,
  });
  tree.locked = await createSite(stack.url, admin, tree.folder, {
    ReferenceType: 'Issues',
    SiteName: 'locked',
    InheritPermission: 0,
  });
  tree.elsewhere = await createSite(stack.url, admin, 0, { ReferenceType: 'Issues', Permissions: read });
  tree.origin = await createSite(stack.url, admin, tree.folder, {
    ReferenceType: 'Issues',
    InheritPermission: 0,
    Permissions: [`User,${writer.userId},15`],
    SiteSettings: {
      ServerScripts: [
        {
          Body: `const id = (site) => (site ? site.SiteId : null);
                 model.DescriptionA = JSON.stringify([id(items.GetClosestSite('target')),
                   id(items.GetClosestSite('target', ${tree.elsewhere})), id(items.GetClosestSite('locked')),
                   id(items.GetClosestSite('nobody')), id(items.GetClosestSite('')),
                   items.GetClosestSite('target') && items.GetClosestSite('target').ReferenceType]);`,
          BeforeUpdate: true,
        },
      ],
    },
  });
  await indexed(tree.origin, 'locked', tree.locked);
  await indexed(tree.elsewhere, 'target', tree.far);
});
afterAll(() => stack.close());
afterEach(() => {
  useSettings(undefined);
  useClock(undefined);
});

describe('items.GetClosestSite', () => {
  it('finds the nearest site of a name, within the permissions, counting the API limit', async () => {
    const id = await createRecord(stack.url, writer.apiKey, tree.origin);
    useSettings({ ...loadSettings(), Api: { LimitPerSite: 100 } });
    await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey });
    const read = await post(`/api/items/${id}/get`, { ApiKey: admin });
    const [shown] = (read.body.Response as { Data: { DescriptionHash: { DescriptionA: string } }[] }).Data;
    expect(JSON.parse(shown?.DescriptionHash.DescriptionA ?? '')).toEqual([
      tree.near,
      tree.far,
      null,
      null,
      null,
      'Issues',
    ]);
    // Asked three times in the request, `near` was read and counted three times, as each of the
    // reference's calls is a request of its own; the get below counts once more.
    const near = await post(`/api/items/${tree.near}/get`, { ApiKey: admin });
    expect(near.body.LimitRemaining).toBe(96);
  });

  it('answers null when the found site is over its daily API limit', async () => {
    // A new day, with two calls per site: the origin needs them for its create and update.
    useClock(() => Date.now() + 86_400_000);
    useSettings({ ...loadSettings(), Api: { LimitPerSite: 2 } });
    const id = await createRecord(stack.url, writer.apiKey, tree.origin);
    for (const site of [tree.near, tree.near, tree.far, tree.far]) {
      await post(`/api/items/${site}/get`, { ApiKey: admin });
    }
    expect((await post(`/api/items/${id}/update`, { ApiKey: writer.apiKey })).body.StatusCode).toBe(200);
    useSettings(undefined);
    const read = await post(`/api/items/${id}/get`, { ApiKey: admin });
    const [shown] = (read.body.Response as { Data: { DescriptionHash: { DescriptionA: string } }[] }).Data;
    expect(JSON.parse(shown?.DescriptionHash.DescriptionA ?? '')).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
