import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import {
  launchBrowser,
  loggedInPage,
  pageErrors,
  screenshot,
  seriousViolations,
  watchErrors,
} from '../fixtures/browser';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * The browser UI end to end (issue 16): Debian's Chromium against the local stack over real HTTP, as a
 * person uses it. Each page is also checked by axe-core and photographed for docs/ui.md.
 */

let stack: Stack;
let accounts: TestAccounts;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack({ streams: true });
  accounts = await seedAccounts(stack.url);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function expectAccessible(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

async function recordOf(id: number) {
  const answer = await call(stack.url, `/api/items/${id}/get`, { ApiKey: accounts.admin.apiKey });
  return (answer.body.Response as { Data: Record<string, unknown>[] }).Data[0] as Record<string, unknown>;
}

describe('the browser UI', () => {
  it('logs in with the form, and signs out: the cookie no longer works', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    watchErrors(page);
    await page.goto(`${stack.url}/`);
    await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#/login');
    await expectAccessible(page);
    await screenshot(page, 'login');

    await page.getByLabel('Login ID').fill(accounts.admin.loginId);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    // The API's message in words, never a JSON dump.
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toMatch(/\w/);
    expect(await alert.textContent()).not.toContain('{');

    await page.getByLabel('Password').fill(accounts.admin.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Top' }).waitFor();
    const cookies = await context.cookies();
    const auth = cookies.find((cookie) => cookie.name === 'Kiroku_Auth');
    expect(auth?.httpOnly).toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    const after = await call(
      stack.url,
      '/api/items/0/childsites',
      {},
      {
        cookies: [`Kiroku_Auth=${auth?.value}`],
        headers: { 'x-requested-with': 'XMLHttpRequest' },
      },
    );
    expect(after.body.StatusCode).toBe(401);
    expect(pageErrors(page)).toEqual([]);
    await context.close();
  });

  it('creates a folder and a table in it, and a record with every field family', async () => {
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.getByLabel('Title').fill('Operations');
    await page.getByLabel('Type').selectOption('Sites');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('link', { name: 'Operations' }).click();
    await page.getByRole('heading', { name: 'Operations' }).waitFor();
    await page.getByLabel('Title').fill('Tasks');
    await page.getByLabel('Type').selectOption('Issues');
    await page.getByRole('button', { name: 'Create' }).click();
    await expectAccessible(page);
    await screenshot(page, 'folder');
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('heading', { name: 'Tasks' }).waitFor();
    // The form follows the table's design: the default editor columns and one of each family placed.
    const tasks = Number((await page.evaluate<string>('location.hash')).split('/')[2]);
    await call(stack.url, `/api/items/${tasks}/updatesite`, {
      ApiKey: accounts.admin.apiKey,
      SiteSettings: {
        EditorColumnHash: {
          General: [
            'IssueId',
            'Ver',
            'Title',
            'Body',
            'StartTime',
            'CompletionTime',
            'WorkValue',
            'ProgressRate',
            'RemainingWorkValue',
            'Status',
            'Manager',
            'Owner',
            'ClassA',
            'NumA',
            'DateA',
            'DescriptionA',
            'CheckA',
            'Comments',
          ],
        },
      },
    });
    await page.getByRole('link', { name: 'New record' }).click();

    await page.getByLabel('Title', { exact: true }).fill('Replace the pump');
    await page.getByLabel('Body', { exact: true }).fill('# Steps\n\n1. Order the part');
    await page.getByLabel('Status', { exact: true }).selectOption('200');
    await page.getByLabel('Manager', { exact: true }).selectOption(String(accounts.admin.userId));
    await page.getByLabel('Owner', { exact: true }).selectOption(String(accounts.user.userId));
    await page.getByLabel('Start time').fill('2026-11-24');
    await page.getByLabel('Completion').fill('2026-11-30');
    await page.getByLabel('Work volume', { exact: true }).fill('12.5');
    await page.getByLabel('Progression rate').fill('40');
    await page.getByLabel('ClassA').fill('Plant 3');
    await page.getByLabel('Numeric valueA').fill('1234.5');
    await page.getByLabel('DateA').fill('2026-12-01');
    await page.getByLabel('DescriptionA').fill('Spare kept in *store B*');
    await page.getByLabel('CheckA').check();
    await expectAccessible(page);
    await screenshot(page, 'record-form');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.evaluate<string>('location.hash')).toMatch(/^#\/items\/\d+$/);
    const id = Number((await page.evaluate<string>('location.hash')).split('/')[2]);

    const record = await recordOf(id);
    expect(record).toMatchObject({
      Title: 'Replace the pump',
      Body: '# Steps\n\n1. Order the part',
      Status: 200,
      Manager: accounts.admin.userId,
      Owner: accounts.user.userId,
      StartTime: '2026-11-24T00:00:00',
      WorkValue: 12.5,
      ProgressRate: 40,
      ClassHash: { ClassA: 'Plant 3' },
      // NumA shows no decimal places unless the site sets some: a write stores it rounded (1234.5 → 1235).
      NumHash: { NumA: 1235 },
      DateHash: { DateA: '2026-12-01T00:00:00' },
      DescriptionHash: { DescriptionA: 'Spare kept in *store B*' },
      CheckHash: { CheckA: true },
    });

    // The form shows what was stored, and a number over the column's Max is refused before sending.
    await page.getByLabel('Title', { exact: true }).waitFor();
    expect(await page.getByLabel('ClassA').inputValue()).toBe('Plant 3');
    await page.getByLabel('Numeric valueA').fill('1e300');
    await page.getByRole('button', { name: 'Save' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('error in the entered content');
    expect(await page.locator('#field-NumA-error').textContent()).toBe('The number entered is too large.');
    expect(await page.getByLabel('Numeric valueA').getAttribute('aria-invalid')).toBe('true');
    expect((await recordOf(id)).NumHash).toEqual({ NumA: 1235 });

    // The grid lists it, finds it by a filter, and sorts.
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('cell', { name: 'Replace the pump' }).waitFor();
    await page.getByLabel('Column').selectOption('Status');
    await page.getByLabel('Value').fill('100');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No records.').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByRole('cell', { name: 'Replace the pump' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'records');
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('renames, searches and deletes from the pages, with the site tree and the grid following', async () => {
    const folder = await createSite(stack.url, accounts.admin.apiKey, 0, { Title: 'Archive 2025' });
    const table = await createSite(stack.url, accounts.admin.apiKey, folder, {
      Title: 'Invoices',
      ReferenceType: 'Results',
    });
    await call(stack.url, `/api/items/${table}/create`, {
      ApiKey: accounts.admin.apiKey,
      Title: 'Invoice for tungsten',
    });
    await call(stack.url, `/api/items/${table}/create`, {
      ApiKey: accounts.admin.apiKey,
      Title: 'Invoice for copper',
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    page.once('dialog', (dialog) => dialog.accept('Archive 2025 (closed)'));
    await page.getByRole('button', { name: 'Rename: Archive 2025' }).click();
    await page.getByRole('link', { name: 'Archive 2025 (closed)' }).click();
    await page.getByRole('link', { name: 'Invoices' }).click();
    await page.getByRole('cell', { name: 'Invoice for copper' }).waitFor();
    // The search box is View.Search: the index follows the Items stream within seconds.
    await expect
      .poll(
        async () => {
          await page.getByLabel('Search').fill('tungsten');
          await page.getByRole('button', { name: 'Search' }).click();
          await page.getByRole('cell', { name: 'Invoice for tungsten' }).waitFor();
          return page.getByRole('cell', { name: 'Invoice for copper' }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(0);
    // Sorting by a column header: ascending, then descending.
    await page.getByLabel('Search').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('cell', { name: 'Invoice for copper' }).waitFor();
    await page.getByRole('button', { name: 'Title' }).click();
    await expect
      .poll(() => page.locator('tbody tr td:nth-child(2)').allTextContents())
      .toEqual(['Invoice for copper', 'Invoice for tungsten']);
    await page.getByRole('button', { name: 'Title' }).click();
    await expect
      .poll(() => page.locator('tbody tr td:nth-child(2)').allTextContents())
      .toEqual(['Invoice for tungsten', 'Invoice for copper']);
    await page.goto(`${stack.url}/#/`);
    page.once('dialog', (dialog) => dialog.accept());
    await page.getByRole('button', { name: 'Delete: Archive 2025 (closed)' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Archive 2025 (closed)' }).count()).toBe(0);
    const gone = await call(stack.url, `/api/items/${table}/getsite`, { ApiKey: accounts.admin.apiKey });
    expect(gone.body.StatusCode).toBe(404);
    await page.context().close();
  });

  it('renders a wiki as Markdown, without letting a script through', async () => {
    const wiki = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Handbook',
      ReferenceType: 'Wikis',
    });
    await call(stack.url, `/api/items/${wiki}/create`, {
      ApiKey: accounts.admin.apiKey,
      Title: 'Handbook',
      Body: '## Welcome\n\n<img src=x onerror="window.hacked=1"> **bold**',
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/sites/${wiki}`);
    await page.getByRole('heading', { name: 'Welcome' }).waitFor();
    expect(await page.locator('.markdown strong').textContent()).toBe('bold');
    expect(await page.evaluate<unknown>('window.hacked')).toBeUndefined();
    await expectAccessible(page);
    await page.context().close();
  });

  it('creates an API key shown once, which then works, and deletes it', async () => {
    const page = await loggedInPage(browser, stack.url, accounts.user);
    await page.getByRole('link', { name: 'User settings' }).click();
    await page.getByRole('button', { name: 'Create an API key' }).click();
    const field = page.getByLabel('Copy it now: it is shown only once.');
    await expect.poll(() => field.inputValue()).toMatch(/^[0-9a-f]{128}$/);
    const key = await field.inputValue();
    const answer = await call(stack.url, `/api/users/${accounts.user.userId}/get`, { ApiKey: key });
    expect(answer.body.StatusCode).toBe(200);
    await expectAccessible(page);
    await screenshot(page, 'user-settings');
    await page.getByRole('button', { name: 'Delete the API key' }).click();
    await page.getByText('You have no API key.').waitFor();
    expect(
      (await call(stack.url, `/api/users/${accounts.user.userId}/get`, { ApiKey: key })).body.StatusCode,
    ).toBe(401);
    await page.context().close();
  });

  it('shows a user only the sites they can read, and a refusal in words', async () => {
    const visible = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Shared with the user',
      ReferenceType: 'Results',
      Permissions: [`User,${accounts.user.userId},1`],
    });
    const hidden = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Managers only',
      ReferenceType: 'Results',
    });
    await call(stack.url, `/api/items/${hidden}/create`, {
      ApiKey: accounts.admin.apiKey,
      Title: 'Salaries',
    });
    const page = await loggedInPage(browser, stack.url, accounts.user);
    await page.getByRole('link', { name: 'Shared with the user' }).waitFor();
    expect(await page.getByText('Managers only').count()).toBe(0);
    // No rename or delete for a site the user cannot manage.
    expect(await page.getByRole('button', { name: 'Delete: Shared with the user' }).count()).toBe(0);
    await page.goto(`${stack.url}/#/sites/${hidden}`);
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toMatch(/\w/);
    expect(await alert.textContent()).not.toMatch(/[{}]/);
    expect(await page.getByText('Salaries').count()).toBe(0);
    await page.goto(`${stack.url}/#/sites/${visible}`);
    await page.getByText('No records.').waitFor();
    await page.context().close();
  });

  it('grants a user by name in the site settings, and the user then sees the site', async () => {
    const site = await createSite(stack.url, accounts.admin.apiKey, 0, { Title: 'Granted by name' });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/sites/${site}/settings`);
    const permissions = page.getByRole('group', { name: 'Permissions' });
    await permissions.getByRole('button', { name: 'Add a permission' }).click();
    const row = permissions.locator('.permission').last();
    await row.getByRole('combobox', { name: 'Id' }).selectOption({
      label: `${accounts.user.loginId} (${accounts.user.loginId}) #${accounts.user.userId}`,
    });
    await row.getByLabel('Read').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').waitFor();
    const answer = await call(stack.url, `/api/items/${site}/getsite`, { ApiKey: accounts.admin.apiKey });
    expect((answer.body.Response as { Data: { Permissions: string[] } }).Data.Permissions).toContain(
      `User,${accounts.user.userId},1`,
    );
    await page.context().close();
    const userPage = await loggedInPage(browser, stack.url, accounts.user);
    await userPage.getByRole('link', { name: 'Granted by name' }).waitFor();
    await userPage.context().close();
  });

  it('works at 360 px wide, in Japanese too', async () => {
    const page = await loggedInPage(browser, stack.url, accounts.admin, { width: 360, height: 740 });
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth');
    expect(await overflow()).toBeLessThanOrEqual(360);
    await page
      .getByRole('link', { name: 'Tasks' })
      .or(page.getByRole('link', { name: 'Operations' }))
      .first()
      .click();
    await page.getByRole('heading').first().waitFor();
    expect(await overflow()).toBeLessThanOrEqual(360);
    await page.getByLabel('Language').selectOption('ja');
    await page.getByRole('button', { name: 'ログアウト' }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('ja');
    expect(await overflow()).toBeLessThanOrEqual(360);
    await expectAccessible(page);
    await screenshot(page, 'narrow-ja');
    const tasks = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Narrow',
      ReferenceType: 'Issues',
    });
    await page.goto(`${stack.url}/#/sites/${tasks}/new`);
    await page.getByLabel('タイトル', { exact: true }).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(360);
    await expectAccessible(page);
    await page.context().close();
  });

  it('is operable from the keyboard, with a visible focus', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${stack.url}/`);
    await page.getByLabel('Login ID').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<{ id: string; outline: string }>(
      '({ id: document.activeElement.id, outline: getComputedStyle(document.activeElement).outlineStyle })',
    );
    expect(focused.id).toBe('login-id');
    expect(focused.outline).not.toBe('none');
    await page.keyboard.type(accounts.admin.loginId);
    await page.keyboard.press('Tab');
    await page.keyboard.type(accounts.admin.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Top' }).waitFor();
    await context.close();
  });
});
