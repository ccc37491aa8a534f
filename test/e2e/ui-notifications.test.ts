import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { launchBrowser, loggedInPage, pageErrors, screenshot, seriousViolations } from '../fixtures/browser';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * The notifications editor of a table's site settings (issue 26): every field of the reference, those a
 * type ignores hidden and not written, the monitored columns by label, the conditions as views, saved with
 * the settings; a refusal naming a notification shown at its form; at 360 px, in Japanese, checked by axe.
 * The deliveries and the mailbox need the routes of the other parts of issue 26: ui-deliveries.test.ts
 * and ui-mailbox.test.ts.
 */

let stack: Stack;
let accounts: TestAccounts;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function notificationsOf(siteId: number): Promise<unknown> {
  const answer = await call(stack.url, `/api/items/${siteId}/getsite`, { ApiKey: accounts.admin.apiKey });
  return (answer.body.Response as { Data: { SiteSettings: Record<string, unknown> } }).Data.SiteSettings
    .Notifications;
}

const table = (settings: object = {}) =>
  createSite(stack.url, accounts.admin.apiKey, 0, {
    Title: 'Orders',
    ReferenceType: 'Results',
    SiteSettings: {
      Columns: [{ ColumnName: 'ClassA', LabelText: 'Region' }],
      Views: [
        { Id: 1, Name: 'Open orders' },
        { Id: 2, Name: 'Shipped' },
      ],
      ...settings,
    },
  });

async function openSettings(page: Page, siteId: number) {
  await page.goto(`${stack.url}/#/sites/${siteId}/settings`);
  await page.getByRole('heading', { name: 'Notifications' }).waitFor();
}

const labels = (group: ReturnType<Page['getByRole']>) =>
  group.locator(':scope > .field > label').allTextContents();

describe('the fields of each type', () => {
  // One page for every case (loggedInPage polls, so it runs inside the first test, not in a hook).
  let opened: Page | undefined;
  const newNotification = async () => {
    if (!opened) {
      const site = await table();
      opened = await loggedInPage(browser, stack.url, accounts.admin);
      await openSettings(opened, site);
      await opened.getByRole('button', { name: 'Add a notification' }).click();
    }
    return opened.getByRole('group', { name: 'Notification #1' });
  };
  afterAll(() => opened?.context().close());

  it.each([
    ['Slack', ['Type', 'Prefix', 'URL']],
    ['Teams', ['Type', 'Prefix', 'URLs (separated by commas)']],
    ['RocketChat', ['Type', 'Prefix', 'URL']],
    ['ChatWork', ['Type', 'Prefix', 'URL', 'Token']],
    ['InCircle', ['Type', 'Prefix', 'URL', 'Token']],
    ['Mail', ['Type', 'Prefix', 'Subject', 'To', 'Cc', 'Bcc']],
    ['HttpClient', ['Type', 'URL', 'Encoding', 'Media type', 'Method', 'Headers (a JSON object)']],
  ])(
    'shows the fields %s uses',
    async (type, fields) => {
      const form = await newNotification();
      await form.getByLabel('Type').selectOption({ label: type });
      expect(await labels(form)).toEqual(fields);
    },
    60_000,
  );
});

