import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../lib/log';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

// users, depts and groups in server scripts (reference/pleasanter-script-objects.md 5, the 1.5 shapes).

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let member: TestUser;
let manager: TestUser;
const ids = { dept: 0, otherDept: 0, group: 0, probeRecord: 0, foreignDept: 0, foreignGroup: 0, deptUser: 0 };

const post = (path: string, body?: unknown) => call(stack.url, path, body);

async function created(path: string, body: object): Promise<number> {
  const answer = await post(path, body);
  if (answer.body.StatusCode !== 200) throw new Error(`${path}: ${answer.text}`);
  return Number(answer.body.Id);
}

/** Runs `expression` in a server script as `user` and answers its JSON value. */
async function probe(user: TestUser, expression: string): Promise<unknown> {
  const updated = await post(`/api/items/${ids.probeRecord}/update`, {
    ApiKey: user.apiKey,
    Body: expression,
  });
  if (updated.body.StatusCode !== 200) throw new Error(`probe: ${updated.text}`);
  const read = await post(`/api/items/${ids.probeRecord}/get`, { ApiKey: admin });
  const [shown] = (read.body.Response as { Data: { DescriptionHash: { DescriptionA: string } }[] }).Data;
  return JSON.parse(shown?.DescriptionHash.DescriptionA ?? 'null');
}

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  ids.dept = await created('/api/depts/create', { ApiKey: admin, DeptCode: 'D1', DeptName: 'Sales' });
  ids.otherDept = await created('/api/depts/create', { ApiKey: admin, DeptCode: 'D2', DeptName: 'Support' });
  member = await createUser(stack.url, admin, `member-${Date.now()}`);
  manager = await createUser(stack.url, admin, `manager-${Date.now()}`, { TenantManager: true });
  ids.deptUser = (await createUser(stack.url, admin, `sales-${Date.now()}`, { DeptId: ids.dept })).userId;
  ids.group = await created('/api/groups/create', {
    ApiKey: admin,
    GroupName: 'Reviewers',
    Members: [`User,${member.userId}`, `Dept,${ids.dept}`],
  });
  const other = accounts.other.apiKey;
  ids.foreignDept = await created('/api/depts/create', { ApiKey: other, DeptName: 'Theirs' });
  ids.foreignGroup = await created('/api/groups/create', { ApiKey: other, GroupName: 'Theirs' });
  const probeSite = await createSite(stack.url, admin, 0, {
    ReferenceType: 'Issues',
    Permissions: [`User,${member.userId},15`, `User,${manager.userId},15`],
    SiteSettings: {
      ServerScripts: [
        {
          Body: `const out = new Function('return (' + model.Body + ');')();
                 model.DescriptionA = String(JSON.stringify(out === undefined ? null : out));`,
          BeforeUpdate: true,
        },
      ],
    },
  });
  ids.probeRecord = await createRecord(stack.url, member.apiKey, probeSite, { Title: 'probe' });
});
afterAll(() => stack.close());
afterEach(() => {
  vi.restoreAllMocks();
});

describe('users.Get', () => {
  it('answers the 1.5 shape of a user of the tenant', async () => {
    expect(await probe(member, `users.Get(${ids.deptUser})`)).toEqual({
      UserId: ids.deptUser,
      DeptId: ids.dept,
      LoginId: expect.stringMatching(/^sales-/),
      Name: expect.stringMatching(/^sales-/),
      UserCode: '',
      TenantManager: false,
      ServiceManager: false,
      Disabled: false,
    });
  });

  it.each([
    ['another tenant', () => accounts.other.userId],
    ['anonymous (0)', () => 0],
    ['an unknown id', () => 999_999],
  ])('answers null for %s', async (_, id) => {
    expect(await probe(member, `users.Get(${id()})`)).toBeNull();
  });
});

