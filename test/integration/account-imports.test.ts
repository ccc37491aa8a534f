import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCsv } from '../../lib/csv/csv';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * users/import, groups/import and depts/import through the local stack: the reference's multipart body
 * (`parameters` + `file`), both encodings, the reference's messages, every row checked before the first
 * write, permissions and tenant isolation.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
let run = 0;

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
});
afterAll(() => stack?.close());

/** The manual's Python client: `parameters` JSON and the file; the key as a Bearer header meanwhile. */
async function importCsv(
  kind: 'users' | 'groups' | 'depts',
  csv: string,
  options: { key?: string; encoding?: 'UTF-8' | 'Shift-JIS'; bom?: boolean; parameters?: object } = {},
) {
  const encoding = options.encoding ?? 'UTF-8';
  const bytes = encodeCsv(csv, encoding === 'Shift-JIS' ? 'shift-jis' : options.bom ? 'utf-8-bom' : 'utf-8');
  const form = new FormData();
  form.set('parameters', JSON.stringify({ ApiVersion: 1.1, Encoding: encoding, ...options.parameters }));
  form.set('file', new Blob([bytes]), `${kind}.csv`);
  const response = await fetch(`${stack.url}/api/${kind}/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.key ?? admin}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const users = async (key = admin) =>
  (await call(stack.url, '/api/users/get', { ApiKey: key })).body.Response as {
    Data: { LoginId: string; Name: string; Disabled: boolean; DeptId: number; TenantManager: boolean }[];
  };
const depts = async (key = admin) =>
  (
    (await call(stack.url, '/api/depts/get', { ApiKey: key })).body.Response as {
      Data: { DeptId: number; DeptCode: string; DeptName: string; Disabled: boolean }[];
    }
  ).Data;
const groups = async (key = admin) =>
  (
    (await call(stack.url, '/api/groups/get', { ApiKey: key })).body.Response as {
      Data: { GroupId: number; GroupName: string; Members: string[] }[];
    }
  ).Data;

const unique = () => `${Date.now().toString(36)}${run++}`;

describe('depts/import', () => {
  it.each([
    ['UTF-8', false],
    ['UTF-8', true],
    ['Shift-JIS', false],
  ] as const)(
    'adds then updates by DeptCode (%s, BOM %s) with the reference message',
    async (encoding, bom) => {
      const code = `D${unique()}`;
      const first = await importCsv(
        'depts',
        `"組織コード","組織名"\n"${code}","営業部"\n"${code}x","開発部"\n`,
        {
          encoding,
          bom,
        },
      );
      expect(first).toMatchObject({
        status: 200,
        body: { StatusCode: 200, Message: 'Depts: 2 entries have been added and 0 entries updated.' },
      });
      const second = await importCsv(
        'depts',
        `DeptCode,DeptName,Disabled\n${code},営業一部,1\n${code}x,開発部,\n`,
        {
          encoding,
          bom,
        },
      );
      expect(second.body.Message).toBe('Depts: 0 entries have been added and 1 entries updated.');
      const stored = (await depts()).filter((dept) => dept.DeptCode.startsWith(code));
      expect(stored.map(({ DeptCode, DeptName, Disabled }) => ({ DeptCode, DeptName, Disabled }))).toEqual(
        expect.arrayContaining([
          { DeptCode: code, DeptName: '営業一部', Disabled: true },
          { DeptCode: `${code}x`, DeptName: '開発部', Disabled: false },
        ]),
      );
    },
  );

  it.each([
    ['a missing required column', 'DeptCode\nX1\n', 'The required column is not included. Column:Dept name'],
    ['no rows', 'DeptCode,DeptName\n', 'Please select a file.'],
    ['an empty name on row 3', 'DeptCode,DeptName\nE1,one\nE2,\n', 'Row 3, DeptName'],
    ['a repeated code on row 3', 'DeptCode,DeptName\nE3,one\nE3,two\n', 'Row 3, DeptCode'],
    ['an empty code on row 2', 'DeptCode,DeptName\n,one\n', 'Row 2, DeptCode'],
  ])('refuses %s with 400 and writes nothing', async (_case, csv, message) => {
    const before = (await depts()).length;
    const result = await importCsv('depts', csv);
    expect(result.status).toBe(400);
    expect(String(result.body.Message)).toContain(message);
    expect((await depts()).length).toBe(before);
  });
});

describe('users/import', () => {
  it('creates users with passwords, then updates only what changed; both encodings', async () => {
    const id = unique();
    const code = `U${id}`;
    await importCsv('depts', `DeptCode,DeptName\n${code},Sales\n`);
    const csv = `ログインID,名前,パスワード,組織コード,無効\nu1-${id},山田 太郎,long enough 1,${code},\nu2-${id},Suzuki,long enough 2,,\n`;
    const added = await importCsv('users', csv, { encoding: 'Shift-JIS' });
    expect(added.body).toMatchObject({
      StatusCode: 200,
      Message: 'Users: 2 entries have been added and 0 entries updated.',
    });
    const login = await call(stack.url, '/users/authenticate', {
      LoginId: `u1-${id}`,
      Password: 'long enough 1',
    });
    expect(login.body.StatusCode).toBe(200);
    const update = `LoginId,Name,Disabled\nu1-${id},山田 太郎,\nu2-${id},Suzuki Hanako,true\n`;
    const updated = await importCsv('users', update, { bom: true });
    expect(updated.body.Message).toBe('Users: 0 entries have been added and 1 entries updated.');
    const stored = (await users()).Data.filter((user) => user.LoginId.endsWith(id)).sort((a, b) =>
      a.LoginId.localeCompare(b.LoginId),
    );
    expect(stored.map(({ LoginId, Name, Disabled }) => ({ LoginId, Name, Disabled }))).toEqual([
      { LoginId: `u1-${id}`, Name: '山田 太郎', Disabled: false },
      { LoginId: `u2-${id}`, Name: 'Suzuki Hanako', Disabled: true },
    ]);
    expect(stored[0]?.DeptId).toBeGreaterThan(0);
  });

  it.each([
    ['no Name column', () => 'LoginId\nx1\n', 'The required column is not included. Column:Name'],
    [
      'a short password on row 3',
      (id: string) => `LoginId,Name,Password\na-${id},A,long enough\nb-${id},B,short\n`,
      'Row 3, Password',
    ],
    ['a repeated LoginId', (id: string) => `LoginId,Name\nc-${id},C\nC-${id},C\n`, 'Row 3, LoginId'],
    [
      'an unknown dept',
      (id: string) => `LoginId,Name,DeptCode\nd-${id},D,nowhere-${id}\n`,
      'Row 2, DeptCode',
    ],
    ['a LoginId with a space', () => 'LoginId,Name\nbad id,E\n', 'Row 2, LoginId'],
    [
      'a mail address Kiroku cannot keep',
      (id: string) => `LoginId,Name,MailAddresses\nf-${id},F,f@example.com\n`,
      'Row 2, MailAddresses',
    ],
    [
      'the caller disabling themselves',
      () => 'LoginId,Name,Disabled\nAdministrator,Administrator,1\n',
      'Row 2, Disabled',
    ],
    [
      'a time zone that is none',
      (id: string) => `LoginId,Name,TimeZone\ng-${id},G,Mars/Base\n`,
      'Row 2, TimeZone',
    ],
  ])('refuses %s with 400 naming the row, and writes nothing', async (_case, csv, message) => {
    const id = unique();
    const before = (await users()).Data.length;
    const result = await importCsv('users', csv(id));
    expect(result.status).toBe(400);
    expect(String(result.body.Message)).toContain(message);
    expect((await users()).Data.length).toBe(before);
  });

  it('refuses a LoginId of another tenant as in use, and leaves that user alone', async () => {
    const result = await importCsv('users', `LoginId,Name\n${accounts.other.loginId},Taken\n`);
    expect(result.status).toBe(400);
    expect(String(result.body.Message)).toContain('Row 2, LoginId');
  });
});

describe('groups/import', () => {
  it('makes one group of the rows of one GroupName, adds members by LoginId and DeptCode', async () => {
    const id = unique();
    await importCsv('depts', `DeptCode,DeptName\ng${id},Group dept\n`);
    await importCsv('users', `LoginId,Name\nm1-${id},M1\nm2-${id},M2\n`);
    const csv = [
      'GroupName,MemberType,MemberKey,MemberName,MemberIsAdmin',
      `Team ${id},User,m1-${id},M1,`,
      `Team ${id},User,m2-${id},M2,`,
      `Team ${id},Dept,g${id},Group dept,`,
      `Empty ${id},,,,`,
    ].join('\n');
    const result = await importCsv('groups', `${csv}\n`);
    expect(result.body).toMatchObject({
      StatusCode: 200,
      Message: 'Groups: Group 2 added, 0 updated. Group members Added 3 and updated 0.',
    });
    const team = (await groups()).find((group) => group.GroupName === `Team ${id}`);
    expect(team?.Members).toHaveLength(3);

    const replaced = await importCsv(
      'groups',
      `GroupId,GroupName,MemberType,MemberKey\n${team?.GroupId},Team ${id} renamed,User,m1-${id}\n`,
      { parameters: { ReplaceAllGroupMembers: true } },
    );
    expect(replaced.body.Message).toBe(
      'Groups: Group 0 added, 1 updated. Group members Added 1 and updated 0.',
    );
    const after = (await groups()).find((group) => group.GroupId === team?.GroupId);
    expect(after).toMatchObject({
      GroupName: `Team ${id} renamed`,
      Members: [expect.stringMatching(/^User,\d+$/)],
    });
  });

  it.each([
    [
      'a member type that is none',
      'GroupName,MemberType,MemberKey\nT,Robot,x\n',
      'Invalid Member Type. Row: 2',
    ],
    [
      'a member that does not exist',
      'GroupName,MemberType,MemberKey\nT,User,nobody-at-all\n',
      'It is a member that does not exist. Row: 2',
    ],
    ['a group as a member', 'GroupName,MemberType,MemberKey\nT,Group,1\n', 'Row 2, MemberType'],
    [
      'an admin member',
      'GroupName,MemberType,MemberKey,MemberIsAdmin\nT,User,Administrator,1\n',
      'Row 2, MemberIsAdmin',
    ],
    ['no GroupName column', 'MemberType,MemberKey\nUser,Administrator\n', 'Column:Group name'],
    ['an empty GroupName', 'GroupName,MemberType\nT,\n,User\n', 'Row 3, GroupName'],
  ])('refuses %s with 400 and writes nothing', async (_case, csv, message) => {
    const before = (await groups()).length;
    const result = await importCsv('groups', csv);
    expect(result.status).toBe(400);
    expect(String(result.body.Message)).toContain(message);
    expect((await groups()).length).toBe(before);
  });
});

describe('permissions and tenants', () => {
  it.each(['users', 'groups', 'depts'] as const)(
    '%s/import: a user who is no tenant manager gets 403',
    async (kind) => {
      const csv = {
        users: 'LoginId,Name\nx,y\n',
        groups: 'GroupName\ng\n',
        depts: 'DeptCode,DeptName\nc,n\n',
      }[kind];
      const result = await importCsv(kind, csv, { key: accounts.user.apiKey });
      expect(result.status).toBe(403);
      expect(result.body.StatusCode).toBe(403);
    },
  );

  it('another tenant’s manager imports into their own tenant only, and cannot name this tenant’s users', async () => {
    const id = unique();
    const own = await importCsv('depts', `DeptCode,DeptName\nT${id},Theirs\n`, {
      key: accounts.other.apiKey,
    });
    expect(own.body.Message).toBe('Depts: 1 entries have been added and 0 entries updated.');
    expect((await depts()).some((dept) => dept.DeptCode === `T${id}`)).toBe(false);
    expect((await depts(accounts.other.apiKey)).some((dept) => dept.DeptCode === `T${id}`)).toBe(true);
    const member = await importCsv(
      'groups',
      `GroupName,MemberType,MemberKey\nG,User,${accounts.user.loginId}\n`,
      {
        key: accounts.other.apiKey,
      },
    );
    expect(member.body.Message).toBe('It is a member that does not exist. Row: 2');
    const theirGroups = await groups(accounts.other.apiKey);
    const groupId = (await groups())[0]?.GroupId;
    if (groupId !== undefined) {
      // Another tenant's GroupId is no group of theirs: the row makes a new group of its name instead.
      await importCsv('groups', `GroupId,GroupName\n${groupId},Mine ${id}\n`, { key: accounts.other.apiKey });
      expect((await groups()).find((group) => group.GroupId === groupId)?.GroupName).not.toBe(`Mine ${id}`);
      expect((await groups(accounts.other.apiKey)).length).toBe(theirGroups.length + 1);
    }
  });

  it.each([
    ['no file', (form: FormData) => form.delete('file'), 400, 'Please select a file.'],
    ['parameters that are not JSON', (form: FormData) => form.set('parameters', '{'), 400, undefined],
    [
      'ReplaceAllGroupMembers that is no boolean',
      (form: FormData) => form.set('parameters', '{"ReplaceAllGroupMembers": "yes"}'),
      400,
      undefined,
    ],
  ])('answers %s with a clear error', async (_case, change, status, message) => {
    const form = new FormData();
    form.set('parameters', '{}');
    form.set('file', new Blob(['DeptCode,DeptName\nq,q\n']), 'depts.csv');
    change(form);
    const response = await fetch(`${stack.url}/api/depts/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.StatusCode).toBe(status);
    if (message) expect(body.Message).toBe(message);
  });

  it('answers a JSON body with 400', async () => {
    const result = await call(
      stack.url,
      '/api/depts/import',
      { ApiKey: admin },
      { headers: { authorization: `Bearer ${admin}` } },
    );
    expect(result.body.StatusCode).toBe(400);
  });
});
