import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * `items/{siteId}/copysitepackage` as `$p.apiCopySitePackage` and the manual's sample call it: the
 * selected sites copied under TargetSiteId, records only where IncludeData and Export allow, the answer's
 * Data a JSON text; failures in the error envelope with their status, nothing copied.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
/** ManageSite on `source` and `target`, Read only on `readOnly`, nothing on `hidden`. */
let manager: TestUser;
const tree = {} as Record<
  'source' | 'folder' | 'table' | 'own' | 'target' | 'readOnly' | 'hidden' | 'unmanaged',
  number
>;

interface Copy {
  OldSiteId: number;
  NewSiteId: number;
  ReferenceType: string;
  Title: string;
}

const copy = (siteId: number, body: object, key = admin) =>
  call(stack.url, `/api/items/${siteId}/copysitepackage`, { ApiVersion: 1.1, ApiKey: key, ...body });
const copiesOf = (body: Record<string, unknown>) =>
  JSON.parse(String((body.Response as { Data: string }).Data)) as Copy[];
const getSite = async (siteId: number) =>
  (
    (await call(stack.url, `/api/items/${siteId}/getsite`, { ApiKey: admin })).body.Response as {
      Data: Record<string, unknown>;
    }
  ).Data;
const records = async (siteId: number) =>
  (
    (await call(stack.url, `/api/items/${siteId}/get`, { ApiKey: admin })).body.Response as {
      Data: { Title: string }[];
    }
  ).Data.map((record) => record.Title);
const children = async (siteId: number) =>
  (
    (await call(stack.url, `/api/items/${siteId}/childsites`, { ApiKey: admin })).body.Response as
      | {
          Data?: { SiteId: number }[];
        }
      | undefined
  )?.Data ?? [];

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  manager = await createUser(stack.url, admin, `copier-${Date.now()}`);
  const managing = [`User,${manager.userId},511`];
  // source (manager: 511) ─┬─ folder ── table (Results, 2 records)
  //                        └─ own (Issues, its own permissions, Notifications)
  tree.source = await createSite(stack.url, admin, 0, { Title: 'source', Permissions: managing });
  tree.folder = await createSite(stack.url, admin, tree.source, { Title: 'folder' });
  tree.table = await createSite(stack.url, admin, tree.folder, { Title: 'table', ReferenceType: 'Results' });
  tree.own = await createSite(stack.url, admin, tree.source, {
    Title: 'own',
    ReferenceType: 'Issues',
    InheritPermission: 0,
    Permissions: [`User,${manager.userId},511`, 'User,-1,1'],
  });
  for (const title of ['first', 'second']) await createRecord(stack.url, admin, tree.table, { Title: title });
  tree.target = await createSite(stack.url, admin, 0, { Title: 'target', Permissions: managing });
  tree.readOnly = await createSite(stack.url, admin, 0, {
    Title: 'read only',
    ReferenceType: 'Results',
    Permissions: [`User,${manager.userId},1`],
  });
  tree.hidden = await createSite(stack.url, admin, 0, { Title: 'hidden', ReferenceType: 'Results' });
  tree.unmanaged = await createSite(stack.url, admin, 0, {
    Title: 'unmanaged',
    Permissions: [`User,${manager.userId},1`],
  });
});
afterAll(() => stack?.close());

