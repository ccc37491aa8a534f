import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { launchBrowser, loggedInPage, pageErrors, seriousViolations } from '../fixtures/browser';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * The mailbox page and `$p.apiSendMail` through the real routes of issue 26 (mailbox/get,
 * OutgoingMails/Send): the link only for privileged users, the page's answer where the stack has no local
 * mailbox (the test stack has none: mail goes to the SMTP server this test starts), a refusal for the
 * others, and a mail sent from the browser received by that server. Runs once the mail part of issue 26 is
 * merged.
 */

let stack: Stack;
let accounts: TestAccounts;
let browser: Browser;
let smtp: SMTPServer;
const mails: ParsedMail[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      simpleParser(stream).then(
        (mail) => {
          mails.push(mail);
          done();
        },
        (error: Error) => done(error),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  stack = await startStack();
  useSettings(
    loadSettings({
      ...process.env,
      KIROKU_PARAM_Mail_SmtpHost: '127.0.0.1',
      KIROKU_PARAM_Mail_SmtpPort: String((smtp.server.address() as AddressInfo).port),
      KIROKU_PARAM_Mail_From: 'kiroku@example.com',
    }),
  );
  accounts = await seedAccounts(stack.url);
  browser = await launchBrowser();
});

afterAll(async () => {
  useSettings(undefined);
  await browser?.close();
  await stack?.close();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

const mailboxLink = (page: Page) => page.getByRole('navigation').getByRole('link', { name: 'Mailbox' });

describe('the mailbox page', () => {
  it('is linked for a privileged user, and says where there is no local mailbox', async () => {
    const page = await loggedInPage(browser, stack.url, accounts.admin);
    await mailboxLink(page).click();
    await page.getByRole('heading', { name: 'Mailbox' }).waitFor();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('This installation has no local mailbox: its mail goes out through Amazon SES.');
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('is not linked for other users, and refuses them when opened by its address', async () => {
    const page = await loggedInPage(browser, stack.url, accounts.user);
    await page.getByRole('link', { name: 'User settings' }).waitFor();
    expect(await mailboxLink(page).count()).toBe(0);
    await page.goto(`${stack.url}/#/mailbox`);
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    expect(await page.locator('.mails').count()).toBe(0);
    await page.context().close();
  }, 60_000);
});

describe('$p.apiSendMail', () => {
  /** Calls `$p.apiSendMail` in the page and answers what its callbacks were given, in order. */
  const send = (page: Page, id: number, data: object) =>
    page.evaluate<unknown[]>(`new Promise((resolve) => {
      const calls = [];
      window.$p.apiSendMail({
        id: ${id},
        data: ${JSON.stringify(data)},
        done: (answer) => calls.push(['done', answer.StatusCode, answer.Message]),
        fail: (error) => calls.push(['fail', error.StatusCode, error.Message]),
        always: () => resolve([...calls, ['always']]),
      });
    })`);

  it.each([
    [
      'sends a mail and calls done, then always',
      { To: 'buyer@example.com', Cc: 'boss@example.com', Title: '注文を受け付けました', Body: '本文です。' },
      [['done', 200, 'Email has been sent.'], ['always']],
    ],
    [
      'calls fail with the status and the message when no address is given, then always',
      { Title: 'Nobody', Body: 'x' },
      [['fail', 400, expect.stringContaining('Add at least one email address')], ['always']],
    ],
  ])(
    '%s',
    async (_name, data, calls) => {
      const site = await createSite(stack.url, accounts.admin.apiKey, 0, {
        Title: 'Mail',
        ReferenceType: 'Results',
      });
      await createRecord(stack.url, accounts.admin.apiKey, site, { Title: 'Order 1' });
      const records = await call(stack.url, `/api/items/${site}/get`, { ApiKey: accounts.admin.apiKey });
      const id = Number((records.body.Response as { Data: { ResultId: number }[] }).Data[0]?.ResultId);
      const page = await loggedInPage(browser, stack.url, accounts.admin);
      const before = mails.length;
      expect(await send(page, id, data)).toEqual(calls);
      if (calls[0]?.[0] === 'done') {
        await expect.poll(() => mails.length).toBe(before + 1);
        const mail = mails.at(-1) as ParsedMail;
        expect(mail.subject).toBe('注文を受け付けました');
        expect(mail.text?.trim()).toBe('本文です。');
      } else expect(mails.length).toBe(before);
      await page.context().close();
    },
    60_000,
  );
});
