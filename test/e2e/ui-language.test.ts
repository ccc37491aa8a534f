import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, seedAccounts } from '../fixtures/accounts';
import { launchBrowser, loggedInPage, pageErrors, seriousViolations } from '../fixtures/browser';
import { call } from '../fixtures/client';
import { type Stack, startStack } from '../fixtures/stack';

/** The user's Language (CONTRACT 11) in the browser: chosen in user settings, followed by the UI. */

let stack: Stack;
let browser: Browser;
let admin: string;

beforeAll(async () => {
  stack = await startStack();
  admin = (await seedAccounts(stack.url)).admin.apiKey;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('ui: the user Language', () => {
  it('is chosen in user settings, stored on the user, and followed by the UI at the next login', async () => {
    const user = await createUser(stack.url, admin, `speaker-${Date.now()}`);
    const page = await loggedInPage(browser, stack.url, user);
    await page.getByRole('link', { name: 'User settings' }).click();
    await page.locator('#user-language').selectOption('ja');
    await page.getByRole('heading', { name: 'ユーザ設定' }).waitFor();
    const read = await call(stack.url, `/api/users/${user.userId}/get`, { ApiKey: user.apiKey });
    expect((read.body.Response as { Data: { Language: string }[] }).Data[0]?.Language).toBe('ja');
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();

    // A new browser whose own language is English: the user's Language decides once they are logged in.
    const again = await browser.newContext({ locale: 'en-US' });
    const fresh = await again.newPage();
    await fresh.goto(`${stack.url}/`);
    await fresh.getByLabel('Login ID').fill(user.loginId);
    await fresh.getByLabel('Password').fill(user.password);
    await fresh.getByRole('button', { name: 'Log in' }).click();
    await fresh.getByRole('link', { name: 'ユーザ設定' }).waitFor();
    await again.close();
  });

  it('keeps the browser choice for a user without one', async () => {
    const user = await createUser(stack.url, admin, `silent-${Date.now()}`);
    const page = await loggedInPage(browser, stack.url, user);
    await page.getByRole('link', { name: 'User settings' }).waitFor();
    await page.context().close();
  });
});
