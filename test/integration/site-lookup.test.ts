import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { dynamo } from '../../lib/storage/clients';
import { tableName } from '../../lib/storage/tables';
import { logIn, seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { type CallOptions, call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * GetClosestSiteId through the gateway, with the name index kept by the stream handler. The search order
 * itself is tested case by case in test/unit/site-name-index.test.ts; here: the endpoint's rules and the
 * stream path (a change is seen by lookups within 2 s).
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
const tree = {} as Record<'top' | 'left' | 'origin' | 'sibling' | 'right' | 'far' | 'unique', number>;

const post = (path: string, body?: unknown, options?: CallOptions) => call(stack.url, path, body, options);
const lookup = (origin: number, names: unknown[], apiKey = admin) =>
  post(`/api/items/${origin}/GetClosestSiteId`, { ApiKey: apiKey, FindSiteNames: names });
const idOf = async (origin: number, name: string, apiKey = admin) =>
  ((await lookup(origin, [name], apiKey)).body.Data as { SiteId: number }[])[0]?.SiteId;

/** Waits until `probe` answers `expected` (the stream handler is asynchronous), and how long it took. */
async function seenWithin(probe: () => Promise<unknown>, expected: unknown): Promise<number> {
  const started = Date.now();
  for (;;) {
    if ((await probe()) === expected) return Date.now() - started;
    if (Date.now() - started > 10_000) throw new Error(`still not ${expected} after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  stack = await startStack({ streams: true });
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  // top ─┬─ left ──┬─ origin  (Results)
  //      │         └─ sibling (Results, "shared")
  //      └─ right ─┬─ far     (Results, "shared")
  //                └─ unique  (Issues, "unique")
  tree.top = await createSite(stack.url, admin, 0, { Title: 'top' });
  tree.left = await createSite(stack.url, admin, tree.top, { Title: 'left' });
  tree.origin = await createSite(stack.url, admin, tree.left, { Title: 'origin', ReferenceType: 'Results' });
  tree.sibling = await createSite(stack.url, admin, tree.left, {
    ReferenceType: 'Results',
    SiteName: 'shared',
  });
  tree.right = await createSite(stack.url, admin, tree.top, { Title: 'right' });
  tree.far = await createSite(stack.url, admin, tree.right, { ReferenceType: 'Results', SiteName: 'shared' });
  tree.unique = await createSite(stack.url, admin, tree.right, {
    ReferenceType: 'Issues',
    SiteName: 'unique',
  });
  await seenWithin(() => idOf(tree.origin, 'unique'), tree.unique);
});
afterAll(() => stack.close());
afterEach(() => useSettings(undefined));

describe('GetClosestSiteId', () => {
  it('answers {StatusCode, SiteId, Data} in the order asked, -1 for what is not found', async () => {
    const result = await lookup(tree.origin, ['shared', 'unique', 'nobody', '', null, 'shared']);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      StatusCode: 200,
      SiteId: tree.origin,
      Data: [
        { SiteName: 'shared', SiteId: tree.sibling },
        { SiteName: 'unique', SiteId: tree.unique },
        { SiteName: 'nobody', SiteId: -1 },
        { SiteName: '', SiteId: -1 },
        { SiteId: -1 },
        { SiteName: 'shared', SiteId: tree.sibling },
      ],
    });
  });

  it('answers on the lower-case path the script wrappers call', async () => {
    const result = await post(`/api/items/${tree.origin}/getclosestsiteid`, {
      ApiKey: admin,
      FindSiteNames: ['unique'],
    });
    expect(result.body.Data).toEqual([{ SiteName: 'unique', SiteId: tree.unique }]);
  });

  it('matches names case-sensitively', async () => {
    expect(await idOf(tree.origin, 'Shared')).toBe(-1);
  });

  it.each([
    ['FindSiteNames missing', { ApiKey: 'KEY' }, 400],
    ['FindSiteNames not an array', { ApiKey: 'KEY', FindSiteNames: 'shared' }, 400],
    ['a wrong ApiKey', { ApiKey: 'f'.repeat(128), FindSiteNames: [] }, 401],
  ])('answers %s with %i and the origin as Id', async (_case, body, status) => {
    const result = await post(`/api/items/${tree.origin}/GetClosestSiteId`, {
      ...body,
      ApiKey: body.ApiKey === 'KEY' ? admin : body.ApiKey,
    });
    expect(result.status).toBe(status);
    expect(result.body).toMatchObject({ Id: tree.origin, StatusCode: status });
  });

  it('checks FindSiteNames before the MIME type, and the MIME type after', async () => {
    useSettings(loadSettings({ ...process.env, KIROKU_PARAM_Security_MimeTypeCheckOnApi: 'true' }));
    const options = { contentType: 'text/plain' };
    const missing = await post(`/api/items/${tree.origin}/GetClosestSiteId`, { ApiKey: admin }, options);
    expect(missing.body).toMatchObject({ StatusCode: 400, Message: 'Invalid request.' });
    const mime = await post(
      `/api/items/${tree.origin}/GetClosestSiteId`,
      { ApiKey: admin, FindSiteNames: [] },
      options,
    );
    expect(mime.body).toMatchObject({ StatusCode: 400 });
  });

  it('accepts the login cookie (with X-Requested-With)', async () => {
    const cookies = await logIn(stack.url, accounts.admin.loginId);
    const result = await post(
      `/api/items/${tree.origin}/getclosestsiteid`,
      { FindSiteNames: ['unique'] },
      { cookies, headers: { 'x-requested-with': 'XMLHttpRequest' } },
    );
    expect(result.body.Data).toEqual([{ SiteName: 'unique', SiteId: tree.unique }]);
  });

  describe('permissions', () => {
    it('answers -1 for every name when the caller may not read the origin', async () => {
      expect(await idOf(tree.origin, 'unique', accounts.user.apiKey)).toBe(-1);
    });

    it('checks the chosen site only: no permission there is -1, with no second search', async () => {
      const user = accounts.user;
      const grant = `User,${user.userId},1`;
      // The user may read the origin's folder and the far namesake, not the near one.
      await post(`/api/items/${tree.top}/updatesite`, { ApiKey: admin, Permissions: [`User,1,511`, grant] });
      await post(`/api/items/${tree.sibling}/updatesite`, {
        ApiKey: admin,
        InheritPermission: tree.sibling,
        Permissions: ['User,1,511'],
      });
      expect(await idOf(tree.origin, 'unique', user.apiKey)).toBe(tree.unique);
      expect(await idOf(tree.origin, 'shared', user.apiKey)).toBe(-1);
      expect(await idOf(tree.far, 'shared', user.apiKey)).toBe(tree.far);
      // A permission change is seen at once: lookups check the live site, not the index.
      await post(`/api/items/${tree.sibling}/updatesite`, {
        ApiKey: admin,
        Permissions: ['User,1,511', grant],
      });
      expect(await idOf(tree.origin, 'shared', user.apiKey)).toBe(tree.sibling);
    });

    it('keeps tenants apart: another tenant sees neither the origin nor the names', async () => {
      const other = accounts.other.apiKey;
      expect(await idOf(tree.origin, 'unique', other)).toBe(-1);
      const theirs = await createSite(stack.url, other, 0, { ReferenceType: 'Results', SiteName: 'theirs' });
      await seenWithin(() => idOf(theirs, 'theirs', other), theirs);
      expect(await idOf(tree.origin, 'theirs')).toBe(-1);
      expect(await idOf(theirs, 'unique', other)).toBe(-1);
    });

    it('lets a privileged user use a unique name from a nonexistent origin, but not a shared one', async () => {
      expect(await idOf(999_999_999, 'unique')).toBe(tree.unique);
      expect(await idOf(999_999_999, 'shared')).toBe(-1);
    });
  });

  describe('storage reads', () => {
    /** The DynamoDB calls the service makes while `run` runs, observed on its own client. */
    async function callsDuring(run: () => Promise<unknown>): Promise<string[]> {
      const background = new Set([tableName('searchIndex'), tableName('tasks')]);
      const calls: string[] = [];
      const name = `count-${Math.random()}`;
      dynamo().middlewareStack.add(
        (next, context) => async (args) => {
          // The stream handlers of the same process (the search index's live path) share the client: a
          // call that touches only their tables (a batch names them in RequestItems) is theirs.
          const input = args.input as { TableName?: string; RequestItems?: Record<string, unknown> };
          const touched = input.TableName ? [input.TableName] : Object.keys(input.RequestItems ?? {});
          if (!touched.every((table) => background.has(table)) || touched.length === 0) {
            calls.push(String(context.commandName));
          }
          return next(args);
        },
        { step: 'initialize', name },
      );
      try {
        await run();
      } finally {
        dynamo().middlewareStack.remove(name);
      }
      return calls;
    }

    it('makes one storage call for a warm lookup: pointer, origin and the sites found in one read', async () => {
      await lookup(tree.origin, ['shared', 'unique']);
      const calls = await callsDuring(() => lookup(tree.origin, ['shared', 'unique', 'none']));
      expect(calls).toEqual(['BatchGetItemCommand']);
    });

    it('never answers from the index it holds once another instance has moved the pointer on', async () => {
      expect(await idOf(tree.origin, 'unique')).toBe(tree.unique);
      // A second instance (as another Lambda would) writes a new version; this one still holds the old.
      vi.resetModules();
      const other = await import('../../lib/sites/index-updater');
      const rename = (siteName: string) =>
        other.updateTenantIndex(1, [
          {
            kind: 'put',
            site: { siteId: tree.unique, parentId: tree.right, referenceType: 'Issues', siteName },
          },
        ]);
      await rename('renamed-elsewhere');
      try {
        expect(await idOf(tree.origin, 'renamed-elsewhere')).toBe(tree.unique);
        expect(await idOf(tree.origin, 'unique')).toBe(-1);
      } finally {
        await rename('unique');
      }
      expect(await idOf(tree.origin, 'unique')).toBe(tree.unique);
    });
  });

  describe('the stream path', () => {
    it.each([
      [
        'a rename',
        async () => {
          const site = await createSite(stack.url, admin, tree.right, {
            ReferenceType: 'Wikis',
            SiteName: 'before',
          });
          await seenWithin(() => idOf(tree.origin, 'before'), site);
          await post(`/api/items/${site}/updatesite`, { ApiKey: admin, SiteName: 'after' });
          return { probe: () => idOf(tree.origin, 'after'), expected: site };
        },
      ],
      [
        'a move',
        async () => {
          // Two namesakes: `near` in `right`, `moving` in a later folder; from the origin, `right` is
          // searched first. Moved into the origin's own folder, `moving` becomes its sibling and wins.
          const later = await createSite(stack.url, admin, tree.top, { Title: 'later' });
          const near = await createSite(stack.url, admin, tree.right, {
            ReferenceType: 'Results',
            SiteName: 'pair',
          });
          const moving = await createSite(stack.url, admin, later, {
            ReferenceType: 'Results',
            SiteName: 'pair',
          });
          await seenWithin(() => idOf(later, 'pair'), moving);
          expect(await idOf(tree.origin, 'pair')).toBe(near);
          await post(`/api/items/${moving}/updatesite`, { ApiKey: admin, ParentId: tree.left });
          return { probe: () => idOf(tree.origin, 'pair'), expected: moving };
        },
      ],
      [
        'a delete',
        async () => {
          const site = await createSite(stack.url, admin, tree.left, {
            ReferenceType: 'Results',
            SiteName: 'doomed',
          });
          await seenWithin(() => idOf(tree.origin, 'doomed'), site);
          await post(`/api/items/${site}/deletesite`, { ApiKey: admin });
          return { probe: () => idOf(tree.origin, 'doomed'), expected: -1 };
        },
      ],
    ])('sees %s within 2 s', async (_case, change) => {
      const { probe, expected } = await change();
      expect(await seenWithin(probe, expected)).toBeLessThan(2_000);
    });
  });
});
