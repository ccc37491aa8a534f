import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { type Stack, startStack } from '../fixtures/stack';

// users|groups|depts/get (reference/pleasanter-items-api.md 10, CONTRACT 5.1): every account of the
// caller's tenant, through View.ColumnFilterHash on their columns, paged as the items API. A tenant of its
// own holds accounts whose filters each select a part of them, never all and never none.

let stack: Stack;
let accounts: TestAccounts;
const stamp = Date.now();
/** The tenant's manager's key, and the tenant's accounts by name. */
let manager: string;
let tenantId: number;
const ids: Record<string, number> = {};
/** Between the first two users and the last two (a CreatedTime bound), as UTC local time. */
let between: string;

const post = (path: string, body: object) => call(stack.url, path, body);
type Paged = { Offset: number; PageSize: number; TotalCount: number; Data: Record<string, unknown>[] };
const paged = (body: Record<string, unknown>) => body.Response as Paged;
const local = (time: number) => new Date(time).toISOString().slice(0, 19);

async function made(path: string, body: object): Promise<number> {
  const result = await post(path, { ApiKey: manager, ...body });
  if (result.body.StatusCode !== 200) throw new Error(`${path}: ${result.text}`);
  return Number(result.body.Id);
}

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  const tenant = await post('/api/tenants/create', {
    ApiKey: accounts.admin.apiKey,
    TenantName: 'Lists',
    AdminLoginId: `boss-${stamp}`,
    TimeZone: 'UTC',
  });
  manager = String(tenant.body.ApiKey);
  tenantId = Number(tenant.body.Id);
  ids.sales = await made('/api/depts/create', { DeptCode: 'S1', DeptName: 'Sales' });
  ids.support = await made('/api/depts/create', { DeptCode: 'S2', DeptName: 'Support', Disabled: true });
  ids.alice = (await createUser(stack.url, manager, `alice-${stamp}`, { DeptId: ids.sales })).userId;
  ids.bob = (await createUser(stack.url, manager, `bob-${stamp}`, { DeptId: ids.support })).userId;
  await new Promise((resolve) => setTimeout(resolve, 1100));
  between = local(Date.now());
  await new Promise((resolve) => setTimeout(resolve, 1100));
  ids.carol = (await createUser(stack.url, manager, `carol-${stamp}`, { Disabled: true })).userId;
  await post(`/api/users/${ids.carol}/deleteapikey`, { ApiKey: manager });
  ids.dave = (
    await createUser(stack.url, manager, `dave-${stamp}`, { TimeZone: 'Asia/Tokyo', Language: 'en' })
  ).userId;
  ids.sellers = await made('/api/groups/create', {
    GroupName: 'Sellers',
    Members: [`User,${ids.alice}`, `Dept,${ids.sales}`],
  });
  ids.helpers = await made('/api/groups/create', {
    GroupName: 'Helpers',
    Members: [`User,${ids.alice}`, `User,${ids.bob}`],
  });
});
afterAll(() => stack.close());

/** The login ids (without the stamp) of a users/get answer, in its order. */
const names = (page: Paged) => page.Data.map((user) => String(user.LoginId).replace(`-${stamp}`, ''));

async function users(body: object = {}, key = manager): Promise<Paged> {
  const result = await post('/api/users/get', { ApiKey: key, ...body });
  expect(result.status, result.text).toBe(200);
  return paged(result.body);
}

