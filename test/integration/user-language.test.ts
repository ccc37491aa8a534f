import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetCredentials, principalForApiKey } from '../../lib/accounts/authentication';
import { callerLanguage } from '../../lib/accounts/caller-language';
import { createUser, seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { type Stack, startStack } from '../fixtures/stack';

/** A user's Language (CONTRACT 11), beside TimeZone: created, changed, answered, on the caller. */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;

const post = (path: string, body: object, key = admin) => call(stack.url, path, { ApiKey: key, ...body });
const languageOf = async (userId: number, key = admin) => {
  const read = await post(`/api/users/${userId}/get`, {}, key);
  return (read.body.Response as { Data: { Language: string }[] }).Data[0]?.Language;
};

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
});
afterAll(() => stack.close());

describe('users: Language', () => {
  it('is empty for a user without one, whose caller language is Service.DefaultLanguage', async () => {
    expect(await languageOf(accounts.user.userId)).toBe('');
    forgetCredentials();
    const principal = await principalForApiKey(accounts.user.apiKey);
    expect(principal?.language).toBeUndefined();
    expect(callerLanguage(principal as NonNullable<typeof principal>)).toBe('ja');
  });

  it('is kept on create, answered by get and users/current, and put on the caller', async () => {
    const loginId = `english-${Date.now()}`;
    const created = await post('/api/users/create', { LoginId: loginId, Name: 'English', Language: 'en' });
    expect(created.body.StatusCode, created.text).toBe(200);
    const userId = Number(created.body.Id);
    expect(await languageOf(userId)).toBe('en');
    const key = await post(`/api/users/${userId}/createapikey`, {});
    const apiKey = String(key.body.ApiKey);
    const current = await post('/api/users/current', {}, apiKey);
    expect((current.body.Response as { Data: { Language: string }[] }).Data[0]?.Language).toBe('en');
    forgetCredentials();
    expect((await principalForApiKey(apiKey))?.language).toBe('en');
  });

  it('is changed by the user themselves, and null takes it away', async () => {
    const user = await createUser(stack.url, admin, `changer-${Date.now()}`);
    const set = await post(`/api/users/${user.userId}/update`, { Language: 'en' }, user.apiKey);
    expect(set.body.StatusCode, set.text).toBe(200);
    expect(await languageOf(user.userId)).toBe('en');
    expect((await principalForApiKey(user.apiKey))?.language).toBe('en');
    await post(`/api/users/${user.userId}/update`, { Name: 'Renamed' }, user.apiKey);
    expect(await languageOf(user.userId)).toBe('en');
    await post(`/api/users/${user.userId}/update`, { Language: null }, user.apiKey);
    expect(await languageOf(user.userId)).toBe('');
  });

  it.each([
    ['create', 'fr'],
    ['create', 'JA'],
    ['update', 'english'],
    ['update', 1],
  ])('refuses an invalid value on %s (%s) with 400 naming Language', async (operation, Language) => {
    const answer =
      operation === 'create'
        ? await post('/api/users/create', { LoginId: `bad-${Date.now()}`, Name: 'Bad', Language })
        : await post(`/api/users/${accounts.user.userId}/update`, { Language });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('Language');
  });
});
