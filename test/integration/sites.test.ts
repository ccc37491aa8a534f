import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

let stack: Stack;
let accounts: TestAccounts;
/** A plain user in `groupId` and in the dept `deptId`; `accounts.user` is in no group and no dept. */
let member: TestUser;
let groupId: number;
let deptId: number;
let otherDeptId: number;
/** A group whose only member is the dept `deptId`. */
let deptGroupId: number;
let admin: string;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const site = (parentId: number, body: object = {}, key = admin) => createSite(stack.url, key, parentId, body);
const statusOf = async (path: string, key: string, body: object = {}) =>
  (await post(path, { ApiKey: key, ...body })).body.StatusCode;
const forbidden = { StatusCode: 403, Message: 'You do not have permission to perform this operation.' };
const notFound = { StatusCode: 404, Message: 'The specified information was not found.' };

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  member = await createUser(stack.url, admin, `member-${Date.now()}`);
  const group = await post('/api/groups/create', {
    ApiKey: admin,
    GroupName: 'Readers',
    Members: [`User,${member.userId}`],
  });
  groupId = Number(group.body.Id);
  deptId = await createDept('Sales');
  otherDeptId = await createDept('Support');
  await post(`/api/users/${member.userId}/update`, { ApiKey: admin, DeptId: deptId });
  const deptGroup = await post('/api/groups/create', {
    ApiKey: admin,
    GroupName: 'Sales readers',
    Members: [`Dept,${deptId}`],
  });
  deptGroupId = Number(deptGroup.body.Id);
});

async function createDept(name: string): Promise<number> {
  const created = await post('/api/depts/create', { ApiKey: admin, DeptName: name });
  if (created.body.StatusCode !== 200) throw new Error(`depts/create: ${created.text}`);
  return Number(created.body.Id);
}
afterAll(() => stack.close());

