import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { launchBrowser, loggedInPage, pageErrors, screenshot, seriousViolations } from '../fixtures/browser';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * What only a browser can do (spec 4.3 and 4.6 rule 2): `$p.apiGetClosestSiteId` from a site's browser
 * script with the login cookie, and a command button whose query string reaches a server script.
 */

let stack: Stack;
let accounts: TestAccounts;
let browser: Browser;
const tree = { top: 0, origin: 0, stock: 0 };

async function closest(origin: number, names: string[]) {
  const answer = await call(stack.url, `/api/items/${origin}/GetClosestSiteId`, {
    ApiKey: accounts.admin.apiKey,
    FindSiteNames: names,
  });
  return answer.body;
}

beforeAll(async () => {
  stack = await startStack({ streams: true });
  accounts = await seedAccounts(stack.url);
  browser = await launchBrowser();
  const admin = accounts.admin.apiKey;
  tree.top = await createSite(stack.url, admin, 0, { Title: 'Plant' });
  tree.origin = await createSite(stack.url, admin, tree.top, { Title: 'Orders', ReferenceType: 'Results' });
  tree.stock = await createSite(stack.url, admin, tree.top, {
    Title: 'Stock',
    ReferenceType: 'Results',
    SiteName: 'stock',
  });
  // The name index follows the Items stream: wait until the API finds the site.
  const started = Date.now();
  while (((await closest(tree.origin, ['stock'])).Data as { SiteId: number }[])[0]?.SiteId !== tree.stock) {
    if (Date.now() - started > 10_000) throw new Error('the name index did not catch up in 10 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('browser scripts and command buttons', () => {
  it('$p.apiGetClosestSiteId in a site browser script answers what the API answers', async () => {
    await call(stack.url, `/api/items/${tree.origin}/updatesite`, {
      ApiKey: accounts.admin.apiKey,
      SiteSettings: {
        Scripts: [
          {
            Title: 'Find the stock table',
            Body:
              '$p.apiGetClosestSiteId({ id: $p.siteId(), data: { FindSiteNames: ["stock", "nowhere"] },' +
              ' done: function (data) { window.closestAnswer = data; } });',
          },
        ],
      },
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/sites/${tree.origin}`);
    const answer = await page.waitForFunction('window.closestAnswer', undefined, { timeout: 10_000 });
    expect(await answer.jsonValue()).toEqual(await closest(tree.origin, ['stock', 'nowhere']));
    // The other wrappers resolve with the API's answer too, with the cookie and no ApiKey.
    const site = await page.evaluate(
      `new Promise((done) => window.$p.apiGetSite({ id: ${tree.stock}, done }))`,
    );
    expect(site).toMatchObject({
      StatusCode: 200,
      Response: { Data: { SiteId: tree.stock, Title: 'Stock' } },
    });
    const failed = await page.evaluate(
      'new Promise((done) => window.$p.apiGet({ id: 987654321, fail: done }))',
    );
    expect(failed).toMatchObject({ StatusCode: 404 });
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  });

  it('a command button set up in site settings sends its query string to a BeforeUpdate script', async () => {
    const record = await createRecord(stack.url, accounts.admin.apiKey, tree.stock, { Title: 'Bolt M8' });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/sites/${tree.stock}/settings`);
    await page.getByRole('heading', { name: 'Site settings' }).waitFor();

    const scripts = page.getByRole('group', { name: 'Server scripts' });
    await scripts.getByRole('button', { name: 'Add' }).click();
    await scripts.getByLabel('Title').fill('Copy the color');
    await scripts.getByLabel('Body').fill("model.ClassB = context.QueryStrings.Data('color');");
    await scripts.getByLabel('BeforeUpdate').check();
    const buttons = page.getByRole('group', { name: 'Command buttons' });
    await buttons.getByRole('button', { name: 'Add' }).click();
    await buttons.getByLabel('Label').fill('Paint it red');
    await buttons.getByLabel('Query string').fill('color=red&size=8');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'site-settings');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').waitFor();

    await page.goto(`${stack.url}/#/items/${record}`);
    await page.getByRole('button', { name: 'Paint it red' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Bolt M8');
    const answer = await call(stack.url, `/api/items/${record}/get`, { ApiKey: accounts.admin.apiKey });
    const data = (answer.body.Response as { Data: { ClassHash?: Record<string, string> }[] }).Data[0];
    expect(data?.ClassHash?.ClassB).toBe('red');

    // With an API key and no cookie the reference leaves QueryStrings empty (reference 6.1): so does Kiroku.
    await call(stack.url, `/api/items/${record}/update?color=blue`, { ApiKey: accounts.admin.apiKey });
    const again = await call(stack.url, `/api/items/${record}/get`, { ApiKey: accounts.admin.apiKey });
    expect(
      (again.body.Response as { Data: { ClassHash?: Record<string, string> }[] }).Data[0]?.ClassHash?.ClassB,
    ).toBe('');
    await page.context().close();
  });
});
