import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { launchBrowser, loggedInPage, pageErrors } from '../fixtures/browser';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/** The UI under a base path (KIROKU_BASE_PATH): every URL it fetches stays under it. */

let stack: Stack;
let accounts: TestAccounts;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack({ basePath: '/kiroku' });
  accounts = await seedAccounts(stack.url);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

it('serves the page, its assets and its API calls under the base path', async () => {
  await createSite(stack.url, accounts.admin.apiKey, 0, { Title: 'Under a base path' });
  expect(stack.url).toMatch(/\/kiroku$/);
  const requested: string[] = [];
  const page = await loggedInPage(browser, stack.url, accounts.admin);
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.reload();
  await page.getByRole('link', { name: 'Under a base path' }).waitFor();
  expect(requested.length).toBeGreaterThan(2);
  for (const path of requested) expect(path).toMatch(/^\/kiroku\//);
  expect(pageErrors(page)).toEqual([]);
  await page.context().close();
});
