import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useClock } from '../../lib/clock';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { logIn, seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { type CallOptions, call } from '../fixtures/client';
import { type Stack, startStack } from '../fixtures/stack';

let stack: Stack;
let accounts: TestAccounts;
let key: string;

const post = (path: string, body?: unknown, options?: CallOptions) => call(stack.url, path, body, options);
const sessionCookie = (cookies: string[]) =>
  cookies.filter((cookie) => cookie.startsWith('Kiroku_SessionGuid='));

function withSettings(overrides: Record<string, string>) {
  useSettings(loadSettings({ ...process.env, ...overrides }));
}

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  key = accounts.user.apiKey;
});
afterAll(() => stack.close());
afterEach(() => {
  useSettings(undefined);
  useClock(undefined);
});

describe('sessions API', () => {
  describe('success shapes (spec 4.2)', () => {
    it('set answers {StatusCode, Response {UserId, Key}} and get the Value', async () => {
      const set = await post('/api/sessions/set', {
        ApiKey: key,
        SessionKey: 'shape',
        SessionValue: 'v',
        SavePerUser: true,
      });
      expect(set.status).toBe(200);
      expect(set.contentType).toBe('application/json; charset=utf-8');
      expect(set.body).toEqual({ StatusCode: 200, Response: { UserId: accounts.user.userId, Key: 'shape' } });
      const get = await post('/api/sessions/get', { ApiKey: key, SessionKey: 'shape', SavePerUser: true });
      expect(get.body).toEqual({
        StatusCode: 200,
        Response: { UserId: accounts.user.userId, Key: 'shape', Value: 'v' },
      });
      const del = await post('/api/sessions/delete', { ApiKey: key, SessionKey: 'shape', SavePerUser: true });
      expect(del.body).toEqual({ StatusCode: 200, Response: { UserId: accounts.user.userId, Key: 'shape' } });
    });
  });

  describe('errors (spec 7.1)', () => {
    const ops = ['get', 'set', 'delete'] as const;

    it.each([
      ['get', 'the key was never stored'],
      ['delete', 'the key does not exist'],
    ])('%s answers 404 when %s', async (op) => {
      const result = await post(`/api/sessions/${op}`, {
        ApiKey: key,
        SessionKey: 'never-stored',
        SavePerUser: true,
      });
      expect(result.status).toBe(404);
      expect(result.body).toEqual({
        Id: 0,
        StatusCode: 404,
        Message: 'The specified information was not found.',
      });
    });

    it('get answers 404 once the key was deleted', async () => {
      const body = { ApiKey: key, SessionKey: 'deleted', SavePerUser: true };
      await post('/api/sessions/set', { ...body, SessionValue: 'x' });
      expect((await post('/api/sessions/delete', body)).status).toBe(200);
      expect((await post('/api/sessions/get', body)).status).toBe(404);
      expect((await post('/api/sessions/delete', body)).status).toBe(404);
    });

    it.each(ops)(
      '%s with UseKeyValueStore true stays consistent (CONTRACT 3 departs from the 404)',
      async (op) => {
        withSettings({ KIROKU_PARAM_Session_UseKeyValueStore: 'true' });
        const body = { ApiKey: key, SessionKey: `kvs-${op}`, SavePerUser: true };
        expect((await post('/api/sessions/set', { ...body, SessionValue: 'kept' })).status).toBe(200);
        const result = await post(`/api/sessions/${op === 'set' ? 'get' : op}`, body);
        expect(result.status).toBe(200);
      },
    );

    it.each(ops)('%s answers 400 when MimeTypeCheckOnApi is on and the type is not JSON', async (op) => {
      withSettings({ KIROKU_PARAM_Security_MimeTypeCheckOnApi: 'true' });
      const body = { ApiKey: key, SessionKey: 'mime', SessionValue: 'v' };
      const result = await post(`/api/sessions/${op}`, body, { contentType: 'text/plain' });
      expect(result.status).toBe(400);
      expect(result.body).toEqual({
        Id: 0,
        StatusCode: 400,
        Message: 'Invalid request.',
        Errors: expect.any(Array),
      });
      const missing = await post(`/api/sessions/${op}`, body, { contentType: null });
      expect(missing.status).toBe(400);
    });

    it.each(ops)('%s accepts application/json with a charset when MimeTypeCheckOnApi is on', async (op) => {
      withSettings({ KIROKU_PARAM_Security_MimeTypeCheckOnApi: 'true' });
      const body = { ApiKey: key, SessionKey: 'mime-ok', SessionValue: 'v', SavePerUser: true };
      await post('/api/sessions/set', body);
      const result = await post(`/api/sessions/${op}`, body, {
        contentType: 'Application/JSON; charset=utf-8',
      });
      expect(result.status).toBe(200);
    });

    const invalid: [string, (typeof ops)[number], string | Record<string, unknown>, string][] = [
      ['JSON that does not parse', 'get', '{"SessionKey":', 'Invalid json data.'],
      ['an array body', 'set', '[1,2]', 'Invalid json data.'],
      ['a string body', 'delete', '"k"', 'Invalid json data.'],
      ['SessionKey missing', 'get', {}, 'Invalid request.'],
      ['SessionKey missing', 'set', { SessionValue: 'v' }, 'Invalid request.'],
      ['SessionKey missing', 'delete', {}, 'Invalid request.'],
      ['SessionKey empty', 'get', { SessionKey: '' }, 'Invalid request.'],
      ['SessionKey an object', 'get', { SessionKey: { a: 1 } }, 'Invalid request.'],
      ['SessionValue missing', 'set', { SessionKey: 'k' }, 'Invalid request.'],
      ['SessionValue empty', 'set', { SessionKey: 'k', SessionValue: '' }, 'Invalid request.'],
      ['SessionValue an object', 'set', { SessionKey: 'k', SessionValue: { a: 1 } }, 'Invalid request.'],
      ['SessionValue an array', 'set', { SessionKey: 'k', SessionValue: ['a'] }, 'Invalid request.'],
      ['SessionValue null', 'set', { SessionKey: 'k', SessionValue: null }, 'Invalid request.'],
      ['SavePerUser a string', 'get', { SessionKey: 'k', SavePerUser: 'yes' }, 'Invalid request.'],
      [
        'SessionKey over 251 characters',
        'set',
        { SessionKey: 'k'.repeat(252), SessionValue: 'v' },
        'Invalid request.',
      ],
      [
        'SessionValue over 350 KB',
        'set',
        { SessionKey: 'k', SessionValue: 'v'.repeat(350 * 1024 + 1) },
        'Invalid request.',
      ],
      ['ApiVersion not a number', 'get', { SessionKey: 'k', ApiVersion: 'one' }, 'Invalid json data.'],
    ];
    it.each(invalid)('answers 400 for %s (%s)', async (_case, op, body, message) => {
      const raw = typeof body === 'string' ? body.replace('{', `{"ApiKey":"${key}",`) : undefined;
      const result = await post(
        `/api/sessions/${op}`,
        typeof body === 'string' ? undefined : { ApiKey: key, ...body },
        {
          raw: raw ?? undefined,
        },
      );
      expect(result.status).toBe(400);
      expect(result.body).toEqual({ Id: 0, StatusCode: 400, Message: message, Errors: expect.any(Array) });
    });

    it.each(ops)('%s answers 401 when authentication fails', async (op) => {
      for (const apiKey of ['0'.repeat(128), 'not-a-key', undefined]) {
        const result = await post(`/api/sessions/${op}`, {
          ApiKey: apiKey,
          SessionKey: 'k',
          SessionValue: 'v',
        });
        expect(result.status).toBe(401);
        expect(result.body).toEqual({ Id: 0, StatusCode: 401, Message: 'Unable to authorize.' });
      }
    });

    it.each(ops)('%s answers 403 when the IP restriction is violated', async (op) => {
      withSettings({ KIROKU_PARAM_Security_AllowIpAddresses: '["10.0.0.0/8","::1"]' });
      const result = await post(`/api/sessions/${op}`, { ApiKey: key, SessionKey: 'k', SessionValue: 'v' });
      expect(result.status).toBe(403);
      expect(result.body).toEqual({ Id: 0, StatusCode: 403, Message: 'Invalid IP address.' });
    });

    it.each(['127.0.0.1', '127.0.0.0/8'])(
      'lets 127.0.0.1 through when AllowIpAddresses holds %s',
      async (entry) => {
        withSettings({ KIROKU_PARAM_Security_AllowIpAddresses: JSON.stringify([entry]) });
        const body = { ApiKey: key, SessionKey: 'ip', SessionValue: 'v', SavePerUser: true };
        expect((await post('/api/sessions/set', body)).status).toBe(200);
      },
    );

    it('judges the address API Gateway saw, never X-Forwarded-For', async () => {
      withSettings({ KIROKU_PARAM_Security_AllowIpAddresses: '["10.1.2.3"]' });
      const result = await post(
        '/api/sessions/set',
        { ApiKey: key, SessionKey: 'k', SessionValue: 'v' },
        { headers: { 'x-forwarded-for': '10.1.2.3' } },
      );
      expect(result.status).toBe(403);
    });

    it('checks in the reference order: 401 before MIME before the body', async () => {
      withSettings({ KIROKU_PARAM_Security_MimeTypeCheckOnApi: 'true' });
      const unauthorized = await post(
        '/api/sessions/set',
        { ApiKey: 'wrong' },
        { contentType: 'text/plain' },
      );
      expect(unauthorized.status).toBe(401);
      const mime = await post('/api/sessions/set', { ApiKey: key }, { contentType: 'text/plain' });
      expect(mime.body.Message).toBe('Invalid request.');
    });
  });

  describe('rule 1: the session cookie', () => {
    it('gives a client without the cookie a new session each time, so nothing reads back', async () => {
      const set = await post('/api/sessions/set', { ApiKey: key, SessionKey: 'rule1', SessionValue: 'v' });
      expect(set.status).toBe(200);
      const [cookie] = set.setCookies;
      expect(cookie).toMatch(/^Kiroku_SessionGuid=[0-9A-F]{32}; Path=\/; HttpOnly; SameSite=Lax$/);
      const get = await post('/api/sessions/get', { ApiKey: key, SessionKey: 'rule1' });
      expect(get.status).toBe(404);
      expect(sessionCookie(get.cookies)).toHaveLength(0);
    });

    it('reads the value back for a client that keeps the cookie', async () => {
      const set = await post('/api/sessions/set', { ApiKey: key, SessionKey: 'rule1', SessionValue: 'kept' });
      const cookies = sessionCookie(set.cookies);
      const get = await post('/api/sessions/get', { ApiKey: key, SessionKey: 'rule1' }, { cookies });
      expect(get.body).toEqual({
        StatusCode: 200,
        Response: { UserId: accounts.user.userId, Key: 'rule1', Value: 'kept' },
      });
      expect(get.setCookies).toHaveLength(0);
      const del = await post('/api/sessions/delete', { ApiKey: key, SessionKey: 'rule1' }, { cookies });
      expect(del.status).toBe(200);
      expect(
        (await post('/api/sessions/get', { ApiKey: key, SessionKey: 'rule1' }, { cookies })).status,
      ).toBe(404);
    });

    it('treats a malformed cookie as none', async () => {
      const set = await post(
        '/api/sessions/set',
        { ApiKey: key, SessionKey: 'k', SessionValue: 'v' },
        { cookies: ['Kiroku_SessionGuid=../../etc'] },
      );
      expect(set.setCookies[0]).toMatch(/^Kiroku_SessionGuid=[0-9A-F]{32};/);
    });
  });

  describe('rule 2: SavePerUser true', () => {
    it('persists across sessions and time until deleted', async () => {
      const body = { ApiKey: key, SessionKey: 'per-user', SavePerUser: true };
      await post('/api/sessions/set', { ...body, SessionValue: 'forever' });
      const start = Date.now();
      useClock(() => start + 400 * 24 * 3600_000);
      const get = await post('/api/sessions/get', body);
      expect(get.body.Response).toEqual({ UserId: accounts.user.userId, Key: 'per-user', Value: 'forever' });
      await post('/api/sessions/delete', body);
      expect((await post('/api/sessions/get', body)).status).toBe(404);
    });

    it('is not visible in the session scope, nor the reverse', async () => {
      await post('/api/sessions/set', {
        ApiKey: key,
        SessionKey: 'scoped',
        SessionValue: 'user',
        SavePerUser: true,
      });
      const set = await post('/api/sessions/set', {
        ApiKey: key,
        SessionKey: 'scoped',
        SessionValue: 'session',
      });
      const cookies = sessionCookie(set.cookies);
      const perUser = await post(
        '/api/sessions/get',
        { ApiKey: key, SessionKey: 'scoped', SavePerUser: true },
        { cookies },
      );
      const session = await post('/api/sessions/get', { ApiKey: key, SessionKey: 'scoped' }, { cookies });
      expect((perUser.body.Response as { Value: string }).Value).toBe('user');
      expect((session.body.Response as { Value: string }).Value).toBe('session');
    });
  });

  describe('rule 3: RetentionPeriod', () => {
    it('keeps a session value until exactly RetentionPeriod after its last write', async () => {
      withSettings({ KIROKU_PARAM_Session_RetentionPeriod: '60' });
      let clock = Date.now();
      useClock(() => clock);
      const set = await post('/api/sessions/set', {
        ApiKey: key,
        SessionKey: 'expiring',
        SessionValue: 'v1',
      });
      const cookies = sessionCookie(set.cookies);
      const get = () => post('/api/sessions/get', { ApiKey: key, SessionKey: 'expiring' }, { cookies });

      clock += 60 * 60_000 - 1;
      expect((await get()).status).toBe(200);
      await post(
        '/api/sessions/set',
        { ApiKey: key, SessionKey: 'expiring', SessionValue: 'v2' },
        { cookies },
      );
      clock += 60 * 60_000 - 1;
      expect(((await get()).body.Response as { Value: string }).Value).toBe('v2');
      clock += 1;
      expect((await get()).status).toBe(404);
      expect(
        (await post('/api/sessions/delete', { ApiKey: key, SessionKey: 'expiring' }, { cookies })).status,
      ).toBe(404);
    });

    it('applies a changed RetentionPeriod without a restart', async () => {
      const set = await post('/api/sessions/set', {
        ApiKey: key,
        SessionKey: 'shortened',
        SessionValue: 'v',
      });
      const cookies = sessionCookie(set.cookies);
      const start = Date.now();
      useClock(() => start + 2 * 60_000);
      expect(
        (await post('/api/sessions/get', { ApiKey: key, SessionKey: 'shortened' }, { cookies })).status,
      ).toBe(200);
      withSettings({ KIROKU_PARAM_Session_RetentionPeriod: '1' });
      expect(
        (await post('/api/sessions/get', { ApiKey: key, SessionKey: 'shortened' }, { cookies })).status,
      ).toBe(404);
    });
  });

  describe('scope: values bound to their user', () => {
    it('hides a value from another user presenting the same session cookie, and keeps it', async () => {
      const set = await post('/api/sessions/set', { ApiKey: key, SessionKey: 'mine', SessionValue: 'user' });
      const cookies = sessionCookie(set.cookies);
      const admin = accounts.admin.apiKey;
      expect(
        (await post('/api/sessions/get', { ApiKey: admin, SessionKey: 'mine' }, { cookies })).status,
      ).toBe(404);
      expect(
        (await post('/api/sessions/delete', { ApiKey: admin, SessionKey: 'mine' }, { cookies })).status,
      ).toBe(404);
      await post(
        '/api/sessions/set',
        { ApiKey: admin, SessionKey: 'mine', SessionValue: 'admin' },
        { cookies },
      );
      const mine = await post('/api/sessions/get', { ApiKey: key, SessionKey: 'mine' }, { cookies });
      expect((mine.body.Response as { Value: string }).Value).toBe('user');
    });

    it('keeps per-user values apart between users and tenants', async () => {
      const body = { SessionKey: 'isolated', SavePerUser: true };
      await post('/api/sessions/set', { ...body, ApiKey: key, SessionValue: 'user' });
      expect((await post('/api/sessions/get', { ...body, ApiKey: accounts.admin.apiKey })).status).toBe(404);
      expect((await post('/api/sessions/get', { ...body, ApiKey: accounts.other.apiKey })).status).toBe(404);
    });
  });

  describe('JSON in', () => {
    it('matches property names case-insensitively and keys case-sensitively', async () => {
      const set = await post('/api/sessions/set', {
        apikey: key,
        sessionkey: 'Case',
        sessionvalue: 'v',
        saveperuser: true,
      });
      expect(set.status).toBe(200);
      expect(
        (await post('/api/sessions/get', { APIKEY: key, SESSIONKEY: 'Case', SAVEPERUSER: true })).status,
      ).toBe(200);
      expect(
        (await post('/api/sessions/get', { ApiKey: key, SessionKey: 'case', SavePerUser: true })).status,
      ).toBe(404);
    });

    it('takes a number as its text', async () => {
      await post('/api/sessions/set', { ApiKey: key, SessionKey: 42, SessionValue: 1.5, SavePerUser: true });
      const get = await post('/api/sessions/get', { ApiKey: key, SessionKey: '42', SavePerUser: true });
      expect(get.body.Response).toEqual({ UserId: accounts.user.userId, Key: '42', Value: '1.5' });
    });

    it('keeps a 251-character key and a 350 KB value', async () => {
      const body = { ApiKey: key, SessionKey: 'k'.repeat(251), SavePerUser: true };
      const value = 'é'.repeat((350 * 1024) / 2);
      expect((await post('/api/sessions/set', { ...body, SessionValue: value })).status).toBe(200);
      expect(((await post('/api/sessions/get', body)).body.Response as { Value: string }).Value).toBe(value);
    });
  });

  describe('authentication by login cookie', () => {
    it('accepts the cookie with X-Requested-With, refuses it without (CSRF)', async () => {
      const cookies = await logIn(stack.url, accounts.user.loginId);
      const body = { SessionKey: 'cookie', SessionValue: 'v', SavePerUser: true };
      const refused = await post('/api/sessions/set', body, { cookies });
      expect(refused.status).toBe(403);
      expect(refused.body.Message).toBe('You do not have permission to perform this operation.');
      const xhr = { 'x-requested-with': 'XMLHttpRequest' };
      const accepted = await post('/api/sessions/set', body, { cookies, headers: xhr });
      expect(accepted.body.Response).toEqual({ UserId: accounts.user.userId, Key: 'cookie' });
    });

    it('answers 401 for a wrong ApiKey even with a valid login cookie', async () => {
      const cookies = await logIn(stack.url, accounts.user.loginId);
      const result = await post(
        '/api/sessions/get',
        { ApiKey: 'f'.repeat(128), SessionKey: 'cookie', SavePerUser: true },
        { cookies, headers: { 'x-requested-with': 'XMLHttpRequest' } },
      );
      expect(result.status).toBe(401);
    });
  });
});
