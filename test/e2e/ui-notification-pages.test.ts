import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { launchBrowser, loggedInPage, pageErrors, screenshot, seriousViolations } from '../fixtures/browser';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * The pages' side of issue 26's routes, against the answers the helpers agreed on (deliveries, secret,
 * replay, mailbox/get, OutgoingMails/Send), given in the browser: paging by `Next`, the status filter, the
 * confirmations, the copy button, the mailbox's list, text and pages, `$p.apiSendMail`'s request. The same
 * pages through the real routes: ui-deliveries.test.ts and ui-mailbox.test.ts.
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

/** Answers `pattern` with `answer(body)`'s envelope and keeps the bodies the page sent. */
async function answer(page: Page, pattern: string, reply: (body: Record<string, unknown>) => object) {
  const bodies: Record<string, unknown>[] = [];
  await page.route(pattern, (route: Route) => {
    const body = JSON.parse(route.request().postData() || '{}') as Record<string, unknown>;
    bodies.push(body);
    const envelope = { StatusCode: 200, ...reply(body) };
    return route.fulfill({
      status: envelope.StatusCode,
      contentType: 'application/json',
      body: JSON.stringify(envelope),
    });
  });
  return bodies;
}

const delivery = (n: number, status = 'Delivered') => ({
  DeliveryId: `01J${String(n).padStart(6, '0')}`,
  NotificationId: 1,
  RecordId: 100 + n,
  Event: 'Updated',
  Type: 9,
  Target: 'https://hooks.example.com/orders',
  Status: status,
  Attempts: status === 'Failed' ? 12 : 1,
  CreatedAt: '2026-11-27T10:00:00.000Z',
  LastAttemptAt: '2026-11-27T10:00:01.000Z',
  ...(status === 'Failed' && { ResponseStatus: 502, Reason: 'Bad gateway from the receiver' }),
});

