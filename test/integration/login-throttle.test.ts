import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILURE_WINDOW_MS, FREE_FAILURES, lockTime } from '../../lib/accounts/login-throttle';
import { useClock } from '../../lib/clock';
import { createUser, seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Failed logins slow down per login id (lib/accounts/login-throttle.ts), through the local gateway: the
 * count is in DynamoDB, so it would hold across Lambda instances. The clock is moved, never slept on.
 */
let stack: Stack;
let accounts: TestAccounts;
let clock = Date.now();

const authenticate = (LoginId: string, Password: string) =>
  call(stack.url, '/users/authenticate', { LoginId, Password });
const THROTTLED = {
  Id: 0,
  StatusCode: 429,
  Message: 'Too many failed logins for this login ID. Please try again later.',
};

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  useClock(() => clock);
});
afterAll(() => stack.close());

describe('login throttling', () => {
  it('locks a login id after the free failures, for a doubling time, even for the right password', async () => {
    const { loginId, password } = await createUser(
      stack.url,
      accounts.admin.apiKey,
      `throttled-${Date.now()}`,
    );
    for (let attempt = 1; attempt <= FREE_FAILURES; attempt++) {
      expect((await authenticate(loginId, 'wrong password')).status).toBe(401);
    }
    const refused = await authenticate(loginId, password);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(THROTTLED);
    expect(refused.setCookies).toHaveLength(0);
    // Other login ids are not affected.
    expect((await authenticate(accounts.user.loginId, accounts.user.password)).status).toBe(200);

    clock += lockTime(FREE_FAILURES) + 1;
    // One more failure locks it twice as long.
    expect((await authenticate(loginId, 'wrong again')).status).toBe(401);
    clock += lockTime(FREE_FAILURES);
    expect((await authenticate(loginId, password)).status).toBe(429);
    clock += lockTime(FREE_FAILURES + 1);
    expect((await authenticate(loginId, password)).status).toBe(200);

    // The success cleared the count: the next failure is a free one again.
    expect((await authenticate(loginId, 'wrong password')).status).toBe(401);
    expect((await authenticate(loginId, password)).status).toBe(200);
  });

  it('counts login ids without case, and unknown ones alike', async () => {
    const unknown = `Nobody-${Date.now()}`;
    for (let attempt = 0; attempt < FREE_FAILURES; attempt++) {
      const id = attempt % 2 === 0 ? unknown : unknown.toUpperCase();
      expect((await authenticate(id, 'guess')).status).toBe(401);
    }
    expect((await authenticate(unknown.toLowerCase(), 'guess')).body).toEqual(THROTTLED);
  });

  it('forgets failures a window after the last one', async () => {
    const { loginId, password } = await createUser(stack.url, accounts.admin.apiKey, `lapsed-${Date.now()}`);
    for (let attempt = 1; attempt < FREE_FAILURES; attempt++) {
      expect((await authenticate(loginId, 'wrong password')).status).toBe(401);
    }
    clock += FAILURE_WINDOW_MS + 1000;
    // Had the count lived on, this failure would lock the login id.
    expect((await authenticate(loginId, 'wrong password')).status).toBe(401);
    expect((await authenticate(loginId, password)).status).toBe(200);
  });
});
