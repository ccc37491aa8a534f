import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, logIn, seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { type CallOptions, call } from '../fixtures/client';
import { type Stack, startStack } from '../fixtures/stack';

let stack: Stack;
let accounts: TestAccounts;
/** A dept of tenant 1, and one of the other tenant. */
let deptId: number;
let foreignDeptId: number;

const post = (path: string, body?: unknown, options?: CallOptions) => call(stack.url, path, body, options);
const xhr = { 'x-requested-with': 'XMLHttpRequest' };
const whoAmI = (options: CallOptions & { apiKey?: string }) =>
  post(
    '/api/sessions/set',
    { ApiKey: options.apiKey, SessionKey: 'who', SessionValue: '1', SavePerUser: true },
    options,
  );

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  const dept = (apiKey: string) => post('/api/depts/create', { ApiKey: apiKey, DeptName: 'Engineering' });
  deptId = Number((await dept(accounts.admin.apiKey)).body.Id);
  foreignDeptId = Number((await dept(accounts.other.apiKey)).body.Id);
});
afterAll(() => stack.close());

describe('accounts', () => {
  describe('login', () => {
    it('sets Kiroku_Auth for the retention period and a new Kiroku_SessionGuid', async () => {
      const login = await post('/users/authenticate', {
        LoginId: accounts.user.loginId,
        Password: accounts.user.password,
      });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ Id: accounts.user.userId, StatusCode: 200 });
      expect(login.setCookies[0]).toMatch(
        /^Kiroku_Auth=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=86400$/,
      );
      expect(login.setCookies[1]).toMatch(
        /^Kiroku_SessionGuid=[0-9A-F]{32}; Path=\/; HttpOnly; SameSite=Lax$/,
      );
    });

    it('takes an HTML form too', async () => {
      const form = new URLSearchParams({ LoginId: accounts.user.loginId, Password: accounts.user.password });
      const login = await post('/users/authenticate', undefined, {
        raw: form.toString(),
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(login.status).toBe(200);
    });

    it.each([
      ['a wrong password', () => ({ LoginId: accounts.user.loginId, Password: 'wrong password' })],
      ['an unknown login id', () => ({ LoginId: 'nobody', Password: 'whatever1' })],
    ])('answers 401 with no cookie for %s', async (_case, body) => {
      const login = await post('/users/authenticate', body());
      expect(login.status).toBe(401);
      expect(login.body).toEqual({ Id: 0, StatusCode: 401, Message: 'Unable to authorize.' });
      expect(login.setCookies).toHaveLength(0);
    });

    describe('refuses a login posted from another site (login CSRF)', () => {
      const own = () => new URL(stack.url).origin;
      const form = () =>
        new URLSearchParams({ LoginId: accounts.user.loginId, Password: accounts.user.password }).toString();
      // A page of another site can post JSON too, as a text/plain form whose one field spells it out.
      const plainJson = () =>
        JSON.stringify({ LoginId: accounts.user.loginId, Password: accounts.user.password });
      const formType = 'application/x-www-form-urlencoded';
      type Case = [string, () => Record<string, string>, () => string, string];

      it.each<Case>([
        ['another origin', () => ({ origin: 'https://evil.example' }), form, formType],
        [
          'another origin, cross-site',
          () => ({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
          form,
          formType,
        ],
        ['a cross-site post without Origin', () => ({ 'sec-fetch-site': 'cross-site' }), form, formType],
        ['a same-site post without Origin', () => ({ 'sec-fetch-site': 'same-site' }), form, formType],
        ['Origin null (a sandboxed frame)', () => ({ origin: 'null' }), form, formType],
        [
          'the own host over another scheme',
          () => ({ origin: own().replace('http:', 'https:') }),
          form,
          formType,
        ],
        ['the own host on another port', () => ({ origin: 'http://127.0.0.1:1' }), form, formType],
        [
          'the own Origin marked cross-site',
          () => ({ origin: own(), 'sec-fetch-site': 'cross-site' }),
          form,
          formType,
        ],
        ['JSON as a text/plain form', () => ({ origin: 'https://evil.example' }), plainJson, 'text/plain'],
        [
          'JSON from another origin',
          () => ({ origin: 'https://evil.example' }),
          plainJson,
          'application/json',
        ],
      ])('answers 403 with no cookie for %s', async (_case, headers, body, contentType) => {
        const login = await post('/users/authenticate', undefined, {
          raw: body(),
          contentType,
          headers: headers(),
        });
        expect(login.status).toBe(403);
        expect(login.body).toEqual({
          Id: 0,
          StatusCode: 403,
          Message:
            "Refused: the request came from another site's page. Log in from this site's own login page.",
        });
        expect(login.setCookies).toHaveLength(0);
      });

      it.each<Case>([
        ['a same-origin form', () => ({ origin: own(), 'sec-fetch-site': 'same-origin' }), form, formType],
        ['a form with its own Origin only', () => ({ origin: own() }), form, formType],
        [
          'a form from the address bar (Sec-Fetch-Site none)',
          () => ({ 'sec-fetch-site': 'none' }),
          form,
          formType,
        ],
        [
          "the UI's JSON login",
          () => ({ origin: own(), 'sec-fetch-site': 'same-origin', 'x-requested-with': 'XMLHttpRequest' }),
          plainJson,
          'application/json',
        ],
        ['a JSON client without Origin (curl)', () => ({}), plainJson, 'application/json'],
      ])('logs in %s', async (_case, headers, body, contentType) => {
        const login = await post('/users/authenticate', undefined, {
          raw: body(),
          contentType,
          headers: headers(),
        });
        expect(login.status).toBe(200);
        expect(login.cookies.map((cookie) => cookie.split('=')[0])).toEqual([
          'Kiroku_Auth',
          'Kiroku_SessionGuid',
        ]);
      });
    });

    it('ends the login at sign-out', async () => {
      const cookies = await logIn(stack.url, accounts.user.loginId);
      expect((await whoAmI({ cookies, headers: xhr })).status).toBe(200);
      expect((await post('/users/signout', {}, { cookies })).status).toBe(403);
      const signOut = await post('/users/signout', {}, { cookies, headers: xhr });
      expect(signOut.status).toBe(200);
      expect(signOut.setCookies[0]).toMatch(/^Kiroku_Auth=; .*Max-Age=0/);
      expect((await whoAmI({ cookies, headers: xhr })).status).toBe(401);
    });
  });

  describe('users/current', () => {
    it('answers the user of the login cookie, and 401 once the login has ended', async () => {
      const cookies = await logIn(stack.url, accounts.user.loginId);
      const current = () => post('/api/users/current', {}, { cookies, headers: xhr });
      const answer = await current();
      expect(answer.status).toBe(200);
      expect(answer.body.Response).toMatchObject({
        TotalCount: 1,
        Data: [{ UserId: accounts.user.userId, LoginId: accounts.user.loginId }],
      });
      await post('/users/signout', {}, { cookies, headers: xhr });
      expect((await current()).status).toBe(401);
    });

    it('answers the user of an ApiKey, and 401 without credentials', async () => {
      const answer = await post('/api/users/current', { ApiKey: accounts.admin.apiKey });
      expect(answer.body.Response).toMatchObject({ Data: [{ UserId: accounts.admin.userId }] });
      expect((await post('/api/users/current', {})).status).toBe(401);
    });
  });

  describe('users', () => {
    it('lets a tenant manager create, read, update and delete a user', async () => {
      const admin = accounts.admin.apiKey;
      const created = await post('/api/users/create', {
        ApiKey: admin,
        LoginId: 'crud',
        Name: 'Crud',
        Password: 'password1',
      });
      expect(created.body).toMatchObject({ StatusCode: 200, Message: '" Crud " has been created.' });
      const id = Number(created.body.Id);
      const read = await post(`/api/users/${id}/get`, { ApiKey: accounts.user.apiKey });
      expect(read.body).toMatchObject({
        StatusCode: 200,
        Response: {
          TotalCount: 1,
          Data: [{ UserId: id, LoginId: 'crud', Name: 'Crud', TenantManager: false, HasApiKey: false }],
        },
      });
      expect(read.text).not.toMatch(/Hash|scrypt/);
      const updated = await post(`/api/users/${id}/update`, { ApiKey: admin, Name: 'Renamed' });
      expect(updated.body).toEqual({ Id: id, StatusCode: 200, Message: '" Renamed " has been updated.' });
      expect((await post(`/api/users/${id}/delete`, { ApiKey: admin })).status).toBe(200);
      expect((await post(`/api/users/${id}/get`, { ApiKey: admin })).status).toBe(404);
    });

    it('refuses a duplicated login id, whatever its case', async () => {
      const result = await post('/api/users/create', {
        ApiKey: accounts.admin.apiKey,
        LoginId: 'ADMINISTRATOR',
        Name: 'x',
      });
      expect(result.body).toEqual({
        Id: 0,
        StatusCode: 409,
        Message: 'Cannot be updated because LoginId is duplicated.',
      });
    });

    it.each([
      ['create a user', '/api/users/create', { LoginId: 'nope', Name: 'nope' }],
      ['create a group', '/api/groups/create', { GroupName: 'nope' }],
      ['create a tenant', '/api/tenants/create', { TenantName: 'nope', AdminLoginId: 'nope' }],
    ])('refuses a plain user to %s (403)', async (_case, path, body) => {
      const result = await post(path, { ApiKey: accounts.user.apiKey, ...body });
      expect(result.body).toEqual({
        Id: 0,
        StatusCode: 403,
        Message: 'You do not have permission to perform this operation.',
      });
    });

    it('lets a user change their own name but not their TenantManager flag', async () => {
      const { userId, apiKey } = accounts.user;
      expect((await post(`/api/users/${userId}/update`, { ApiKey: apiKey, Name: 'Me' })).status).toBe(200);
      expect(
        (await post(`/api/users/${userId}/update`, { ApiKey: apiKey, TenantManager: true })).status,
      ).toBe(403);
    });

    it('replaces an API key: the old one stops working at once', async () => {
      const user = await createUser(stack.url, accounts.admin.apiKey, 'rekey');
      expect((await whoAmI({ apiKey: user.apiKey })).status).toBe(200);
      const renewed = await post(`/api/users/${user.userId}/createapikey`, { ApiKey: user.apiKey });
      expect(renewed.body.ApiKey).toMatch(/^[0-9a-f]{128}$/);
      expect((await whoAmI({ apiKey: user.apiKey })).status).toBe(401);
      expect((await whoAmI({ apiKey: String(renewed.body.ApiKey) })).status).toBe(200);
      await post(`/api/users/${user.userId}/deleteapikey`, { ApiKey: String(renewed.body.ApiKey) });
      expect((await whoAmI({ apiKey: String(renewed.body.ApiKey) })).status).toBe(401);
    });

    it('shuts out a disabled user, by key and by password', async () => {
      const user = await createUser(stack.url, accounts.admin.apiKey, 'disabled');
      await post(`/api/users/${user.userId}/update`, { ApiKey: accounts.admin.apiKey, Disabled: true });
      expect((await whoAmI({ apiKey: user.apiKey })).status).toBe(401);
      expect(
        (await post('/users/authenticate', { LoginId: 'disabled', Password: user.password })).status,
      ).toBe(401);
    });
  });

  describe('groups', () => {
    it('keeps members of the tenant only', async () => {
      const admin = accounts.admin.apiKey;
      const created = await post('/api/groups/create', {
        ApiKey: admin,
        GroupName: 'Team',
        Members: [`User,${accounts.user.userId}`],
      });
      expect(created.body).toMatchObject({ StatusCode: 200, Message: '" Team " has been created.' });
      const id = Number(created.body.Id);
      const read = await post(`/api/groups/${id}/get`, { ApiKey: accounts.user.apiKey });
      expect(read.body.Response).toMatchObject({
        Data: [{ GroupId: id, GroupName: 'Team', Members: [`User,${accounts.user.userId}`] }],
      });
      const user = await post(`/api/users/${accounts.user.userId}/get`, { ApiKey: admin });
      expect(user.body.Response).toMatchObject({ Data: [{ Groups: [`Group,${id}`] }] });
      const foreign = await post(`/api/groups/${id}/update`, {
        ApiKey: admin,
        Members: [`User,${accounts.other.userId}`],
      });
      expect(foreign.body.StatusCode).toBe(400);
      expect((await post(`/api/groups/${id}/update`, { ApiKey: admin, Members: [] })).status).toBe(200);
      expect((await post(`/api/groups/${id}/delete`, { ApiKey: admin })).status).toBe(200);
      expect((await post(`/api/groups/${id}/get`, { ApiKey: admin })).status).toBe(404);
    });
  });

  describe('transaction sizes', () => {
    const admin = () => accounts.admin.apiKey;
    const newUsers = (count: number, prefix: string) =>
      Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const created = await post('/api/users/create', {
            ApiKey: admin(),
            LoginId: `${prefix}-${i}-${Date.now()}`,
            Name: `${prefix} ${i}`,
          });
          return Number(created.body.Id);
        }),
      ).then((ids) => ids.sort((a, b) => a - b));

    it('deletes a user who is in more groups than one transaction holds', async () => {
      const [userId] = await newUsers(1, 'joiner');
      const groups = await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          const created = await post('/api/groups/create', {
            ApiKey: admin(),
            GroupName: `Group ${i}`,
            Members: [`User,${userId}`, `User,${accounts.user.userId}`],
          });
          return Number(created.body.Id);
        }),
      );
      const deleted = await post(`/api/users/${userId}/delete`, { ApiKey: admin() });
      expect(deleted.body.StatusCode, deleted.text).toBe(200);
      expect((await post(`/api/users/${userId}/get`, { ApiKey: admin() })).status).toBe(404);
      const members = await post(`/api/groups/${groups[59]}/get`, { ApiKey: admin() });
      expect(members.body.Response).toMatchObject({ Data: [{ Members: [`User,${accounts.user.userId}`] }] });
      const user = await post(`/api/users/${accounts.user.userId}/get`, { ApiKey: admin() });
      const inGroups = (user.body.Response as { Data: { Groups: string[] }[] }).Data[0]?.Groups ?? [];
      expect(inGroups).toEqual(expect.arrayContaining(groups.map((id) => `Group,${id}`)));
    });

    it('refuses to change more memberships in one update than a transaction holds, changing nothing', async () => {
      const first = await newUsers(50, 'first');
      const second = await newUsers(50, 'second');
      const created = await post('/api/groups/create', {
        ApiKey: admin(),
        GroupName: 'Big',
        Members: first.map((id) => `User,${id}`),
      });
      const id = Number(created.body.Id);
      const swap = await post(`/api/groups/${id}/update`, {
        ApiKey: admin(),
        Members: second.map((userId) => `User,${userId}`),
      });
      expect(swap.body).toMatchObject({ Id: id, StatusCode: 400 });
      const read = await post(`/api/groups/${id}/get`, { ApiKey: admin() });
      expect(read.body.Response).toMatchObject({
        Data: [{ Members: first.map((userId) => `User,${userId}`) }],
      });
      const half = await post(`/api/groups/${id}/update`, {
        ApiKey: admin(),
        Members: [...first.slice(0, 25), ...second.slice(0, 25)].map((userId) => `User,${userId}`),
      });
      expect(half.body.StatusCode, half.text).toBe(200);
    });
  });

  describe('depts', () => {
    it('lets a tenant manager create, read, update and delete a dept, and put users in it', async () => {
      const admin = accounts.admin.apiKey;
      const created = await post('/api/depts/create', { ApiKey: admin, DeptCode: 'D1', DeptName: 'Sales' });
      expect(created.body).toMatchObject({ StatusCode: 200, Message: '" Sales " has been created.' });
      const id = Number(created.body.Id);
      const read = await post(`/api/depts/${id}/get`, { ApiKey: accounts.user.apiKey });
      expect(read.body.Response).toMatchObject({
        TotalCount: 1,
        Data: [{ DeptId: id, TenantId: 1, DeptCode: 'D1', DeptName: 'Sales', Disabled: false }],
      });
      const updated = await post(`/api/depts/${id}/update`, { ApiKey: admin, DeptName: 'Field sales' });
      expect(updated.body).toEqual({ Id: id, StatusCode: 200, Message: '" Field sales " has been updated.' });

      const staff = await createUser(stack.url, admin, `staff-${Date.now()}`, { DeptId: id });
      const user = async () =>
        (await post(`/api/users/${staff.userId}/get`, { ApiKey: admin })).body.Response as {
          Data: { DeptId: number }[];
        };
      expect((await user()).Data[0]?.DeptId).toBe(id);
      await post(`/api/users/${staff.userId}/update`, { ApiKey: admin, DeptId: 0 });
      expect((await user()).Data[0]?.DeptId).toBe(0);

      expect((await post(`/api/depts/${id}/delete`, { ApiKey: admin })).body).toEqual({
        Id: id,
        StatusCode: 200,
        Message: '" Field sales " has been deleted.',
      });
      expect((await post(`/api/depts/${id}/get`, { ApiKey: admin })).status).toBe(404);
    });

    it.each([
      ['create', () => ({ path: '/api/depts/create', body: { DeptName: 'x' } })],
      ['update', () => ({ path: `/api/depts/${deptId}/update`, body: { DeptName: 'x' } })],
      ['delete', () => ({ path: `/api/depts/${deptId}/delete`, body: {} })],
    ])('refuses %s to a user who is not a tenant manager', async (_case, request) => {
      const { path, body } = request();
      const result = await post(path, { ApiKey: accounts.user.apiKey, ...body });
      expect(result.body.StatusCode).toBe(403);
      expect((await post(`/api/depts/${deptId}/get`, { ApiKey: accounts.user.apiKey })).status).toBe(200);
    });

    it.each([
      ['a dept that does not exist', () => 987_654_321],
      ["another tenant's dept", () => foreignDeptId],
      ['a negative id', () => -1],
      ['a fraction', () => 1.5],
    ])('refuses %s as a DeptId with 400, changing nothing', async (_case, id) => {
      const result = await post(`/api/users/${accounts.user.userId}/update`, {
        ApiKey: accounts.admin.apiKey,
        DeptId: id(),
      });
      expect(result.body.StatusCode).toBe(400);
      const user = await post(`/api/users/${accounts.user.userId}/get`, { ApiKey: accounts.admin.apiKey });
      expect(user.body.Response).toMatchObject({ Data: [{ DeptId: 0 }] });
    });

    it('does not let users move themselves into a dept', async () => {
      const result = await post(`/api/users/${accounts.user.userId}/update`, {
        ApiKey: accounts.user.apiKey,
        DeptId: deptId,
      });
      expect(result.body.StatusCode).toBe(403);
    });

    it("keeps a group's depts to the tenant's own", async () => {
      const admin = accounts.admin.apiKey;
      const group = await post('/api/groups/create', {
        ApiKey: admin,
        GroupName: 'Depts',
        Members: [`Dept,${deptId}`, `User,${accounts.user.userId}`],
      });
      const id = Number(group.body.Id);
      const read = await post(`/api/groups/${id}/get`, { ApiKey: admin });
      expect(read.body.Response).toMatchObject({
        Data: [{ Members: [`User,${accounts.user.userId}`, `Dept,${deptId}`] }],
      });
      const foreign = await post(`/api/groups/${id}/update`, {
        ApiKey: admin,
        Members: [`Dept,${foreignDeptId}`],
      });
      expect(foreign.body.StatusCode).toBe(400);
      expect((await post(`/api/groups/${id}/get`, { ApiKey: admin })).body.Response).toMatchObject({
        Data: [{ Members: [`User,${accounts.user.userId}`, `Dept,${deptId}`] }],
      });
    });
  });

  describe('tenant isolation', () => {
    it.each([
      ['users/{id}/get', (id: number) => `/api/users/${id}/get`],
      ['users/{id}/update', (id: number) => `/api/users/${id}/update`],
      ['users/{id}/delete', (id: number) => `/api/users/${id}/delete`],
      ['users/{id}/createapikey', (id: number) => `/api/users/${id}/createapikey`],
      ['users/{id}/deleteapikey', (id: number) => `/api/users/${id}/deleteapikey`],
    ])("answers 404 for another tenant's user on %s", async (_case, path) => {
      const result = await post(path(accounts.user.userId), { ApiKey: accounts.other.apiKey, Name: 'x' });
      expect(result.body).toEqual({
        Id: accounts.user.userId,
        StatusCode: 404,
        Message: 'The specified information was not found.',
      });
      expect((await whoAmI({ apiKey: accounts.user.apiKey })).status).toBe(200);
    });

    it.each([
      ['groups/{id}/get', (id: number) => `/api/groups/${id}/get`],
      ['groups/{id}/update', (id: number) => `/api/groups/${id}/update`],
      ['groups/{id}/delete', (id: number) => `/api/groups/${id}/delete`],
    ])("answers 404 for another tenant's group on %s", async (_case, path) => {
      const created = await post('/api/groups/create', {
        ApiKey: accounts.admin.apiKey,
        GroupName: 'Ours',
        Members: [`User,${accounts.user.userId}`],
      });
      const id = Number(created.body.Id);
      const result = await post(path(id), { ApiKey: accounts.other.apiKey, GroupName: 'x', Members: [] });
      expect(result.body).toEqual({
        Id: id,
        StatusCode: 404,
        Message: 'The specified information was not found.',
      });
      const read = await post(`/api/groups/${id}/get`, { ApiKey: accounts.admin.apiKey });
      expect(read.body.Response).toMatchObject({
        Data: [{ GroupName: 'Ours', Members: [`User,${accounts.user.userId}`] }],
      });
    });

    it.each([
      ['depts/{id}/get', (id: number) => `/api/depts/${id}/get`],
      ['depts/{id}/update', (id: number) => `/api/depts/${id}/update`],
      ['depts/{id}/delete', (id: number) => `/api/depts/${id}/delete`],
    ])("answers 404 for another tenant's dept on %s", async (_case, path) => {
      const result = await post(path(deptId), { ApiKey: accounts.other.apiKey, DeptName: 'x' });
      expect(result.body).toEqual({
        Id: deptId,
        StatusCode: 404,
        Message: 'The specified information was not found.',
      });
      const read = await post(`/api/depts/${deptId}/get`, { ApiKey: accounts.admin.apiKey });
      expect(read.body.Response).toMatchObject({ Data: [{ DeptName: 'Engineering' }] });
    });
  });

  describe('routing', () => {
    it('answers 404 and 405 as JSON for unknown paths and wrong methods', async () => {
      const missing = await post('/api/nothing', {});
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({
        Id: 0,
        StatusCode: 404,
        Message: 'The specified information was not found.',
      });
      const wrongMethod = await call(stack.url, '/api/sessions/get', undefined, { method: 'GET' });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.body.StatusCode).toBe(405);
    });

    it('answers 400, not 500, for a path id that is not a number', async () => {
      const result = await post('/api/users/abc/get', { ApiKey: accounts.admin.apiKey });
      expect(result.body).toEqual({
        Id: 0,
        StatusCode: 400,
        Message: 'Invalid request.',
        Errors: expect.any(Array),
      });
    });
  });
});
