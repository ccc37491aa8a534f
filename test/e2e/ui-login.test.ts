import { createServer, type Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { launchBrowser, pageErrors, watchErrors } from '../fixtures/browser';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Who is logged in is the server's to say (CONTRACT section 10): the page asks it, whatever browser storage
 * holds. And a login posted by another site's page is refused (login CSRF, CONTRACT section 1), seen from a
 * real browser with the Origin and Sec-Fetch-Site it sends.
 */

let stack: Stack;
let accounts: TestAccounts;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  await createSite(stack.url, accounts.admin.apiKey, 0, { Title: 'Shown to the cookie' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A fresh browser context holding `cookies` (`name=value`, from a login over HTTP) and nothing else. */
async function contextWith(cookies: readonly string[]): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addCookies(
    cookies.map((cookie) => {
      const [name = '', value = ''] = cookie.split('=');
      return { name, value, url: `${stack.url}/`, httpOnly: true, sameSite: 'Lax' as const };
    }),
  );
  return context;
}

/** Notes in the page whether a signed-in page (its Sign out button) was ever shown, even for a moment. */
async function watchSignedIn(page: Page): Promise<void> {
  await page.addInitScript(`new MutationObserver(() => {
    for (const button of document.querySelectorAll('button'))
      if (button.textContent === 'Sign out') window.sawSignedIn = true;
  }).observe(document, { childList: true, subtree: true });`);
}

/** A plain HTML form post of `fields` to `action` from the page (not the page's fetch): it navigates. */
function postForm(page: Page, action: string, fields: Record<string, string>): Promise<unknown> {
  return page.evaluate(`(() => {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = ${JSON.stringify(action)};
    for (const [name, value] of Object.entries(${JSON.stringify(fields)})) {
      const input = document.createElement('input');
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  })()`);
}

const sawSignedIn = (page: Page) => page.evaluate<boolean>('window.sawSignedIn === true');

describe('the login the UI shows', () => {
  it('opens the site tree for a browser holding only a login cookie', async () => {
    const context = await contextWith(await logIn(stack.url, accounts.admin.loginId));
    const page = await context.newPage();
    watchErrors(page);
    await page.goto(`${stack.url}/`);
    await page.getByRole('link', { name: 'Shown to the cookie' }).waitFor();
    expect(await page.evaluate<string>('location.hash')).not.toBe('#/login');
    expect(await page.getByLabel('Password').count()).toBe(0);
    expect(await page.evaluate<number>('localStorage.length')).toBe(0);
    expect(pageErrors(page)).toEqual([]);
    await context.close();
  });

  it('opens the site tree after an HTML form login on the same origin', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${stack.url}/`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    const answered = page.waitForURL(/\/users\/authenticate$/);
    await postForm(page, `${stack.url}/users/authenticate`, {
      LoginId: accounts.admin.loginId,
      Password: accounts.admin.password,
    });
    await answered;
    expect(await page.textContent('body')).toContain('"StatusCode":200');
    await page.goto(`${stack.url}/`);
    await page.getByRole('link', { name: 'Shown to the cookie' }).waitFor();
    await context.close();
  });

  it('shows the login form, and never a signed-in page, once the login has ended', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    watchErrors(page);
    await page.goto(`${stack.url}/`);
    await page.getByLabel('Login ID').fill(accounts.admin.loginId);
    await page.getByLabel('Password').fill(accounts.admin.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: 'Shown to the cookie' }).waitFor();

    // The login ends elsewhere (another tab signs out): the browser keeps whatever it had stored.
    const auth = (await context.cookies()).find((cookie) => cookie.name === 'Kiroku_Auth');
    const signOut = await call(
      stack.url,
      '/users/signout',
      {},
      { cookies: [`Kiroku_Auth=${auth?.value}`], headers: { 'x-requested-with': 'XMLHttpRequest' } },
    );
    expect(signOut.status).toBe(200);

    await watchSignedIn(page);
    await page.reload();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await page.evaluate<string>('location.hash')).toBe('#/login');
    expect(await sawSignedIn(page)).toBe(false);
    expect(pageErrors(page)).toEqual([]);
    await context.close();
  });
});

describe('a login posted by another site', () => {
  let hostile: Server;
  let hostileUrl: string;

  beforeAll(async () => {
    // The hostile page: a form that logs the visitor in as the attacker, on another site (localhost is
    // another site than 127.0.0.1, so Chromium sends Sec-Fetch-Site: cross-site).
    hostile = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><form method="post" action="${stack.url}/users/authenticate">
        <input name="LoginId" value="${accounts.user.loginId}">
        <input name="Password" value="${accounts.user.password}">
        </form><script>document.forms[0].submit()</script>`);
    });
    await new Promise<void>((done) => hostile.listen(0, '127.0.0.1', done));
    hostileUrl = `http://localhost:${(hostile.address() as { port: number }).port}/`;
  });

  afterAll(() => new Promise<void>((done) => hostile.close(() => done())));

  it('is refused with 403 and sets no login cookie', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const answer = page.waitForResponse((response) => response.url().endsWith('/users/authenticate'));
    await page.goto(hostileUrl);
    const response = await answer;
    expect(response.status()).toBe(403);
    expect((await response.request().allHeaders())['sec-fetch-site']).toBe('cross-site');
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('Kiroku_Auth');
    await context.close();
  });
});