describe('depts.Get', () => {
  it('answers the dept and its members', async () => {
    const dept = `depts.Get(${ids.dept})`;
    expect(
      await probe(
        member,
        `[${dept}, ${dept}.GetMembers().map((user) => user.UserId), ${dept}.GetMembers().Count]`,
      ),
    ).toEqual([{ DeptId: ids.dept, DeptCode: 'D1', DeptName: 'Sales' }, [ids.deptUser], 1]);
  });

  it.each([
    ['another tenant', () => ids.foreignDept],
    ['an unknown id', () => 999_999],
  ])('answers null for %s', async (_, id) => {
    expect(await probe(member, `depts.Get(${id()})`)).toBeNull();
  });
});

describe('groups.Get', () => {
  it('answers the group with its members, users and depts', async () => {
    const group = `groups.Get(${ids.group})`;
    expect(await probe(member, `[${group}, Array.from(${group}.GetMembers())]`)).toEqual([
      { GroupId: ids.group, GroupName: 'Reviewers', Body: '', Disabled: false },
      [
        expect.objectContaining({ GroupId: 0, UserId: member.userId, DeptId: 0, Admin: false }),
        expect.objectContaining({
          GroupId: 0,
          UserId: 0,
          DeptId: ids.dept,
          DeptName: 'Sales',
          DeptCode: 'D1',
        }),
      ],
    ]);
  });

  it.each([
    ['ContainsUser of a member', 'ContainsUser(MEMBER)', true],
    ['ContainsUser of a member through their dept', 'ContainsUser(DEPT_USER)', true],
    ['ContainsUser of a user object', 'ContainsUser(users.Get(MEMBER))', true],
    ['ContainsUser of another user', 'ContainsUser(MANAGER)', false],
    ['ContainsDept of its dept', 'ContainsDept(DEPT)', true],
    ['ContainsDept of a dept object', 'ContainsDept(depts.Get(DEPT))', true],
    ['ContainsDept of another dept', 'ContainsDept(OTHER_DEPT)', false],
    ['GetChildren', 'GetChildren().Length', 0],
    ['ContainsChild', 'ContainsChild(1)', false],
  ])('%s', async (_, method, answer) => {
    const code = method
      .replace('DEPT_USER', String(ids.deptUser))
      .replace('OTHER_DEPT', String(ids.otherDept))
      .replace('MEMBER', String(member.userId))
      .replace('MANAGER', String(manager.userId))
      .replace('DEPT', String(ids.dept));
    expect(await probe(member, `groups.Get(${ids.group}).${code}`)).toBe(answer);
  });

  it.each([
    ['another tenant', () => ids.foreignGroup],
    ['an unknown id', () => 999_999],
  ])('answers null for %s', async (_, id) => {
    expect(await probe(member, `groups.Get(${id()})`)).toBeNull();
  });
});

describe('groups.Update', () => {
  it.each([
    ['a tenant manager', 'manager', `'{"GroupName":"Renamed"}'`, true, 'Renamed'],
    ['a tenant manager, with lower-case names', 'manager', `'{"groupname":"Lower"}'`, true, 'Lower'],
    ['a tenant manager, with an object', 'manager', `{ GroupName: 'Object' }`, true, 'Object'],
    ['a plain user', 'member', `'{"GroupName":"Not mine"}'`, false, 'Object'],
    ['a body that is not JSON', 'manager', `'{GroupName'`, false, 'Object'],
    ['a member of another tenant', 'manager', `'{"Members":["User,${999_999}"]}'`, false, 'Object'],
  ])('as %s answers %s', async (_, who, body, answer, name) => {
    const warn = vi.spyOn(logger, 'warn');
    const user = who === 'manager' ? manager : member;
    expect(await probe(user, `groups.Update(${ids.group}, ${body})`)).toBe(answer);
    expect(await probe(member, `groups.Get(${ids.group}).GroupName`)).toBe(name);
    if (!answer) {
      expect(warn).toHaveBeenCalledWith(
        'server script call refused',
        expect.objectContaining({ call: 'groups.Update' }),
      );
    }
  });

  it("answers false for another tenant's group", async () => {
    expect(await probe(manager, `groups.Update(${ids.foreignGroup}, '{"GroupName":"x"}')`)).toBe(false);
  });
});