describe('sites', () => {
  describe('createsite and getsite', () => {
    it('creates a top-level site and shows its apiModel, the creator holding 511', async () => {
      const created = await post('/api/items/0/createsite', {
        ApiKey: admin,
        Title: 'Projects',
        ReferenceType: 'Sites',
        SiteName: 'projects',
        SiteGroupName: 'g',
        Permissions: [`User,${accounts.user.userId},1`],
        SiteSettings: { Deep: { List: [1, { '': 'empty key' }] } },
      });
      expect(created.body).toEqual({
        Id: expect.any(Number),
        StatusCode: 200,
        Message: '" Projects " has been created.',
      });
      const id = Number(created.body.Id);
      const read = await post(`/api/items/${id}/getsite`, { ApiKey: accounts.user.apiKey });
      expect(read.status).toBe(200);
      expect(read.body).toEqual({
        StatusCode: 200,
        Response: {
          Data: {
            SiteId: id,
            TenantId: 1,
            Title: 'Projects',
            SiteName: 'projects',
            SiteGroupName: 'g',
            ReferenceType: 'Sites',
            ParentId: 0,
            InheritPermission: id,
            Permissions: [`User,${accounts.user.userId},1`, `User,${accounts.admin.userId},511`],
            // Stored as the reference stores them: Version, ReferenceType and SiteId always (CONTRACT 11).
            SiteSettings: {
              Version: 1.017,
              ReferenceType: 'Sites',
              SiteId: id,
              Deep: { List: [1, { '': 'empty key' }] },
            },
            Creator: 1,
            Updator: 1,
            CreatedTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
            UpdatedTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
            Ver: 1,
          },
        },
      });
    });

    it('takes property names in any case and a number as a title', async () => {
      const created = await post('/api/items/0/createsite', {
        apikey: admin,
        title: 7,
        referencetype: 'Wikis',
      });
      expect(created.body).toMatchObject({ StatusCode: 200, Message: '" 7 " has been created.' });
    });

    it.each([
      ['a 33-character SiteName', { SiteName: 'x'.repeat(33) }],
      ['a 33-character SiteGroupName', { SiteGroupName: 'x'.repeat(33) }],
      ['an unknown ReferenceType', { ReferenceType: 'Folders' }],
      ['no Title', { Title: undefined }],
      ['a Title object', { Title: {} }],
      ['a malformed permission', { Permissions: ['User,1'] }],
      ['permission bits over 511', { Permissions: ['User,-1,1024'] }],
      ['a user of another tenant', { Permissions: ['User,999999,1'] }],
      ['SiteSettings as an array', { SiteSettings: [] }],
      ['InheritPermission from a site not above it', { InheritPermission: 999999 }],
    ])('answers 400 for %s', async (_case, body) => {
      const result = await post('/api/items/0/createsite', {
        ApiKey: admin,
        Title: 'Bad',
        ReferenceType: 'Sites',
        ...body,
      });
      expect(result.body).toEqual({
        Id: 0,
        StatusCode: 400,
        Message: 'Invalid request.',
        Errors: expect.any(Array),
      });
    });

    it('accepts a 32-character SiteName, shared by two sites', async () => {
      const name = 'n'.repeat(32);
      await site(0, { SiteName: name });
      expect(await site(0, { SiteName: name })).toBeGreaterThan(0);
    });

    it('answers 400 for a parent that is not a folder', async () => {
      const table = await site(0, { ReferenceType: 'Issues' });
      expect(
        await statusOf(`/api/items/${table}/createsite`, admin, { Title: 'x', ReferenceType: 'Sites' }),
      ).toBe(400);
    });

    it('answers 401 without credentials', async () => {
      const result = await post('/api/items/0/createsite', { Title: 'x', ReferenceType: 'Sites' });
      expect(result.body).toEqual({ Id: 0, StatusCode: 401, Message: 'Unable to authorize.' });
    });

    it('leaves the top level to tenant managers', async () => {
      const result = await post('/api/items/0/createsite', {
        ApiKey: accounts.user.apiKey,
        Title: 'x',
        ReferenceType: 'Sites',
      });
      expect(result.body).toEqual({ Id: 0, ...forbidden });
    });

    it('lets a user with ManageSite on a folder create in it, and makes them its manager', async () => {
      const user = accounts.user;
      const folder = await site(0, { Permissions: [`User,${user.userId},129`] });
      const own = await site(folder, { InheritPermission: 0 }, user.apiKey);
      const update = await post(`/api/items/${own}/updatesite`, {
        ApiKey: user.apiKey,
        Permissions: [`User,${user.userId},511`, `User,${member.userId},1`],
      });
      expect(update.body.StatusCode).toBe(200);
      expect(await statusOf(`/api/items/${own}/getsite`, member.apiKey)).toBe(200);
      const readOnly = await site(0, { Permissions: [`User,${user.userId},3`] });
      expect(
        await statusOf(`/api/items/${readOnly}/createsite`, user.apiKey, {
          Title: 'x',
          ReferenceType: 'Sites',
        }),
      ).toBe(403);
    });
  });

  describe('permissions', () => {
    it('makes a child inherit its parent: changing the parent changes access to the child', async () => {
      const folder = await site(0, { Permissions: [`User,${accounts.user.userId},1`] });
      const child = await site(folder, { ReferenceType: 'Results' });
      const read = await post(`/api/items/${child}/getsite`, { ApiKey: accounts.user.apiKey });
      expect(read.body.Response).toMatchObject({ Data: { InheritPermission: folder } });
      await post(`/api/items/${folder}/updatesite`, { ApiKey: admin, Permissions: [] });
      expect(await statusOf(`/api/items/${child}/getsite`, accounts.user.apiKey)).toBe(403);
      const sibling = await site(folder);
      await post(`/api/items/${folder}/updatesite`, { ApiKey: admin, Permissions: ['User,-1,1'] });
      expect(await statusOf(`/api/items/${sibling}/getsite`, accounts.user.apiKey)).toBe(200);
    });

    it.each([
      ['a group entry', () => [`Group,${groupId},1`], 200],
      ['User,-1', () => ['User,-1,1'], 200],
      ["the user's dept entry", () => [`Dept,${deptId},1`], 200],
      ["another dept's entry", () => [`Dept,${otherDeptId},511`], 403],
      ['a group holding their dept', () => [`Group,${deptGroupId},1`], 200],
      ["another user's entry", () => [`User,${accounts.user.userId},511`], 403],
      ['an entry without Read', () => ['User,-1,2'], 403],
    ])('grants getsite, or not, through %s', async (_case, permissions, status) => {
      const id = await site(0, { Permissions: permissions() });
      expect(await statusOf(`/api/items/${id}/getsite`, member.apiKey)).toBe(status);
    });

    it('grants nothing through a dept once it is disabled or deleted', async () => {
      const dept = await createDept('Temporary');
      const staff = await createUser(stack.url, admin, `staff-${Date.now()}`, { DeptId: dept });
      const group = await post('/api/groups/create', {
        ApiKey: admin,
        GroupName: 'Temporary readers',
        Members: [`Dept,${dept}`],
      });
      const byDept = await site(0, { Permissions: [`Dept,${dept},1`] });
      const byGroup = await site(0, { Permissions: [`Group,${group.body.Id},1`] });
      const access = async () =>
        Promise.all([byDept, byGroup].map((id) => statusOf(`/api/items/${id}/getsite`, staff.apiKey)));
      expect(await access()).toEqual([200, 200]);
      await post(`/api/depts/${dept}/update`, { ApiKey: admin, Disabled: true });
      expect(await access()).toEqual([403, 403]);
      await post(`/api/depts/${dept}/update`, { ApiKey: admin, Disabled: false });
      expect(await access()).toEqual([200, 200]);
      expect((await post(`/api/depts/${dept}/delete`, { ApiKey: admin })).body.StatusCode).toBe(200);
      expect(await access()).toEqual([403, 403]);
      const members = await post(`/api/groups/${group.body.Id}/get`, { ApiKey: admin });
      expect(members.body.Response).toMatchObject({ Data: [{ Members: [] }] });
    });

    it('needs ManageSite to update and delete, and ManagePermission to change permissions', async () => {
      const id = await site(0, { Permissions: [`User,${member.userId},129`] });
      expect(await statusOf(`/api/items/${id}/updatesite`, member.apiKey, { Title: 'Renamed' })).toBe(200);
      const repermit = await post(`/api/items/${id}/updatesite`, { ApiKey: member.apiKey, Permissions: [] });
      expect(repermit.body).toEqual({ Id: id, ...forbidden });
      expect(await statusOf(`/api/items/${id}/updatesite`, member.apiKey, { InheritPermission: 0 })).toBe(
        403,
      );
      const readOnly = await site(0, { Permissions: [`User,${member.userId},1`] });
      expect(await statusOf(`/api/items/${readOnly}/updatesite`, member.apiKey, { Title: 'x' })).toBe(403);
      expect(await statusOf(`/api/items/${readOnly}/deletesite`, member.apiKey)).toBe(403);
    });

    it('lets a site stop inheriting', async () => {
      const folder = await site(0, { Permissions: ['User,-1,1'] });
      const child = await site(folder);
      await post(`/api/items/${child}/updatesite`, {
        ApiKey: admin,
        InheritPermission: child,
        Permissions: [],
      });
      expect(await statusOf(`/api/items/${child}/getsite`, member.apiKey)).toBe(403);
      await post(`/api/items/${child}/updatesite`, { ApiKey: admin, InheritPermission: folder });
      expect(await statusOf(`/api/items/${child}/getsite`, member.apiKey)).toBe(200);
    });
  });

  describe('updatesite', () => {
    it('renames and moves a site, keeping what is not given', async () => {
      const from = await site(0);
      const to = await site(0);
      const id = await site(from, { Title: 'Moving', SiteName: 'm', ReferenceType: 'Issues' });
      const update = await post(`/api/items/${id}/updatesite`, {
        ApiKey: admin,
        ParentId: to,
        Title: 'Moved',
      });
      expect(update.body).toEqual({ Id: id, StatusCode: 200, Message: '" Moved " has been updated.' });
      const read = await post(`/api/items/${id}/getsite`, { ApiKey: admin });
      expect((read.body.Response as { Data: unknown }).Data).toMatchObject({
        ParentId: to,
        SiteName: 'm',
        InheritPermission: to,
        Ver: 2,
      });
    });

    it.each([
      ['under itself', (ids: Tree) => ({ ParentId: ids.top })],
      ['under its own subtree', (ids: Tree) => ({ ParentId: ids.grandchild })],
      ['under a table site', (ids: Tree) => ({ ParentId: ids.table })],
      ['to another ReferenceType', () => ({ ReferenceType: 'Issues' })],
      ['with a 33-character SiteName', () => ({ SiteName: 'y'.repeat(33) })],
    ])('answers 400 for a move or change %s', async (_case, body) => {
      const ids = await tree();
      const result = await post(`/api/items/${ids.top}/updatesite`, { ApiKey: admin, ...body(ids) });
      expect(result.body).toMatchObject({ Id: ids.top, StatusCode: 400 });
    });

    it("answers 404 for a move under another tenant's folder", async () => {
      const foreign = await site(0, {}, accounts.other.apiKey);
      const id = await site(0);
      expect(await statusOf(`/api/items/${id}/updatesite`, admin, { ParentId: foreign })).toBe(404);
    });
  });

  describe('SiteSettings that Kiroku does not apply', () => {
    const processes = [{ Id: 1, Name: 'Approve', ChangedStatus: 200 }];
    const statusControls = [{ Id: 1, Name: 'Closed', Status: 900, ReadOnly: true }];

    it.each([
      ['createsite', 'Processes', { Processes: processes }],
      ['createsite', 'StatusControls', { StatusControls: statusControls }],
      ['updatesite', 'Processes', { Processes: processes }],
      ['updatesite', 'StatusControls', { statuscontrols: statusControls }],
    ])('answers %s holding %s with 400 naming it, storing nothing', async (route, name, settings) => {
      const id = await site(0, { SiteSettings: { Note: 'kept' } });
      const target = route === 'createsite' ? 0 : id;
      const result = await post(`/api/items/${target}/${route}`, {
        ApiKey: admin,
        Title: 'With processes',
        ReferenceType: 'Sites',
        SiteSettings: { GridColumns: ['Title'], ...settings },
      });
      expect(result.body).toMatchObject({ Id: target, StatusCode: 400 });
      expect(String(result.body.Message)).toContain(`SiteSettings.${Object.keys(settings)[0]}`);
      expect(String(result.body.Message)).toMatch(new RegExp(name, 'i'));
      const read = await post(`/api/items/${id}/getsite`, { ApiKey: admin });
      expect((read.body.Response as { Data: unknown }).Data).toMatchObject({
        SiteSettings: { Note: 'kept' },
        Ver: 1,
      });
    });

    it.each(['Processes', 'StatusControls'])(
      'answers updatesitesettings with %s with 400 naming it',
      async (name) => {
        const id = await site(0, { ReferenceType: 'Results' });
        const result = await post(`/api/items/${id}/updatesitesettings`, {
          ApiKey: admin,
          [name]: [{ Id: 1 }],
        });
        expect(result.body).toMatchObject({
          Id: id,
          StatusCode: 400,
          Message: expect.stringContaining(name),
        });
      },
    );

    it('takes an empty list, which holds nothing to apply', async () => {
      const id = await site(0, { SiteSettings: { Processes: [], StatusControls: null } });
      expect(id).toBeGreaterThan(0);
    });
  });

  describe('deletesite', () => {
    it('removes the subtree and all its records', async () => {
      const ids = await tree();
      const records = await Promise.all(
        Array.from({ length: 30 }, (_, n) => createRecord(stack.url, admin, ids.table, { Title: `r${n}` })),
      );
      const deleted = await post(`/api/items/${ids.top}/deletesite`, { ApiKey: admin });
      expect(deleted.body).toEqual({ Id: ids.top, StatusCode: 200, Message: '" Top " has been deleted.' });
      for (const id of [ids.top, ids.child, ids.grandchild, ids.table]) {
        expect(await statusOf(`/api/items/${id}/getsite`, admin)).toBe(404);
      }
      for (const id of records.slice(0, 3)) expect(await statusOf(`/api/items/${id}/get`, admin)).toBe(404);
      expect(await statusOf(`/api/items/${ids.top}/deletesite`, admin)).toBe(404);
    });
  });

  describe('tenant isolation', () => {
    const siteRoutes = ['createsite', 'getsite', 'updatesite', 'deletesite', 'create', 'get'];
    const recordRoutes = ['get', 'update', 'delete'];
    it.each([
      ...siteRoutes.map((route) => [route, 'site'] as const),
      ...recordRoutes.map((route) => [route, 'record'] as const),
    ])("answers 404 for another tenant's %s on a %s", async (route, kind) => {
      const table = await site(0, { ReferenceType: 'Results', Permissions: ['User,-1,511'] });
      const id = kind === 'site' ? table : await createRecord(stack.url, admin, table);
      const result = await post(`/api/items/${id}/${route}`, {
        ApiKey: accounts.other.apiKey,
        Title: 'x',
        ReferenceType: 'Sites',
      });
      expect(result.body).toEqual({ Id: id, ...notFound });
      expect(await statusOf(`/api/items/${id}/${kind === 'site' ? 'getsite' : 'get'}`, admin)).toBe(200);
    });
  });
});

interface Tree {
  top: number;
  child: number;
  grandchild: number;
  table: number;
}

/** Top → Child → Grandchild (folders), and an Issues site in Grandchild. */
async function tree(): Promise<Tree> {
  const top = await site(0, { Title: 'Top' });
  const child = await site(top, { Title: 'Child' });
  const grandchild = await site(child, { Title: 'Grandchild' });
  const table = await site(grandchild, { Title: 'Table', ReferenceType: 'Issues' });
  return { top, child, grandchild, table };
}