describe('users/get', () => {
  it("lists every user of the caller's tenant and no other, newest change first", async () => {
    const page = await users();
    expect(page).toMatchObject({ Offset: 0, PageSize: 200, TotalCount: 5 });
    expect(names(page)).toEqual(['dave', 'carol', 'bob', 'alice', 'boss']);
    expect(page.Data.every((user) => user.TenantId === tenantId)).toBe(true);
    expect(page.Data.find((user) => user.UserId === ids.alice)).toMatchObject({
      ApiVersion: 1.1,
      DeptId: ids.sales,
      Groups: [`Group,${ids.sellers}`, `Group,${ids.helpers}`],
      HasApiKey: true,
    });
    expect(page.Data.find((user) => user.UserId === ids.carol)).toMatchObject({ Groups: [], Disabled: true });
  });

  it('answers on /api/users/0/get too, and a user who is no manager may list', async () => {
    const alice = await createUser(stack.url, manager, `erin-${stamp}`);
    const result = await post('/api/users/0/get', { ApiKey: alice.apiKey });
    expect(paged(result.body).TotalCount).toBe(6);
    await post(`/api/users/${alice.userId}/delete`, { ApiKey: manager });
    expect((await users()).TotalCount).toBe(5);
  });

  it.each([
    ['LoginId, partial match', { LoginId: 'ali' }, {}, ['alice']],
    ['LoginId, ExactMatch', { LoginId: `bob-${stamp}` }, { LoginId: 'ExactMatch' }, ['bob']],
    ['LoginId, ExactMatch on a part', { LoginId: 'bob' }, { LoginId: 'ExactMatch' }, []],
    ['LoginId, ForwardMatchMultiple', { LoginId: '["car","da"]' }, { LoginId: 13 }, ['dave', 'carol']],
    ['DeptId, one', { DeptId: String(0) }, {}, ['dave', 'carol', 'boss']],
    ['DeptId, a list', { DeptId: '[0]' }, {}, ['dave', 'carol', 'boss']],
    ['DeptId, empty ("\\t")', { DeptId: '["\\t"]' }, {}, ['dave', 'carol', 'boss']],
    ['Disabled true', { Disabled: 'true' }, {}, ['carol']],
    ['Disabled "2" (off)', { Disabled: '2' }, {}, ['dave', 'bob', 'alice', 'boss']],
    ['TenantManager "1"', { TenantManager: '1' }, {}, ['boss']],
    ['TimeZone', { TimeZone: 'Asia' }, {}, ['dave']],
    ['Language, exact', { Language: 'en' }, { Language: 'ExactMatch' }, ['dave']],
    ['Language, none (" ")', { Language: ' ' }, {}, ['carol', 'bob', 'alice', 'boss']],
    ['an or_ group', { or_a: { LoginId: 'alice', Disabled: 'true' } }, {}, ['carol', 'alice']],
    ['an and_ group as JSON text', { and_a: '{"Disabled":"false","TimeZone":"Tokyo"}' }, {}, ['dave']],
    ['HasApiKey false', { HasApiKey: 'false' }, {}, ['carol']],
  ])('ColumnFilterHash: %s', async (_name, hash, searchTypes, expected) => {
    const page = await users({ View: { ColumnFilterHash: hash, ColumnFilterSearchTypes: searchTypes } });
    expect(names(page)).toEqual(expected);
    expect(page.TotalCount).toBe(expected.length);
  });

  it.each([
    ['DeptId of a dept', () => ({ DeptId: String(ids.sales) }), ['alice']],
    ['DeptId, a list of two', () => ({ DeptId: `[${ids.sales},${ids.support}]` }), ['bob', 'alice']],
    ['UserId, a range', () => ({ UserId: `["${ids.alice},${ids.bob}"]` }), ['bob', 'alice']],
    ['UserId, an open range', () => ({ UserId: `["${ids.carol},"]` }), ['dave', 'carol']],
    ['CreatedTime, before a moment', () => ({ CreatedTime: `[",${between}"]` }), ['bob', 'alice', 'boss']],
    ['CreatedTime, after a moment', () => ({ CreatedTime: `["${between},"]` }), ['dave', 'carol']],
    ['TenantId of another tenant', () => ({ TenantId: '1' }), []],
  ])('ColumnFilterHash by id or time: %s', async (_name, hash, expected) => {
    const page = await users({ View: { ColumnFilterHash: hash() } });
    expect(names(page)).toEqual(expected);
  });

  it.each([
    ['LoginId ascending', { LoginId: 'asc' }, ['alice', 'bob', 'boss', 'carol', 'dave']],
    [
      'Disabled desc, then the default order',
      { Disabled: 'desc' },
      ['carol', 'dave', 'bob', 'alice', 'boss'],
    ],
    ['UserId by number (0 = asc)', { UserId: 0 }, ['boss', 'alice', 'bob', 'carol', 'dave']],
  ])('ColumnSorterHash: %s', async (_name, sorter, expected) => {
    expect(names(await users({ View: { ColumnSorterHash: sorter } }))).toEqual(expected);
  });

  it.each([
    ['PageSize 2, Offset 1', { PageSize: 2, Offset: 1 }, 2, ['carol', 'bob']],
    ['PageSize 199 is kept', { PageSize: 199 }, 199, ['dave', 'carol', 'bob', 'alice', 'boss']],
    ['PageSize 0 is 200', { PageSize: 0 }, 200, ['dave', 'carol', 'bob', 'alice', 'boss']],
    ['PageSize 500 is 200', { PageSize: 500, Offset: 3 }, 200, ['alice', 'boss']],
    ['PageSize -1 is 200', { PageSize: -1 }, 200, ['dave', 'carol', 'bob', 'alice', 'boss']],
    ['an Offset past the end', { Offset: 9 }, 200, []],
  ])('paging: %s', async (_name, body, pageSize, expected) => {
    const page = await users(body);
    expect(page).toMatchObject({ Offset: (body as { Offset?: number }).Offset ?? 0, PageSize: pageSize });
    expect(page.TotalCount).toBe(5);
    expect(names(page)).toEqual(expected);
  });
});

