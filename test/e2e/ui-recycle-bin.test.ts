import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { launchBrowser, loggedInPage, pageErrors, screenshot, seriousViolations } from '../fixtures/browser';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * A table's recycle bin in the browser (issue 28): its deleted records, restored with a button by those
 * who may delete in the table, only listed for readers; a folder's, with the sites deleted in it; at
 * 360 px and checked by axe-core.
 */

let stack: Stack;
let accounts: TestAccounts;
let reader: TestUser;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  reader = await createUser(stack.url, accounts.admin.apiKey, `bin-reader-${Date.now()}`, { Name: 'Rita' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A table with one current and one deleted record; the ids of the table and the deleted record. */
async function tableWithDeleted(): Promise<{ site: number; deleted: number }> {
  const site = await createSite(stack.url, accounts.admin.apiKey, 0, {
    Title: 'Sightings',
    ReferenceType: 'Results',
    Permissions: [`User,${reader.userId},1`],
  });
  await createRecord(stack.url, accounts.admin.apiKey, site, { Title: 'Heron' });
  const deleted = await createRecord(stack.url, accounts.admin.apiKey, site, { Title: 'Egret' });
  const answer = await call(stack.url, `/api/items/${deleted}/delete`, { ApiKey: accounts.admin.apiKey });
  expect(answer.body.StatusCode, answer.text).toBe(200);
  return { site, deleted };
}

describe('the recycle bin', () => {
  it('lists a deleted record and restores it with its button', async () => {
    const { site, deleted } = await tableWithDeleted();
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/sites/${site}`);
    await page.getByRole('heading', { name: 'Sightings' }).waitFor();
    await page.locator('.recycle-bin summary').click();
    const rows = page.locator('.recycle-bin tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.nth(0).locator('td').nth(1).textContent()).toBe('Egret');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'recycle-bin');
    await page.getByRole('button', { name: 'Restore: Egret' }).click();
    await page.getByText('No deleted record is kept.').waitFor();
    expect(await page.locator('.recycle-bin [role=status]').textContent()).toBe('Restored: Egret');
    const back = await call(stack.url, `/api/items/${deleted}/get`, { ApiKey: accounts.admin.apiKey });
    expect(back.body.StatusCode).toBe(200);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('shows a reader the deleted records without a Restore button', async () => {
    const { site } = await tableWithDeleted();
    const page = await loggedInPage(browser, stack.url, reader);
    await page.goto(`${stack.url}/#/sites/${site}`);
    await page.locator('.recycle-bin summary').click();
    await expect.poll(() => page.locator('.recycle-bin tbody tr').count()).toBe(1);
    expect(await page.locator('.recycle-bin button').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('at 360 px wide, in Japanese too: no sideways scrolling, accessible', async () => {
    const { site } = await tableWithDeleted();
    const page = await loggedInPage(browser, stack.url, accounts.admin, { width: 360, height: 740 });
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth');
    await page.goto(`${stack.url}/#/sites/${site}`);
    await page.getByLabel('Language').selectOption('ja');
    await page.locator('.recycle-bin summary').click();
    await expect.poll(() => page.locator('.recycle-bin tbody tr').count()).toBe(1);
    expect(await page.locator('.recycle-bin summary').textContent()).toBe('ごみ箱');
    expect(await page.locator('.recycle-bin button').textContent()).toBe('復元');
    expect(await overflow()).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it("lists a folder's deleted table and restores it with its records", async () => {
    const folder = await createSite(stack.url, accounts.admin.apiKey, 0, { Title: 'Field notes' });
    const table = await createSite(stack.url, accounts.admin.apiKey, folder, {
      Title: 'Owls',
      ReferenceType: 'Results',
    });
    const record = await createRecord(stack.url, accounts.admin.apiKey, table, { Title: 'Barn owl' });
    const page = await loggedInPage(browser, stack.url, accounts.admin, { width: 360, height: 740 });
    await page.goto(`${stack.url}/#/sites/${folder}`);
    await page.getByRole('link', { name: 'Owls' }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete: Owls' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Owls' }).count()).toBe(0);
    await page.locator('.recycle-bin summary').click();
    const rows = page.locator('.recycle-bin tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    const cells = await rows
      .nth(0)
      .locator('td')
      .evaluateAll((tds) => tds.map((td) => td.textContent));
    expect(cells[0]).toBe('OwlsRecord table');
    expect(cells[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'recycle-bin-folder');
    await page.getByRole('button', { name: 'Restore: Owls' }).click();
    await page.getByText('No deleted site is kept here.').waitFor();
    await page.getByRole('link', { name: 'Owls' }).waitFor();
    const back = await call(stack.url, `/api/items/${record}/get`, { ApiKey: accounts.admin.apiKey });
    expect(back.body.StatusCode).toBe(200);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 60_000);
});
