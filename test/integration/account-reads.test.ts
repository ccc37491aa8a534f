import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { type Stack, startStack } from '../fixtures/stack';

// users|groups|depts/{id}/get as the reference answers them (reference/pleasanter-items-api.md 10,
// UserApiModel, GroupApiModel, DeptApiModel): the paged shape, ApiVersion, times in the caller's zone.

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
/** A tenant manager reading in UTC, and one in Asia/Tokyo. */
let utc: TestUser;
let tokyo: TestUser;

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const LOCAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;
const HOUR = 3_600_000;

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  utc = await createUser(stack.url, admin, `utc-${Date.now()}`, { TimeZone: 'UTC', TenantManager: true });
  tokyo = await createUser(stack.url, admin, `jst-${Date.now()}`, {
    TimeZone: 'Asia/Tokyo',
    TenantManager: true,
  });
});
afterAll(() => stack.close());

/** The one item of a `{id}/get` answer, after checking the paged shape around it. */
async function read(path: string, key: string): Promise<Record<string, unknown>> {
  const result = await post(path, { ApiKey: key });
  expect(result.body).toMatchObject({
    StatusCode: 200,
    Response: { Offset: 0, PageSize: 200, TotalCount: 1 },
  });
  const [item] = (result.body.Response as { Data: Record<string, unknown>[] }).Data;
  return item as Record<string, unknown>;
}

/** The times of one item as two callers see them: the same instant, in each one's zone. */
async function expectSameInstant(path: string) {
  const inUtc = await read(path, utc.apiKey);
  const inTokyo = await read(path, tokyo.apiKey);
  for (const name of ['CreatedTime', 'UpdatedTime']) {
    expect(inUtc[name]).toMatch(LOCAL);
    const instant = Date.parse(`${inUtc[name]}Z`);
    expect(Math.abs(instant - Date.now())).toBeLessThan(60_000);
    expect(Date.parse(`${inTokyo[name]}Z`) - instant).toBe(9 * HOUR);
  }
  return inUtc;
}

describe('users/{id}/get', () => {
  it('answers the user with ApiVersion, TimeZone and local times', async () => {
    const user = await createUser(stack.url, admin, `shape-${Date.now()}`, { TimeZone: 'Europe/Berlin' });
    const item = await expectSameInstant(`/api/users/${user.userId}/get`);
    expect(item).toEqual({
      ApiVersion: 1.1,
      UserId: user.userId,
      TenantId: 1,
      LoginId: user.loginId,
      Name: user.loginId,
      TenantManager: false,
      Disabled: false,
      DeptId: 0,
      TimeZone: 'Europe/Berlin',
      // None of its own: Service.DefaultLanguage applies.
      Language: '',
      HasApiKey: true,
      Groups: [],
      CreatedTime: item.CreatedTime,
      UpdatedTime: item.UpdatedTime,
    });
  });
});

describe('groups/{id}/get', () => {
  it('answers the group with its members in both forms and local times', async () => {
    const created = await post('/api/groups/create', {
      ApiKey: admin,
      GroupName: 'Readers',
      Members: [`User,${utc.userId}`],
    });
    const groupId = Number(created.body.Id);
    const item = await expectSameInstant(`/api/groups/${groupId}/get`);
    expect(item).toEqual({
      ApiVersion: 1.1,
      GroupId: groupId,
      TenantId: 1,
      GroupName: 'Readers',
      Members: [`User,${utc.userId}`],
      GroupMembers: [`User,${utc.userId},False`],
      CreatedTime: item.CreatedTime,
      UpdatedTime: item.UpdatedTime,
    });
  });
});

describe('depts/{id}/get', () => {
  it('answers the dept with ApiVersion and local times; another tenant sees nothing', async () => {
    const created = await post('/api/depts/create', { ApiKey: admin, DeptCode: 'S1', DeptName: 'Sales' });
    const deptId = Number(created.body.Id);
    const item = await expectSameInstant(`/api/depts/${deptId}/get`);
    expect(item).toEqual({
      ApiVersion: 1.1,
      DeptId: deptId,
      TenantId: 1,
      DeptCode: 'S1',
      DeptName: 'Sales',
      Disabled: false,
      CreatedTime: item.CreatedTime,
      UpdatedTime: item.UpdatedTime,
    });
    const other = await post(`/api/depts/${deptId}/get`, { ApiKey: accounts.other.apiKey });
    expect(other.body.StatusCode).toBe(404);
  });
});
