import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetCredentials } from '../../lib/accounts/authentication';
import { bootstrapAdministrator } from '../../lib/accounts/bootstrap';
import { accountKeys } from '../../lib/accounts/keys';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { dynamo } from '../../lib/storage/clients';
import { tableName } from '../../lib/storage/tables';
import { createUser, logIn, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { type Stack, startStack } from '../fixtures/stack';

/** Issue 10's privilege rules (CONTRACT section 5): privileged users, privileged login ids, credentials end. */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;
/** A tenant manager of tenant 1 who is not privileged. */
let manager: TestUser;
const xhr = { 'x-requested-with': 'XMLHttpRequest' };

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const withCookies = (path: string, cookies: string[], body: object = {}) =>
  call(stack.url, path, body, { cookies, headers: xhr });
const privileged = (...extra: string[]) =>
  useSettings(
    loadSettings({
      ...process.env,
      KIROKU_PARAM_Security_PrivilegedUsers: JSON.stringify(['Administrator', 'Root', ...extra]),
    }),
  );

beforeAll(async () => {
  stack = await startStack();
  privileged();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  manager = await createUser(stack.url, admin, `manager-${Date.now()}`, { TenantManager: true });
});
afterAll(() => stack.close());

describe('a tenant manager who is not privileged and a privileged user', () => {
  it.each([
    ['disable', 'update', { Disabled: true }],
    ['rename', 'update', { LoginId: 'Someone' }],
    ['change the password of', 'update', { Password: 'a new password here' }],
    ['change the name of', 'update', { Name: 'Renamed' }],
    ['delete', 'delete', {}],
    ['create an API key for', 'createapikey', {}],
    ['delete the API key of', 'deleteapikey', {}],
  ])('cannot %s the administrator: 403, and nothing changes', async (_what, operation, body) => {
    const before = await post(`/api/users/${accounts.admin.userId}/get`, { ApiKey: admin });
    const refused = await post(`/api/users/${accounts.admin.userId}/${operation}`, {
      ApiKey: manager.apiKey,
      ...body,
    });
    expect(refused.body.StatusCode, refused.text).toBe(403);
    expect((await post(`/api/users/${accounts.admin.userId}/get`, { ApiKey: admin })).body).toEqual(
      before.body,
    );
    await logIn(stack.url, 'Administrator', accounts.admin.password);
  });

  it('still manages a user who is not privileged', async () => {
    const plain = await createUser(stack.url, admin, `plain-${Date.now()}`);
    const disabled = await post(`/api/users/${plain.userId}/update`, {
      ApiKey: manager.apiKey,
      Disabled: true,
    });
    expect(disabled.body.StatusCode, disabled.text).toBe(200);
    expect(
      (await post(`/api/users/${plain.userId}/delete`, { ApiKey: manager.apiKey })).body.StatusCode,
    ).toBe(200);
  });
});

describe('privileged login ids', () => {
  it.each(['Root', 'root', 'ROOT'])(
    'a tenant manager cannot create a user named %s: 403',
    async (loginId) => {
      const refused = await post('/api/users/create', {
        ApiKey: manager.apiKey,
        LoginId: loginId,
        Name: 'x',
      });
      expect(refused.body.StatusCode, refused.text).toBe(403);
    },
  );

  it("another tenant's manager cannot create one either", async () => {
    const refused = await post('/api/users/create', {
      ApiKey: accounts.other.apiKey,
      LoginId: 'Root',
      Name: 'x',
    });
    expect(refused.body.StatusCode, refused.text).toBe(403);
  });

  it('a tenant manager cannot rename a user to one: 403', async () => {
    const plain = await createUser(stack.url, admin, `torename-${Date.now()}`);
    const refused = await post(`/api/users/${plain.userId}/update`, {
      ApiKey: manager.apiKey,
      LoginId: 'Root',
    });
    expect(refused.body.StatusCode, refused.text).toBe(403);
    const read = await post(`/api/users/${plain.userId}/get`, { ApiKey: admin });
    expect(read.text).toContain(plain.loginId);
  });

  it('a privileged caller gives one, and its user is privileged', async () => {
    const root = await createUser(stack.url, admin, 'Root');
    const tenant = await post('/api/tenants/create', {
      ApiKey: root.apiKey,
      TenantName: 'By root',
      AdminLoginId: `by-root-${Date.now()}`,
    });
    expect(tenant.body.StatusCode, tenant.text).toBe(200);
  });

  it('a login id listed after its user was made by a caller not privileged grants nothing', async () => {
    const legacy = await createUser(stack.url, accounts.other.apiKey, `legacy-${Date.now()}`, {
      TenantManager: true,
    });
    privileged(legacy.loginId);
    const tenant = await post('/api/tenants/create', {
      ApiKey: legacy.apiKey,
      TenantName: 'Not allowed',
      AdminLoginId: `nope-${Date.now()}`,
    });
    expect(tenant.body.StatusCode).toBe(403);
    const foreign = await post(`/api/users/${accounts.admin.userId}/get`, { ApiKey: legacy.apiKey });
    expect(foreign.body.StatusCode).toBe(404);
    privileged();
  });
});

describe('a database from before the first-start marker and the privilege record', () => {
  it('keeps its administrator privileged, and only it', async () => {
    const TableName = tableName('accounts');
    await dynamo().send(new DeleteCommand({ TableName, Key: { pk: 'BOOTSTRAP', sk: 'BOOTSTRAP' } }));
    await dynamo().send(
      new UpdateCommand({
        TableName,
        Key: accountKeys.user(accounts.admin.userId),
        UpdateExpression: 'REMOVE PrivilegeGranted',
      }),
    );
    forgetCredentials();
    const tenant = () =>
      post('/api/tenants/create', { ApiKey: admin, TenantName: 't', AdminLoginId: `t-${Date.now()}` });
    expect((await tenant()).body.StatusCode).toBe(403);
    expect((await bootstrapAdministrator()).created).toBe(false);
    forgetCredentials();
    expect((await tenant()).body.StatusCode).toBe(200);
  });
});

describe('credentials end', () => {
  const works = async (cookies: string[], userId: number) =>
    (await withCookies(`/api/users/${userId}/get`, cookies)).body.StatusCode;

  it('a password change by the user ends their other logins and keeps the one that made it', async () => {
    const user = await createUser(stack.url, admin, `pw-self-${Date.now()}`);
    const [making, other] = [await logIn(stack.url, user.loginId), await logIn(stack.url, user.loginId)];
    expect(await works(other, user.userId)).toBe(200);
    const changed = await withCookies(`/api/users/${user.userId}/update`, making, {
      Password: 'the new password',
    });
    expect(changed.body.StatusCode, changed.text).toBe(200);
    expect(await works(making, user.userId)).toBe(200);
    expect(await works(other, user.userId)).toBe(401);
    expect(await works(await logIn(stack.url, user.loginId, 'the new password'), user.userId)).toBe(200);
  });

  it('a password change by a manager ends every login of the user', async () => {
    const user = await createUser(stack.url, admin, `pw-manager-${Date.now()}`);
    const logins = [await logIn(stack.url, user.loginId), await logIn(stack.url, user.loginId)];
    const changed = await post(`/api/users/${user.userId}/update`, {
      ApiKey: manager.apiKey,
      Password: 'another one',
    });
    expect(changed.body.StatusCode).toBe(200);
    for (const cookies of logins) expect(await works(cookies, user.userId)).toBe(401);
  });

  it('disabling ends every login, and enabling again does not bring them back', async () => {
    const user = await createUser(stack.url, admin, `disabled-${Date.now()}`);
    const cookies = await logIn(stack.url, user.loginId);
    await post(`/api/users/${user.userId}/update`, { ApiKey: manager.apiKey, Disabled: true });
    expect(await works(cookies, user.userId)).toBe(401);
    await post(`/api/users/${user.userId}/update`, { ApiKey: manager.apiKey, Disabled: false });
    expect(await works(cookies, user.userId)).toBe(401);
    expect(await works(await logIn(stack.url, user.loginId), user.userId)).toBe(200);
  });

  it('deleting a user ends their logins and their key', async () => {
    const user = await createUser(stack.url, admin, `deleted-${Date.now()}`);
    const cookies = await logIn(stack.url, user.loginId);
    await post(`/api/users/${user.userId}/delete`, { ApiKey: manager.apiKey });
    expect(await works(cookies, user.userId)).toBe(401);
    expect((await post(`/api/users/${user.userId}/get`, { ApiKey: user.apiKey })).body.StatusCode).toBe(401);
  });

  it('deleting an API key ends requests with it', async () => {
    const user = await createUser(stack.url, admin, `key-${Date.now()}`);
    expect((await post(`/api/users/${user.userId}/get`, { ApiKey: user.apiKey })).body.StatusCode).toBe(200);
    await post(`/api/users/${user.userId}/deleteapikey`, { ApiKey: manager.apiKey });
    expect((await post(`/api/users/${user.userId}/get`, { ApiKey: user.apiKey })).body.StatusCode).toBe(401);
  });
});
