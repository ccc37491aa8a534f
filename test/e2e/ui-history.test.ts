import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { launchBrowser, loggedInPage, pageErrors, screenshot, seriousViolations } from '../fixtures/browser';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * A record's history in the browser (issue 28): its versions with who and when, and per version the
 * columns that changed, by their labels and display values; at 360 px and checked by axe-core.
 */

let stack: Stack;
let accounts: TestAccounts;
let editor: TestUser;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  editor = await createUser(stack.url, accounts.admin.apiKey, `editor-${Date.now()}`, { Name: 'Edith' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A record written by the administrator, then changed by another user: two versions. */
async function changedRecord(): Promise<number> {
  const site = await createSite(stack.url, accounts.admin.apiKey, 0, {
    Title: 'Sightings',
    ReferenceType: 'Results',
    Permissions: [`User,${editor.userId},15`],
    SiteSettings: {
      Columns: [
        { ColumnName: 'ClassA', LabelText: 'Region', ChoicesText: '1,North\n2,South' },
        { ColumnName: 'NumA', LabelText: 'Count', Unit: 'birds' },
      ],
      EditorColumnHash: { General: ['ResultId', 'Title', 'ClassA', 'NumA', 'Body'] },
    },
  });
  const id = await createRecord(stack.url, accounts.admin.apiKey, site, {
    Title: 'Heron',
    ClassHash: { ClassA: '1' },
    NumHash: { NumA: 3 },
  });
  const update = await call(stack.url, `/api/items/${id}/update`, {
    ApiKey: editor.apiKey,
    ClassHash: { ClassA: '2' },
    NumHash: { NumA: 5 },
  });
  expect(update.body.StatusCode, update.text).toBe(200);
  return id;
}

describe('the history view', () => {
  it('lists the versions and what changed, column by column, with labels and display values', async () => {
    const id = await changedRecord();
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/items/${id}`);
    await page.getByRole('heading', { name: 'Heron' }).waitFor();
    await page.locator('.record-history summary').click();
    const versions = page.locator('.record-history .version');
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.nth(0).locator('h3').textContent()).toMatch(/^Version 2 by Edith, /);
    expect(await versions.nth(1).locator('h3').textContent()).toMatch(/^Version 1 by /);
    const rows = await versions
      .nth(0)
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent?.trim())));
    expect(rows).toEqual([
      ['Region', 'North', 'South'],
      // The unit follows the number as the grid shows it (lib/columns/display.ts).
      ['Count', '3birds', '5birds'],
    ]);
    expect(await versions.nth(1).textContent()).toContain('The first version kept.');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'record-history');
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('at 360 px wide, in Japanese too: no sideways scrolling, accessible', async () => {
    const id = await changedRecord();
    const page = await loggedInPage(browser, stack.url, accounts.admin, { width: 360, height: 740 });
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth');
    await page.goto(`${stack.url}/#/items/${id}`);
    await page.getByLabel('Language').selectOption('ja');
    await page.locator('.record-history summary').click();
    await expect.poll(() => page.locator('.record-history .version').count()).toBe(2);
    expect(await page.locator('.record-history summary').textContent()).toBe('変更履歴');
    expect(await overflow()).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  }, 60_000);
});
