import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { createUser, findOwnId, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { launchBrowser, loggedInPage, pageErrors, screenshot, seriousViolations } from '../fixtures/browser';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * The scripts' UI (issue 27 item 6): the site's script editor with every condition the API runs (the
 * bulk-delete ones included) and the site's last script errors; the tenant's background scripts page for
 * privileged users, with schedules, next and last runs and "Run now"; at 360 px and checked by axe-core.
 */

let stack: Stack;
let accounts: TestAccounts;
let browser: Browser;
let reader: TestUser;
/** The privileged manager of a tenant of its own: tenant 1's background scripts are other tests' too. */
let keeper: TestUser;
let site: number;

const keeperLoginId = `bg-ui-keeper-${Date.now()}`;
const testSettings = () =>
  loadSettings({
    KIROKU_PARAM_Script_BackgroundServerScript: 'true',
    KIROKU_PARAM_Security_PrivilegedUsers: JSON.stringify(['Administrator', keeperLoginId]),
  });

beforeAll(async () => {
  useSettings(testSettings());
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  const tenant = await call(stack.url, '/api/tenants/create', {
    ApiKey: accounts.admin.apiKey,
    TenantName: 'Background scripts UI',
    AdminLoginId: keeperLoginId,
    AdminPassword: accounts.admin.password,
  });
  expect(tenant.body.StatusCode, tenant.text).toBe(200);
  keeper = {
    userId: await findOwnId(stack.url, String(tenant.body.ApiKey)),
    apiKey: String(tenant.body.ApiKey),
    loginId: keeperLoginId,
    password: accounts.admin.password,
  };
  browser = await launchBrowser();
  reader = await createUser(stack.url, accounts.admin.apiKey, `ui-reader-${Date.now()}`);
  site = await createSite(stack.url, accounts.admin.apiKey, 0, {
    Title: 'Scripted',
    ReferenceType: 'Issues',
    SiteSettings: {
      ServerScripts: [{ Name: 'guard', Body: 'throw new Error("no due date");', BeforeCreate: true }],
    },
  });
  // One failure for the errors list.
  await call(stack.url, `/api/items/${site}/create`, { ApiKey: accounts.admin.apiKey, Title: 'x' });
});
beforeEach(() => useSettings(testSettings()));
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe("the site's script editor", () => {
  it('offers every condition, the bulk-delete ones included, and lists the last script errors', async () => {
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/sites/${site}/settings`);
    const script = page.locator('.script').first();
    await script.waitFor();
    for (const condition of ['BeforeCreate', 'AfterUpdate', 'BeforeBulkDelete', 'AfterBulkDelete'])
      expect(await script.getByLabel(condition).count(), condition).toBe(1);
    expect(await script.getByLabel('BeforeCreate').isChecked()).toBe(true);
    expect(await script.getByLabel('AfterBulkDelete').isChecked()).toBe(false);
    const errors = page.locator('.script-errors');
    await errors.getByRole('heading', { name: 'Last script errors' }).waitFor();
    await expect.poll(() => errors.locator('tbody tr').count()).toBe(1);
    const cells = await errors
      .locator('tbody tr td')
      .evaluateAll((tds) => tds.map((td) => td.textContent?.trim()));
    expect(cells.slice(1, 3)).toEqual(['BeforeCreate', 'guard']);
    expect(cells[3]).toContain('no due date');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'script-errors');
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 60_000);
});

describe('the background scripts page', () => {
  it('is linked for privileged users only', async () => {
    const page = await loggedInPage(browser, stack.url, reader);
    await page.getByRole('link', { name: 'User settings' }).waitFor();
    expect(await page.getByRole('link', { name: 'Background scripts' }).count()).toBe(0);
    await page.goto(`${stack.url}/#/backgroundscripts`);
    await page.locator('.notice.error').waitFor();
    await page.context().close();
  }, 60_000);

  it('adds a script with a weekly schedule, shows its next run, and runs it now', async () => {
    const page = await loggedInPage(browser, stack.url, keeper);
    await page.getByRole('link', { name: 'Background scripts' }).click();
    await page.getByRole('heading', { name: 'Background scripts' }).waitFor();
    await page.getByRole('button', { name: 'Add a script' }).click();
    const script = page.locator('.background-script').first();
    await script.getByLabel('Title').fill('Weekly count');
    await script.getByLabel('Execution user').fill(String(keeper.userId));
    await script.getByLabel('Body').fill('context.Log("counted");');
    await script.getByRole('button', { name: 'Add a schedule' }).click();
    await script.getByLabel('Runs').selectOption('weekly');
    await script.getByLabel('Time zone').fill('Asia/Tokyo');
    await script.getByLabel('Time', { exact: true }).fill('09:30');
    await script.getByLabel('Mon').check();
    await script.getByLabel('Fri').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The background scripts have been updated.').waitFor();
    const stored = await call(stack.url, '/api/backgroundscripts/get', { ApiKey: keeper.apiKey });
    expect(stored.body.Response).toMatchObject({
      BackgroundServerScripts: {
        Scripts: [
          {
            Id: 1,
            Title: 'Weekly count',
            UserId: keeper.userId,
            backgoundSchedules: [
              {
                ScheduleType: 'weekly',
                ScheduleTimeZoneId: 'Asia/Tokyo',
                ScheduleWeeklyWeek: '[2,6]',
                ScheduleWeeklyTime: '09:30',
              },
            ],
          },
        ],
      },
    });
    await expect
      .poll(() => page.locator('.run-state strong').first().textContent())
      .toMatch(/^\d{4}-\d\d-\d\dT/);
    // The list read again after the save (its script has its Id now) keeps the save's message.
    expect(await page.getByText('The background scripts have been updated.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByText('The background script will run within a minute.').waitFor();
    const { handler } = await import('../../functions/background-scripts');
    await handler({});
    await page.reload();
    await page.locator('.run-state .status-Succeeded').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'background-scripts');
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('at 360 px wide, in Japanese too: no sideways scrolling, accessible', async () => {
    const page = await loggedInPage(browser, stack.url, keeper, { width: 360, height: 740 });
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth');
    await page.goto(`${stack.url}/#/backgroundscripts`);
    await page.getByLabel('Language').selectOption('ja');
    await page.getByRole('heading', { name: 'バックグラウンドサーバスクリプト' }).waitFor();
    await page.locator('.background-script').first().waitFor();
    expect(await overflow()).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
    const manager = await loggedInPage(browser, stack.url, accounts.admin, { width: 360, height: 740 });
    await manager.goto(`${stack.url}/#/sites/${site}/settings`);
    await manager.getByLabel('Language').selectOption('ja');
    await manager.locator('.script-errors tbody tr').first().waitFor();
    expect(await manager.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    expect(await seriousViolations(manager)).toEqual([]);
    await manager.context().close();
  }, 60_000);
});
