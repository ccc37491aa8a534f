import { createHash, randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { cuttableProxy, launchBrowser, loggedInPage, pageErrors, screenshot } from '../fixtures/browser';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Files from the browser (issue 16): a large attachment in 4 MiB chunks that survives a cut connection
 * and a reload without sending again what the server holds, and an image pasted into Body.
 */

const MiB = 1024 * 1024;
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let stack: Stack;
let accounts: TestAccounts;
let browser: Browser;
let siteId: number;

beforeAll(async () => {
  stack = await startStack();
  accounts = await seedAccounts(stack.url);
  browser = await launchBrowser();
  siteId = await createSite(stack.url, accounts.admin.apiKey, 0, {
    Title: 'Drawings',
    ReferenceType: 'Results',
    // The form shows the columns the design places.
    SiteSettings: {
      EditorColumnHash: {
        General: [
          'ResultId',
          'Ver',
          'Title',
          'Body',
          'Status',
          'Manager',
          'Owner',
          'AttachmentsA',
          'Comments',
        ],
      },
    },
  });
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function downloaded(guid: string): Promise<Buffer> {
  const response = await fetch(`${stack.url}/binaries/${guid}/download`, {
    headers: { authorization: `Bearer ${accounts.admin.apiKey}` },
    redirect: 'manual',
  });
  expect(response.status).toBe(302);
  const file = await fetch(response.headers.get('location') ?? '');
  return Buffer.from(await file.arrayBuffer());
}

async function attachmentsOf(id: number) {
  const answer = await call(stack.url, `/api/items/${id}/get`, { ApiKey: accounts.admin.apiKey });
  const record = (answer.body.Response as { Data: Record<string, unknown>[] }).Data[0];
  return ((record?.AttachmentsHash as Record<string, unknown> | undefined)?.AttachmentsA ?? []) as {
    Guid: string;
    Name: string;
    Size: number;
  }[];
}

/** The upload's progress bar value, sampled until `until` says stop; the values seen, in order. */
async function watchProgress(page: Page, until: (value: number) => boolean): Promise<number[]> {
  const seen: number[] = [];
  const bar = page.locator('.transfer progress');
  for (let i = 0; i < 2_000; i++) {
    const value = Number(await bar.getAttribute('value', { timeout: 10_000 }));
    if (seen.at(-1) !== value) seen.push(value);
    if (until(value)) return seen;
    await page.waitForTimeout(20);
  }
  throw new Error(`the progress bar stopped at ${seen.at(-1)}`);
}

async function createRecordWithAttachment(page: Page): Promise<number> {
  await page.getByRole('button', { name: 'Create' }).click();
  await expect
    .poll(() => page.evaluate<string>('location.hash'), { timeout: 15_000 })
    .toMatch(/^#\/items\/\d+$/);
  return Number((await page.evaluate<string>('location.hash')).split('/')[2]);
}

describe('attachments from the browser', () => {
  it('sends 20 MiB in chunks with a moving progress bar, survives a cut connection, and stores it byte-exact', async () => {
    const proxy = await cuttableProxy(stack.url);
    try {
      const page = await loggedInPage(browser, proxy.url, accounts.admin);
      await page.goto(`${proxy.url}/#/sites/${siteId}/new`);
      await page.getByLabel('Title', { exact: true }).fill('Large drawing');
      const bytes = randomBytes(20 * MiB);
      const before = proxy.upstreamBytes();
      await page
        .locator('input[type=file]')
        .setInputFiles({ name: 'drawing.bin', mimeType: 'application/octet-stream', buffer: bytes });
      const beforeCut = await watchProgress(page, (value) => value >= 6 * MiB);
      proxy.cut();
      const afterCut = await watchProgress(page, (value) => value >= 20 * MiB);
      // Moving: several distinct values, rising, before and after the cut.
      expect(beforeCut.length).toBeGreaterThanOrEqual(3);
      expect(afterCut.at(-1)).toBe(20 * MiB);
      const listed = page.locator('.files li', { hasText: 'drawing.bin' });
      await listed.waitFor({ timeout: 30_000 });
      await screenshot(page, 'attachments');
      // Resumed, not restarted: at most the one chunk in flight at the cut is sent twice.
      const sent = proxy.upstreamBytes() - before;
      expect(sent).toBeGreaterThan(20 * MiB);
      expect(sent).toBeLessThan(20 * MiB + 4 * MiB + 512 * 1024);

      const id = await createRecordWithAttachment(page);
      const [attachment] = await attachmentsOf(id);
      expect(attachment).toMatchObject({ Name: 'drawing.bin', Size: 20 * MiB });
      expect(sha256(await downloaded(attachment?.Guid ?? ''))).toBe(sha256(bytes));
      expect(pageErrors(page)).toEqual([]);
      await page.context().close();
    } finally {
      await proxy.close();
    }
  }, 180_000);

  it('goes on after a reload from where the server stands, when the same file is chosen again', async () => {
    const proxy = await cuttableProxy(stack.url);
    try {
      const page = await loggedInPage(browser, proxy.url, accounts.admin);
      await page.goto(`${proxy.url}/#/sites/${siteId}/new`);
      const bytes = randomBytes(14 * MiB);
      const file = { name: 'survey.bin', mimeType: 'application/octet-stream', buffer: bytes };
      await page.locator('input[type=file]').setInputFiles(file);
      await watchProgress(page, (value) => value >= 8 * MiB);
      const before = proxy.upstreamBytes();
      await page.reload();
      await page.getByLabel('Title', { exact: true }).fill('Survey');
      await page.locator('input[type=file]').setInputFiles(file);
      await page.locator('.files li', { hasText: 'survey.bin' }).waitFor({ timeout: 60_000 });
      // At least the first 4 MiB chunk was held by the server: it is not sent again.
      expect(proxy.upstreamBytes() - before).toBeLessThan(14 * MiB - 4 * MiB + 512 * 1024);
      const id = await createRecordWithAttachment(page);
      const [attachment] = await attachmentsOf(id);
      expect(sha256(await downloaded(attachment?.Guid ?? ''))).toBe(sha256(bytes));
      await page.context().close();
    } finally {
      await proxy.close();
    }
  }, 180_000);

  it('embeds an image pasted into Body, shows it, and attaches it with the record', async () => {
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/sites/${siteId}/new`);
    await page.getByLabel('Title', { exact: true }).fill('With a picture');
    const body = page.getByLabel('Body', { exact: true });
    await body.fill('Before the picture. ');
    // In the page: a paste of an image file, as the clipboard would deliver one.
    await page.evaluate(`(() => {
      const bytes = Uint8Array.from(atob('${PIXEL.toString('base64')}'), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'pixel.png', { type: 'image/png' }));
      const textarea = document.getElementById('field-Body');
      textarea.setSelectionRange(20, 20);
      textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    })()`);
    await expect.poll(() => body.inputValue()).toMatch(/!\[pixel\.png\]\(\/binaries\/[0-9A-F]{32}\/show\)/);
    await expect.poll(() => page.evaluate("document.querySelector('.preview img').naturalWidth")).toBe(1);
    const id = await createRecordWithAttachment(page);
    const answer = await call(stack.url, `/api/items/${id}/get`, { ApiKey: accounts.admin.apiKey });
    const text = String((answer.body.Response as { Data: { Body: string }[] }).Data[0]?.Body);
    const guid = /\/binaries\/([0-9A-F]{32})\/show/.exec(text)?.[1] ?? '';
    expect((await downloaded(guid)).equals(PIXEL)).toBe(true);
    // Shown again when the record is opened.
    await page.locator('.preview img').waitFor();
    await expect.poll(() => page.evaluate("document.querySelector('.preview img')?.naturalWidth")).toBe(1);
    await page.context().close();
  });

  it('removes the file taken off the list when the record is saved, keeping the sizes of the others', async () => {
    const inline = (name: string, text: string) => ({
      Name: name,
      Base64: Buffer.from(text).toString('base64'),
    });
    const created = await call(stack.url, `/api/items/${siteId}/create`, {
      ApiKey: accounts.admin.apiKey,
      Title: 'Two files',
      AttachmentsHash: { AttachmentsA: [inline('gone.txt', 'gone'), inline('kept.txt', 'kept file')] },
    });
    const id = Number(created.body.Id);
    const [, kept] = await attachmentsOf(id);
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.goto(`${stack.url}/#/items/${id}`);
    await page.getByRole('button', { name: 'Remove: gone.txt' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // The form echoes the kept file as {Guid, Name}: its Size and type stay, and the removed one goes.
    await expect.poll(() => attachmentsOf(id), { timeout: 15_000 }).toEqual([kept]);
    expect(kept).toMatchObject({ Name: 'kept.txt', Size: 9 });
    await page.context().close();
  });
});