describe('items/copysitepackage', () => {
  it('copies the manual’s sample: a folder with its table and data, renamed, under TargetSiteId', async () => {
    const result = await copy(tree.source, {
      TargetSiteId: tree.target,
      SiteTitle: 'copy of source',
      SelectedSites: [
        { SiteId: tree.source },
        { SiteId: tree.folder },
        { SiteId: tree.table, IncludeData: true },
      ],
      IncludeSitePermission: false,
      IncludeRecordPermission: true,
      IncludeColumnPermission: false,
      IncludeNotifications: true,
      IncludeReminders: true,
    });
    expect(result.status).toBe(200);
    expect(Object.keys(result.body)).toEqual(['StatusCode', 'Response']);
    expect(typeof (result.body.Response as { Data: unknown }).Data).toBe('string');
    const copies = copiesOf(result.body);
    expect(
      copies.map(({ OldSiteId, ReferenceType, Title }) => ({ OldSiteId, ReferenceType, Title })),
    ).toEqual([
      { OldSiteId: tree.source, ReferenceType: 'Sites', Title: 'copy of source' },
      { OldSiteId: tree.folder, ReferenceType: 'Sites', Title: 'folder' },
      { OldSiteId: tree.table, ReferenceType: 'Results', Title: 'table' },
    ]);
    const [source, folder, table] = copies.map((copied) => copied.NewSiteId) as [number, number, number];
    expect(await getSite(source)).toMatchObject({ ParentId: tree.target, Title: 'copy of source' });
    expect(await getSite(folder)).toMatchObject({ ParentId: source });
    expect(await getSite(table)).toMatchObject({ ParentId: folder });
    expect((await records(table)).sort()).toEqual(['first', 'second']);
    expect(await records(tree.table)).toHaveLength(2);
  });

  it('puts each selected site whose parent was not selected under the target, without data unless asked', async () => {
    const result = await copy(tree.source, {
      TargetSiteId: tree.target,
      SelectedSites: [{ SiteId: tree.table }, { SiteId: tree.own }],
    });
    expect(result.status).toBe(200);
    const [table, own] = copiesOf(result.body) as [Copy, Copy];
    expect(await getSite(table.NewSiteId)).toMatchObject({ ParentId: tree.target, Title: 'table' });
    expect(await records(table.NewSiteId)).toEqual([]);
    // Without IncludeSitePermission the copy with permissions of its own has its copier as manager only.
    const ownCopy = await getSite(own.NewSiteId);
    expect(ownCopy).toMatchObject({ ParentId: tree.target, InheritPermission: own.NewSiteId });
    expect(ownCopy.Permissions).toEqual([`User,${accounts.admin.userId},511`]);
  });

  it('keeps the site permissions with IncludeSitePermission', async () => {
    const result = await copy(tree.source, {
      TargetSiteId: tree.target,
      SelectedSites: [{ SiteId: tree.own }],
      IncludeSitePermission: true,
    });
    const [own] = copiesOf(result.body) as [Copy];
    expect((await getSite(own.NewSiteId)).Permissions).toEqual(
      expect.arrayContaining([`User,${manager.userId},511`, 'User,-1,1']),
    );
  });

  it('lets a site manager copy what they may, into a folder they manage', async () => {
    const result = await copy(
      tree.source,
      { TargetSiteId: tree.target, SelectedSites: [{ SiteId: tree.table, IncludeData: true }] },
      manager.apiKey,
    );
    expect(result.status, result.text).toBe(200);
    const [table] = copiesOf(result.body) as [Copy];
    expect((await records(table.NewSiteId)).sort()).toEqual(['first', 'second']);
  });

  it.each([
    [
      'no ManageSite on the URL site',
      () => tree.readOnly,
      () => ({ SelectedSites: [{ SiteId: tree.readOnly }] }),
      403,
    ],
    ['a URL site it cannot see', () => tree.hidden, () => ({ SelectedSites: [{ SiteId: tree.table }] }), 403],
    [
      'a selected site it cannot read',
      () => tree.source,
      () => ({ TargetSiteId: tree.target, SelectedSites: [{ SiteId: tree.hidden }] }),
      404,
    ],
    [
      'data of a site without Export',
      () => tree.source,
      () => ({ TargetSiteId: tree.target, SelectedSites: [{ SiteId: tree.readOnly, IncludeData: true }] }),
      403,
    ],
    [
      'a target it does not manage',
      () => tree.source,
      () => ({ TargetSiteId: tree.unmanaged, SelectedSites: [{ SiteId: tree.table }] }),
      403,
    ],
    [
      'the top level',
      () => tree.source,
      () => ({ TargetSiteId: 0, SelectedSites: [{ SiteId: tree.table }] }),
      403,
    ],
    ['no SelectedSites', () => tree.source, () => ({ TargetSiteId: tree.target, SelectedSites: [] }), 400],
    ['a URL site that is none', () => 999_999_999, () => ({ SelectedSites: [{ SiteId: tree.table }] }), 404],
  ])('refuses %s for a site manager and copies nothing', async (_case, url, body, status) => {
    const before = (await children(tree.target)).length;
    const result = await copy(url(), body(), manager.apiKey);
    expect(result.status, result.text).toBe(status);
    expect(result.body).toMatchObject({ StatusCode: status, Message: expect.any(String) });
    expect((await children(tree.target)).length).toBe(before);
  });

  it('refuses with 400 a TargetSiteId that is no folder', async () => {
    const result = await copy(tree.source, {
      TargetSiteId: tree.table,
      SelectedSites: [{ SiteId: tree.folder }],
    });
    expect(result.status).toBe(400);
  });

  it('refuses IncludeRecordPermission for records with permissions of their own rather than drop them', async () => {
    const recordId = await createRecord(stack.url, admin, tree.own, { Title: 'private' });
    const updated = await call(stack.url, `/api/items/${recordId}/update`, {
      ApiKey: admin,
      RecordPermissions: [`User,${manager.userId},1`],
    });
    expect(updated.body.StatusCode, updated.text).toBe(200);
    const body = {
      TargetSiteId: tree.target,
      SelectedSites: [{ SiteId: tree.own, IncludeData: true }],
      IncludeRecordPermission: true,
    };
    const refused = await copy(tree.source, body);
    expect(refused.status).toBe(400);
    expect(String(refused.text)).toContain('IncludeRecordPermission');
    const copied = await copy(tree.source, { ...body, IncludeRecordPermission: false });
    expect(copied.status).toBe(200);
  });

  it('is not there for another tenant: its manager gets 404 for these sites', async () => {
    const result = await copy(
      tree.source,
      { SelectedSites: [{ SiteId: tree.table }] },
      accounts.other.apiKey,
    );
    expect(result.status).toBe(404);
  });
});