describe('groups/get and depts/get', () => {
  it.each([
    ['every group', {}, ['Helpers', 'Sellers']],
    ['GroupName', { ColumnFilterHash: { GroupName: 'sell' } }, ['Sellers']],
    [
      'GroupName, ExactMatchMultiple',
      {
        ColumnFilterHash: { GroupName: '["Helpers","Others"]' },
        ColumnFilterSearchTypes: { GroupName: 'ExactMatchMultiple' },
      },
      ['Helpers'],
    ],
    ['sorted by GroupName desc', { ColumnSorterHash: { GroupName: 'desc' } }, ['Sellers', 'Helpers']],
  ])('groups/get: %s', async (_name, view, expected) => {
    const result = await post('/api/groups/get', { ApiKey: manager, View: view });
    const page = paged(result.body);
    expect(page.Data.map((group) => group.GroupName)).toEqual(expected);
    expect(page.TotalCount).toBe(expected.length);
  });

  it('groups/get answers members in both forms', async () => {
    const page = paged((await post('/api/groups/get', { ApiKey: manager })).body);
    expect(page.Data.find((group) => group.GroupId === ids.sellers)).toMatchObject({
      TenantId: tenantId,
      Members: [`User,${ids.alice}`, `Dept,${ids.sales}`],
      GroupMembers: [`User,${ids.alice},False`, `Dept,${ids.sales},False`],
    });
  });

  it.each([
    ['every dept', {}, ['Support', 'Sales']],
    ['Disabled', { ColumnFilterHash: { Disabled: 'false' } }, ['Sales']],
    ['DeptCode', { ColumnFilterHash: { DeptCode: 'S2' } }, ['Support']],
    [
      'DeptName, Forward',
      { ColumnFilterHash: { DeptName: 'Sa' }, ColumnFilterSearchTypes: { DeptName: 3 } },
      ['Sales'],
    ],
    ['sorted by DeptCode', { ColumnSorterHash: { DeptCode: 'asc' } }, ['Sales', 'Support']],
  ])('depts/get: %s', async (_name, view, expected) => {
    const page = paged((await post('/api/depts/get', { ApiKey: manager, View: view })).body);
    expect(page.Data.map((dept) => dept.DeptName)).toEqual(expected);
    expect(page.TotalCount).toBe(expected.length);
  });
});

describe('{id}/get through the same View', () => {
  it('answers the one account when it passes the View, nothing when it does not', async () => {
    const path = `/api/users/${ids.carol}/get`;
    const passes = paged(
      (await post(path, { ApiKey: manager, View: { ColumnFilterHash: { Disabled: '1' } } })).body,
    );
    expect(passes.TotalCount).toBe(1);
    expect(passes.Data[0]?.UserId).toBe(ids.carol);
    const fails = paged(
      (await post(path, { ApiKey: manager, View: { ColumnFilterHash: { Disabled: '2' } } })).body,
    );
    expect(fails).toEqual({ Offset: 0, PageSize: 200, TotalCount: 0, Data: [] });
    const group = paged((await post(`/api/groups/${ids.helpers}/get`, { ApiKey: manager })).body);
    expect(group.Data.map((g) => g.GroupName)).toEqual(['Helpers']);
  });
});