describe('the notifications editor', () => {
  it('adds an HttpClient notification with every field, and saves what it shows', async () => {
    const site = await table();
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await openSettings(page, site);
    await page.getByRole('button', { name: 'Add a notification' }).click();
    const form = page.getByRole('group', { name: 'Notification #1' });
    // A Mail field filled, then the type changed: what HttpClient ignores is not written.
    await form.getByLabel('Type').selectOption({ label: 'Mail' });
    await form.getByLabel('Cc', { exact: true }).fill('boss@example.com');
    await form.getByLabel('Type').selectOption({ label: 'HttpClient' });
    await form.getByLabel('URL').fill('https://hooks.example.com/orders?token=1');
    await form.getByLabel('Method').selectOption('POST');
    await form.getByLabel('Media type').fill('application/json');
    const headers = form.getByLabel('Headers (a JSON object)');
    await headers.fill('{"X-Team": ');
    await expect.poll(() => headers.getAttribute('aria-invalid')).toBe('true');
    expect(await form.locator('#notification-Headers-error').textContent()).toContain('Not a JSON object');
    await headers.fill('{"X-Team": "sales"}');
    await expect.poll(() => form.locator('#notification-Headers-error').count()).toBe(0);
    await form.getByLabel('Custom format').check();
    await form.getByLabel('Format', { exact: true }).fill('{"title": "[Title]", "region": "[ClassA]"}');
    await form.getByLabel('Every column of the editor').uncheck();
    const monitored = form
      .getByRole('group', { name: 'Columns whose change is notified' })
      .getByRole('group', { name: 'Chosen columns' });
    await monitored.getByLabel('Column to add').selectOption({ label: 'Region (ClassA)' });
    await monitored.getByRole('button', { name: 'Add', exact: true }).click();
    await monitored.getByLabel('Column to add').selectOption('Status');
    await monitored.getByRole('button', { name: 'Add', exact: true }).click();
    await form.getByLabel('Before the change, the record is in view').selectOption({ label: 'Open orders' });
    await form.getByLabel('After the change, the record is in view').selectOption({ label: 'Shipped' });
    await form.getByLabel('The two conditions').selectOption({ label: 'Both (And)' });
    await form.getByLabel('Delete', { exact: true }).uncheck();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'notifications-editor');
    await form.getByRole('button', { name: 'Done' }).click();
    await expect
      .poll(() => page.locator('.notification-list li').textContent())
      .toContain('#1 HttpClient https://hooks.example.com/orders?token=1');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('form .notice[role=status]').waitFor();

    expect(await notificationsOf(site)).toEqual([
      {
        Id: 1,
        Type: 9,
        Address: 'https://hooks.example.com/orders?token=1',
        MethodType: 2,
        MediaType: 'application/json',
        Headers: '{"X-Team": "sales"}',
        UseCustomFormat: true,
        Format: '{"title": "[Title]", "region": "[ClassA]"}',
        MonitorChangesColumns: ['ClassA', 'Status'],
        BeforeCondition: 1,
        AfterCondition: 2,
        Expression: 2,
        AfterDelete: false,
      },
    ]);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('edits and deletes stored notifications, keeping what the page does not edit', async () => {
    const site = await table({
      Views: [{ Id: 9, Name: 'Open orders' }],
      Notifications: [
        { Id: 3, Type: 2, Prefix: '[Orders] ', Address: 'https://hooks.slack.com/services/T/B/X' },
        {
          Id: 7,
          Type: 1,
          Address: 'sales@example.com',
          AfterImport: false,
          Disabled: true,
          BeforeCondition: 9,
        },
      ],
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await openSettings(page, site);
    const list = page.locator('.notification-list li');
    expect(await list.allTextContents()).toEqual([
      expect.stringContaining('#3 Slack'),
      expect.stringMatching(/#7 Mail.*Disabled/),
    ]);
    await page.getByRole('button', { name: 'Edit: #7 Mail' }).click();
    const form = page.getByRole('group', { name: 'Notification #7' });
    // The stored condition is shown by its view's name. (A view id the site lacks, which only settings
    // stored before the save check could hold, shows as "#9 (no such view)": web/app/pages/notification-form.tsx.)
    expect(
      await form
        .getByLabel('Before the change, the record is in view')
        .locator('option:checked')
        .textContent(),
    ).toBe('Open orders');
    await form.getByLabel('Before the change, the record is in view').selectOption({ label: '(any record)' });
    await form.getByLabel('Subject').fill('Order changed');
    await form.getByLabel('Bcc').fill('[User1]');
    await form.getByLabel('Disabled').uncheck();
    await page.getByRole('button', { name: 'Remove: #3 Slack' }).click();
    await page.getByRole('button', { name: 'Add a notification' }).click();
    await page
      .getByRole('group', { name: 'Notification #8' })
      .getByLabel('URL')
      .fill('https://example.com/teams');
    await page
      .getByRole('group', { name: 'Notification #8' })
      .getByLabel('Type')
      .selectOption({ label: 'Teams' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('form .notice[role=status]').waitFor();
    expect(await notificationsOf(site)).toEqual([
      {
        Id: 7,
        Type: 1,
        Address: 'sales@example.com',
        AfterImport: false,
        Subject: 'Order changed',
        BccAddress: '[User1]',
      },
      { Id: 8, Type: 6, Address: 'https://example.com/teams' },
    ]);
    await page.context().close();
  }, 120_000);

  it('shows a refusal that names a notification at its form', async () => {
    const site = await table({ Notifications: [{ Id: 1, Type: 2, Address: 'https://example.com/a' }] });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    // The server's refusal of a notification (the rules of issue 26 make it; ui-deliveries.test.ts meets the
    // real one), answered here for updatesite so that the page's part is tested on its own.
    const message = 'SiteSettings.Notifications[0].Address: a Slack notification needs an http(s) URL';
    await page.route('**/api/items/*/updatesite', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ Id: site, StatusCode: 400, Message: message }),
      }),
    );
    await openSettings(page, site);
    await page.getByRole('button', { name: 'Save' }).click();
    const form = page.getByRole('group', { name: 'Notification #1' });
    await expect.poll(() => form.getByRole('alert').textContent()).toBe(message);
    expect(await form.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('form > .notice[role=alert]').textContent()).toBe(message);
    expect(await notificationsOf(site)).toEqual([{ Id: 1, Type: 2, Address: 'https://example.com/a' }]);
    await page.context().close();
  }, 60_000);

  it('fits 360 px in Japanese and stays accessible', async () => {
    const site = await table({
      Notifications: [{ Id: 1, Type: 1, Address: 'a-very-long-address-for-a-narrow-screen@example.com' }],
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin, { width: 360, height: 740 });
    await page.getByLabel('Language').selectOption('ja');
    await page.goto(`${stack.url}/#/sites/${site}/settings`);
    await page.getByRole('heading', { name: '通知', exact: true }).waitFor();
    await page.getByRole('button', { name: '編集: #1 Mail' }).click();
    const form = page.getByRole('group', { name: '通知 #1' });
    await form.getByLabel('宛先 (To)').waitFor();
    await form.getByLabel('エディタのすべての項目').uncheck();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  }, 120_000);
});