describe('the deliveries panel', () => {
  it('pages by Next, filters by status, replays and rotates after a confirmation, copies the secret', async () => {
    const site = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Hooks',
      ReferenceType: 'Results',
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
    const listed = await answer(page, '**/notifications/deliveries', (body) => {
      if (body.Status === 'Failed') return { Response: { Deliveries: [delivery(51, 'Failed')] } };
      if (body.Next === 'page-2') return { Response: { Deliveries: [52, 53, 54].map((n) => delivery(n)) } };
      return { Response: { Deliveries: [...Array(50).keys()].map((n) => delivery(n)), Next: 'page-2' } };
    });
    const replayed = await answer(page, '**/notifications/replay', () => ({
      Response: { Replayed: 1 },
      Message: '1 delivery is queued again.',
    }));
    const secrets = await answer(page, '**/notifications/secret', (body) => ({
      Response: { Secret: body.Rotate ? 'b'.repeat(64) : 'a'.repeat(64), CreatedAt: '2026-11-27T09:00:00Z' },
    }));
    await page.goto(`${stack.url}/#/sites/${site}/settings`);
    const panel = page.locator('.deliveries');
    const rows = panel.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(50);
    expect(listed).toEqual([{}]);
    await panel.getByRole('button', { name: 'Older deliveries' }).click();
    await expect.poll(() => rows.count()).toBe(3);
    expect(listed.at(-1)).toEqual({ Next: 'page-2' });
    expect(await panel.getByRole('button', { name: 'Older deliveries' }).count()).toBe(0);
    await panel.getByRole('button', { name: 'Newest deliveries' }).click();
    await expect.poll(() => rows.count()).toBe(50);

    await panel.getByLabel('Status', { exact: true }).selectOption('Failed');
    await expect.poll(() => rows.count()).toBe(1);
    expect(listed.at(-1)).toEqual({ Status: 'Failed' });
    const failed = await rows.first().textContent();
    expect(failed).toMatch(/^Failed12HttpClient https:\/\/hooks\.example\.com\/ordersUpdated #151/);
    expect(failed).toContain('502Bad gateway from the receiver');
    expect(await rows.first().getByRole('link', { name: '#151' }).getAttribute('href')).toBe('#/items/151');

    page.once('dialog', (dialog) => dialog.dismiss());
    await panel.getByRole('button', { name: 'Send the failed deliveries again' }).click();
    expect(replayed).toEqual([]);
    page.once('dialog', (dialog) => dialog.accept());
    await panel.getByRole('button', { name: 'Send the failed deliveries again' }).click();
    await expect
      .poll(() => panel.locator('> .notice[role=status]').textContent())
      .toBe('1 delivery is queued again.');
    expect(replayed).toEqual([{}]);

    expect(secrets).toEqual([]);
    await panel.getByRole('button', { name: 'Show the secret' }).click();
    await expect.poll(() => page.locator('#signing-secret').textContent()).toBe('a'.repeat(64));
    await panel.getByRole('button', { name: 'Copy' }).click();
    await panel.getByText('Copied.').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe('a'.repeat(64));
    page.once('dialog', (dialog) => dialog.dismiss());
    await panel.getByRole('button', { name: 'Make a new secret' }).click();
    page.once('dialog', (dialog) => dialog.accept());
    await panel.getByRole('button', { name: 'Make a new secret' }).click();
    await expect.poll(() => page.locator('#signing-secret').textContent()).toBe('b'.repeat(64));
    expect(secrets).toEqual([{}, { Rotate: true }]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'deliveries');
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('shows a refusal in words, and fits 360 px', async () => {
    const site = await createSite(stack.url, accounts.admin.apiKey, 0, {
      Title: 'Narrow',
      ReferenceType: 'Issues',
    });
    const page = await loggedInPage(browser, stack.url, accounts.admin, { width: 360, height: 740 });
    await answer(page, '**/notifications/deliveries', () => ({
      Response: { Deliveries: [delivery(1, 'Failed'), delivery(2)] },
    }));
    await answer(page, '**/notifications/secret', () => ({
      StatusCode: 403,
      Message: 'You do not have permission to manage this site.',
    }));
    await page.goto(`${stack.url}/#/sites/${site}/settings`);
    await expect.poll(() => page.locator('.deliveries tbody tr').count()).toBe(2);
    await page.getByRole('button', { name: 'Show the secret' }).click();
    await expect
      .poll(() => page.locator('.signing-secret [role=alert]').textContent())
      .toBe('You do not have permission to manage this site.');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  }, 120_000);
});

const mail = (n: number) => ({
  Id: `mail-${n}`,
  Date: '2026-11-27T10:00:00.000Z',
  From: 'kiroku@example.com',
  To: [`buyer${n}@example.com`],
  Cc: n === 0 ? ['boss@example.com'] : [],
  Subject: `注文 ${n}`,
  Text: `Line one of ${n}\nLine two`,
});

describe('the mailbox page', () => {
  it('lists the mail 20 a page, shows the chosen one, and is linked for the users it answers', async () => {
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    const asked = await answer(page, '**/api/mailbox/get', (body) => {
      const offset = Number(body.Offset ?? 0);
      const numbers = [...Array(25).keys()].slice(offset, offset + 20);
      return { Response: { Mails: numbers.map(mail), TotalCount: 25 } };
    });
    await page.reload();
    await page.getByRole('navigation').getByRole('link', { name: 'Mailbox' }).click();
    const rows = page.locator('.mails tbody tr');
    await expect.poll(() => rows.count()).toBe(20);
    expect(await rows.first().textContent()).toContain('kiroku@example.combuyer0@example.com注文 0');
    await page.getByRole('button', { name: '注文 0' }).click();
    const text = page.getByRole('article');
    await expect.poll(() => text.getByRole('heading').textContent()).toBe('注文 0');
    expect(await text.locator('.mail-text').textContent()).toBe('Line one of 0\nLine two');
    expect(await text.locator('dd').allTextContents()).toContain('boss@example.com');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => rows.count()).toBe(5);
    expect(asked.at(-1)).toEqual({ Offset: 20 });
    expect(await page.locator('.pager').textContent()).toContain('21–25 of 25');
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('is not linked where the server refuses it', async () => {
    const page = await loggedInPage(browser, stack.url, accounts.user);
    await answer(page, '**/api/mailbox/get', () => ({ StatusCode: 403, Message: 'Privileged users only.' }));
    await page.reload();
    await page.getByRole('link', { name: 'User settings' }).waitFor();
    expect(await page.getByRole('link', { name: 'Mailbox' }).count()).toBe(0);
    await page.goto(`${stack.url}/#/mailbox`);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Privileged users only.');
    await page.context().close();
  }, 60_000);
});

describe('$p.apiSendMail', () => {
  it("posts the args' data to the record's OutgoingMails/Send and calls done, then always", async () => {
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    const sent = await answer(page, '**/api/items/*/OutgoingMails/Send', () => ({
      Id: 42,
      Message: 'Email has been sent.',
    }));
    const calls = await page.evaluate<unknown[]>(`new Promise((resolve) => {
      const calls = [];
      window.$p.apiSendMail({
        id: 42,
        data: { To: 'a@example.com', Title: 'Hello', Body: 'Hi' },
        done: (answer) => calls.push(['done', answer.Id, answer.Message]),
        always: () => resolve([...calls, ['always']]),
      });
    })`);
    expect(calls).toEqual([['done', 42, 'Email has been sent.'], ['always']]);
    expect(sent).toEqual([{ To: 'a@example.com', Title: 'Hello', Body: 'Hi' }]);
    await page.context().close();
  }, 60_000);
});