describe('refusals', () => {
  it.each([
    ['/api/users/get', { ColumnFilterHash: { Email: 'x' } }, 'View.ColumnFilterHash.Email'],
    ['/api/users/get', { ColumnFilterHash: { DeptId: '1.5' } }, 'View.ColumnFilterHash.DeptId'],
    ['/api/users/get', { ColumnFilterHash: { Disabled: 'maybe' } }, 'View.ColumnFilterHash.Disabled'],
    [
      '/api/users/get',
      { ColumnFilterHash: { CreatedTime: '2026-01-01' } },
      'View.ColumnFilterHash.CreatedTime',
    ],
    ['/api/users/get', { ColumnFilterHash: { LoginId: '[1' } }, 'View.ColumnFilterHash.LoginId'],
    ['/api/users/get', { ColumnFilterHash: { SiteId: '1' } }, 'View.ColumnFilterHash.SiteId'],
    ['/api/users/get', { ColumnFilterHash: { or_x: {} } }, 'View.ColumnFilterHash.or_x'],
    [
      '/api/users/get',
      { ColumnFilterSearchTypes: { LoginId: 'Fuzzy' } },
      'View.ColumnFilterSearchTypes.LoginId',
    ],
    ['/api/users/get', { ColumnSorterHash: { Email: 'asc' } }, 'View.ColumnSorterHash.Email'],
    ['/api/users/get', { ColumnSorterHash: { LoginId: 'up' } }, 'View.ColumnSorterHash.LoginId'],
    ['/api/users/get', { Search: 'alice' }, 'View.Search'],
    ['/api/users/get', { ApiGetMailAddresses: true }, 'View.ApiGetMailAddresses'],
    ['/api/users/get', { ColumnFilterNegatives: ['LoginId'] }, 'View.ColumnFilterNegatives'],
    ['/api/groups/get', { ColumnFilterHash: { UserId: '1' } }, 'View.ColumnFilterHash.UserId'],
    ['/api/depts/get', { ColumnFilterHash: { Name: 'x' } }, 'View.ColumnFilterHash.Name'],
    ['/api/depts/get', { Incomplete: true }, 'View.Incomplete'],
  ])('%s with %j is a 400 naming it', async (path, view, named) => {
    const result = await post(path, { ApiKey: manager, View: view });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ StatusCode: 400 });
    expect(String(result.body.Message)).toContain(named);
  });

  it('refuses the id column again on {id}/get', async () => {
    const result = await post(`/api/users/${ids.alice}/get`, {
      ApiKey: manager,
      View: { ColumnFilterHash: { UserId: String(ids.bob) } },
    });
    expect(result.status).toBe(400);
    expect(String(result.body.Message)).toContain('View.ColumnFilterHash.UserId');
  });

  it.each([
    ['Offset below 0', { Offset: -1 }],
    ['a View that is no object', { View: ['LoginId'] }],
  ])('refuses %s', async (_name, body) => {
    expect((await post('/api/users/get', { ApiKey: manager, ...body })).status).toBe(400);
  });
});

describe('tenant isolation', () => {
  it("another tenant's lists never show this tenant's accounts", async () => {
    const mine = paged((await post('/api/users/get', { ApiKey: accounts.admin.apiKey })).body);
    expect(mine.Data.map((user) => user.UserId).sort((a, b) => Number(a) - Number(b))).toEqual([
      accounts.admin.userId,
      accounts.user.userId,
    ]);
    for (const path of ['/api/groups/get', '/api/depts/get']) {
      expect(paged((await post(path, { ApiKey: accounts.admin.apiKey })).body).TotalCount).toBe(0);
    }
    const theirs = paged((await post('/api/users/get', { ApiKey: accounts.other.apiKey })).body);
    expect(theirs.Data.map((user) => user.UserId)).toEqual([accounts.other.userId]);
  });

  it.each([
    ['users', () => ids.alice],
    ['groups', () => ids.sellers],
    ['depts', () => ids.sales],
  ])("%s/{id}/get of this tenant's account is a 404 to another tenant", async (kind, id) => {
    const result = await post(`/api/${kind}/${id()}/get`, { ApiKey: accounts.other.apiKey });
    expect(result.status).toBe(404);
  });
});
