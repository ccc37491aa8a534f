import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { launchBrowser, loggedInPage, pageErrors, seriousViolations } from '../fixtures/browser';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * A table's deliveries in its site settings, through the real routes of issue 26 (notifications/deliveries,
 * secret, replay) and the Items stream: an HttpClient notification to a receiver that takes it and one to a
 * receiver that is down, their rows and outcome, the status filter, the signing secret that verifies what
 * the receiver got, its rotation after a confirmation, the replay, and the server's refusal of a
 * notification at the editor's form. Runs once the rules and delivery parts of issue 26 are merged.
 */

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let stack: Stack;
let accounts: TestAccounts;
let browser: Browser;
let receiver: Server;
let base: string;
const received: Received[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.statusCode = request.url?.startsWith('/down') ? 503 : 200;
      response.end(request.url?.startsWith('/down') ? 'maintenance until noon' : 'ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  stack = await startStack({ streams: true });
  // The receivers are on the loopback address, which deliveries refuse unless named (CONTRACT 14).
  useSettings(loadSettings({ ...process.env, KIROKU_PARAM_Notification_AllowedHosts: '["127.0.0.1"]' }));
  accounts = await seedAccounts(stack.url);
  browser = await launchBrowser();
});

afterAll(async () => {
  useSettings(undefined);
  await browser?.close();
  await stack?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function openDeliveries(page: Page, siteId: number) {
  await page.goto(`${stack.url}/#/sites/${siteId}/settings`);
  await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
}

const rows = (page: Page) => page.locator('.deliveries tbody tr');

describe('the deliveries of a site', () => {
  it('lists each delivery with its outcome, filters by status, and shows the secret that signs them', async () => {
    const site = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Webhooks',
      ReferenceType: 'Results',
      SiteSettings: {
        Notifications: [
          { Id: 1, Type: 9, Address: `${base}/up`, MethodType: 2 },
          { Id: 2, Type: 9, Address: `${base}/down?key=kept-out-of-the-list`, MethodType: 2 },
        ],
      },
    });
    await createRecord(stack.url, accounts.admin.apiKey, site, { Title: 'First order' });
    await expect.poll(() => received.filter((request) => request.path === '/up').length).toBe(1);
    await expect
      .poll(() => received.filter((request) => request.path.startsWith('/down')).length)
      .toBeGreaterThanOrEqual(1);

    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await openDeliveries(page, site);
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return (await rows(page).allTextContents()).sort();
      })
      .toEqual([
        expect.stringMatching(new RegExp(`^Delivered1HttpClient ${base}/upCreated`)),
        expect.stringMatching(
          new RegExp(`^(Retrying|Failed)\\d+HttpClient ${base}/downCreated.*503.*maintenance`),
        ),
      ]);
    expect(await page.locator('.deliveries tbody').textContent()).not.toContain('kept-out-of-the-list');

    await page.locator('.deliveries').getByLabel('Status', { exact: true }).selectOption('Delivered');
    await expect.poll(() => rows(page).count()).toBe(1);
    const deliveryId = await rows(page).first().getAttribute('title');
    const up = received.find((request) => request.path === '/up') as Received;
    expect(up.headers['x-kiroku-delivery']).toBe(deliveryId);

    await page.getByRole('button', { name: 'Show the secret' }).click();
    const secret = (await page.locator('#signing-secret').textContent()) ?? '';
    expect(up.headers['x-kiroku-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(up.body).digest('hex')}`,
    );
    expect(await seriousViolations(page)).toEqual([]);

    // Rotating asks first: dismissed, the secret stays; accepted, a new one replaces it.
    page.once('dialog', (dialog) => dialog.dismiss());
    await page.getByRole('button', { name: 'Make a new secret' }).click();
    expect(await page.locator('#signing-secret').textContent()).toBe(secret);
    page.once('dialog', (dialog) => dialog.accept());
    await page.getByRole('button', { name: 'Make a new secret' }).click();
    await expect.poll(() => page.locator('#signing-secret').textContent()).not.toBe(secret);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('sends the failed deliveries again after a confirmation and says what the server did', async () => {
    const site = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Replays',
      ReferenceType: 'Results',
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await openDeliveries(page, site);
    await page.getByText('No deliveries.').waitFor();
    page.once('dialog', (dialog) => dialog.accept());
    await page.getByRole('button', { name: 'Send the failed deliveries again' }).click();
    await expect.poll(() => page.locator('.deliveries > .notice[role=status]').textContent()).not.toBe('');
    await page.context().close();
  }, 60_000);

  it('shows the server refusing a notification at its form', async () => {
    const site = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Refusals',
      ReferenceType: 'Results',
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await openDeliveries(page, site);
    await page.getByRole('button', { name: 'Add a notification' }).click();
    const form = page.getByRole('group', { name: 'Notification #1' });
    await form.getByLabel('Type').selectOption({ label: 'Slack' });
    await form.getByLabel('URL').fill('not a url');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('Notifications[0]');
    expect(await form.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    await page.context().close();
  }, 60_000);

  it('refuses the deliveries of a site to a user who does not manage it', async () => {
    const site = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Read only',
      ReferenceType: 'Results',
      Permissions: [`User,${accounts.user.userId},1`],
    });
    const page = await loggedInPage(browser, stack.url, accounts.user);
    await page.goto(`${stack.url}/#/sites/${site}/settings`);
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await expect.poll(() => page.locator('.deliveries [role=alert]').first().textContent()).toBeTruthy();
    expect(await rows(page).count()).toBe(0);
    await page.context().close();
  }, 60_000);
});
