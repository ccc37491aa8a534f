import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { now, useClock } from '../../lib/clock';
import { loadSettings, useSettings } from '../../lib/config/settings';
import {
  type HttpNotice,
  type MailNotice,
  type Notice,
  type NoticeOrigin,
  NotificationType,
} from '../../lib/notifications/model';
import { type DeliveryRow, deliveryId, enqueueNotices } from '../../lib/notifications/queue';
import { getDelivery } from '../../lib/notifications/repository';
import { RETRY_WINDOW_MS } from '../../lib/notifications/retries';
import { siteSecret } from '../../lib/notifications/secrets';
import { wakeDue } from '../../lib/notifications/wakeups';
import { streamSubscriptions } from '../../lib/streams';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Receiver, startReceiver } from '../fixtures/receiver';
import { type Stack, startStack } from '../fixtures/stack';
import { tempDir } from '../fixtures/temp-dir';

/**
 * Deliveries end to end through the local stack: rows queued with enqueueNotices (as the Items stream's
 * rules queue them), the Deliveries stream's consumer attempting them against real receivers on
 * 127.0.0.1, and the retries' clock (lib/notifications/wakeups.ts) run by hand with the clock moved on.
 */

let stack: Stack;
let receiver: Receiver;
let accounts: TestAccounts;
let site: number;
/** How far the test has moved the clock on; only ever forward, as the wake-ups' cursor expects. */
let offset = 0;
let sources = 0;

const allowLocal = () =>
  useSettings(loadSettings({ KIROKU_PARAM_Notification_AllowedHosts: '["127.0.0.1"]' }));

beforeAll(async () => {
  stack = await startStack({
    streams: true,
    streamSubscriptions: streamSubscriptions.filter((subscription) => subscription.table === 'deliveries'),
  });
  receiver = await startReceiver();
  accounts = await seedAccounts(stack.url);
  site = await createSite(stack.url, accounts.admin.apiKey, 0, { Title: 'Hooks', ReferenceType: 'Results' });
  useClock(() => Date.now() + offset);
});
beforeEach(allowLocal);
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

const notice = (path: string, extra: Partial<HttpNotice> = {}): HttpNotice => ({
  kind: 'http',
  type: NotificationType.HttpClient,
  url: receiver.url(path),
  method: 'POST',
  headers: {},
  body: JSON.stringify({ text: `to ${path}`, sent: 'ありがとう' }),
  contentType: 'application/json; charset=utf-8',
  signed: true,
  ...extra,
});

/** Queues the notices as one origin (one change of one record); their delivery ids, in order. */
async function enqueue(notices: Notice[], siteId = site): Promise<string[]> {
  const origin: NoticeOrigin = {
    tenantId: 1,
    siteId,
    recordId: 99,
    notificationId: 1,
    event: 'Updated',
    source: `test-${sources++}`,
    at: now(),
  };
  await enqueueNotices(origin, notices);
  return notices.map((_, index) => deliveryId(origin, index));
}

/** The row once `ready` holds, polled; fails after `timeoutMs`. */
async function waitFor(
  id: string,
  ready: (row: DeliveryRow) => boolean,
  timeoutMs = 20_000,
  siteId = site,
): Promise<DeliveryRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await getDelivery(1, siteId, id);
    if (row && ready(row)) return row;
    if (Date.now() > deadline) throw new Error(`delivery ${id} still ${JSON.stringify(row)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Moves the clock to the row's next attempt and runs the retries' clock once. */
async function retryNow(row: DeliveryRow): Promise<void> {
  const due = Date.parse(row.NextAttemptAt ?? '');
  offset = Math.max(offset, due - Date.now() + 1);
  expect(await wakeDue()).toBeGreaterThanOrEqual(1);
}

describe('the Deliveries stream consumer', () => {
  it('retries a receiver that fails, with the same delivery id, until it answers 2xx', async () => {
    receiver.behave('/flaky', (count) => (count <= 2 ? 503 : 200));
    const [id] = (await enqueue([notice('/flaky')])) as [string];
    let row = await waitFor(id, (r) => r.Attempts === 1);
    expect(row).toMatchObject({ Status: 'Retrying', ResponseStatus: 503, Reason: 'HTTP 503: answer 503' });
    const first = Date.parse(row.LastAttemptAt ?? '');
    expect(Date.parse(row.NextAttemptAt ?? '') - first).toBeGreaterThanOrEqual(8_000);
    expect(Date.parse(row.NextAttemptAt ?? '') - first).toBeLessThanOrEqual(12_000);
    await retryNow(row);
    row = await waitFor(id, (r) => r.Attempts === 2);
    expect(row.Status).toBe('Retrying');
    await retryNow(row);
    row = await waitFor(id, (r) => r.Status === 'Delivered');
    expect(row).toMatchObject({ Attempts: 3, ResponseStatus: 200 });
    expect(row.Reason).toBeUndefined();
    expect(row.NextAttemptAt).toBeUndefined();
    const requests = receiver.received('/flaky');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((request) => request.headers['x-kiroku-delivery']))).toEqual(new Set([id]));
    expect(requests.every((request) => request.body.toString() === requests[0]?.body.toString())).toBe(true);
  });

  it('delivers the others of a batch while one receiver hangs, and retries the hanging one', async () => {
    receiver.behave('/hang', (count) => (count === 1 ? 'hang' : 204));
    const started = Date.now();
    const [hanging, quick] = (await enqueue([notice('/hang'), notice('/quick')])) as [string, string];
    const delivered = await waitFor(quick, (r) => r.Status === 'Delivered');
    // Long before the hanging one's 10 s are over.
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(delivered.Attempts).toBe(1);
    expect((await getDelivery(1, site, hanging))?.Status).toBe('Pending');
    const timedOut = await waitFor(hanging, (r) => r.Status === 'Retrying', 30_000);
    expect(timedOut.Reason).toBe('no complete answer within 10000 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
    await retryNow(timedOut);
    expect(await waitFor(hanging, (r) => r.Status === 'Delivered')).toMatchObject({
      Attempts: 2,
      ResponseStatus: 204,
    });
  }, 60_000);

  it('refuses a private address unless Notification.AllowedHosts names it, and records why', async () => {
    useSettings(loadSettings({}));
    const [id] = (await enqueue([notice('/private')])) as [string];
    const refused = await waitFor(id, (r) => r.Status === 'Refused');
    expect(refused.Attempts).toBe(1);
    expect(refused.Reason).toBe(
      '127.0.0.1 is 127.0.0.1, a loopback address, which Kiroku does not connect to unless Notification.AllowedHosts names it',
    );
    expect(refused.NextAttemptAt).toBeUndefined();
    expect(receiver.received('/private')).toHaveLength(0);

    allowLocal();
    const replay = await call(stack.url, `/api/items/${site}/notifications/replay`, {
      ApiKey: accounts.admin.apiKey,
      DeliveryIds: [id],
    });
    expect(replay.body).toEqual({
      StatusCode: 200,
      Response: { Replayed: 1 },
      Message: '1 delivery has been queued again.',
    });
    expect(await waitFor(id, (r) => r.Status === 'Delivered')).toMatchObject({ Attempts: 2 });
    expect(receiver.received('/private')).toHaveLength(1);
  });

  it('refuses a name that resolves to a private address', async () => {
    useSettings(loadSettings({}));
    const [id] = (await enqueue([
      notice('/by-name', { url: receiver.url('/by-name').replace('127.0.0.1', 'localhost') }),
    ])) as [string];
    const refused = await waitFor(id, (r) => r.Status === 'Refused');
    expect(refused.Reason).toMatch(/^localhost is (127\.0\.0\.1|::1), a loopback address/);
    expect(refused.Target).toBe(receiver.url('/by-name').replace('127.0.0.1', 'localhost'));
  });

  it('fails a 4xx at once and a 3xx without following it', async () => {
    receiver.behave('/gone', () => 410);
    receiver.behave('/moved', () => 301);
    const [gone, moved] = (await enqueue([notice('/gone'), notice('/moved')])) as [string, string];
    expect(await waitFor(gone, (r) => r.Status === 'Failed')).toMatchObject({
      Attempts: 1,
      ResponseStatus: 410,
      Reason: 'HTTP 410: answer 410 (not retried)',
    });
    const failed = await waitFor(moved, (r) => r.Status === 'Failed');
    expect(failed.Reason).toContain('not followed');
  });

  it('gives up after 24 hours of retries, keeps it in the failure queue, and replays it', async () => {
    receiver.behave('/down', () => 503);
    const [id] = (await enqueue([notice('/down')])) as [string];
    let row = await waitFor(id, (r) => r.Attempts === 1);
    const windowFrom = Date.parse(row.WindowFrom ?? '');
    while (row.Status === 'Retrying') {
      const attempts = row.Attempts;
      await retryNow(row);
      row = await waitFor(id, (r) => r.Attempts === attempts + 1);
    }
    expect(row.Status).toBe('Failed');
    expect(row.Reason).toBe('HTTP 503: answer 503 (retried for 24 hours)');
    expect(row.Attempts).toBeGreaterThan(25);
    // The last attempt was due at the end of the window, and made as soon as the clock woke it.
    expect(Date.parse(row.LastAttemptAt ?? '') - windowFrom).toBeGreaterThanOrEqual(RETRY_WINDOW_MS);
    expect(Date.parse(row.LastAttemptAt ?? '') - windowFrom).toBeLessThan(RETRY_WINDOW_MS + 60_000);
    expect(new Set(receiver.received('/down').map((r) => r.headers['x-kiroku-delivery']))).toEqual(
      new Set([id]),
    );

    const listed = await call(stack.url, `/api/items/${site}/notifications/deliveries`, {
      ApiKey: accounts.admin.apiKey,
      Status: 'Failed',
    });
    expect(
      (listed.body.Response as { Deliveries: { DeliveryId: string }[] }).Deliveries.map((d) => d.DeliveryId),
    ).toContain(id);

    receiver.behave('/down', () => 200);
    const replay = await call(stack.url, `/api/items/${site}/notifications/replay`, {
      ApiKey: accounts.admin.apiKey,
    });
    expect(replay.body).toMatchObject({ StatusCode: 200, Response: { Replayed: expect.any(Number) } });
    const delivered = await waitFor(id, (r) => r.Status === 'Delivered');
    expect(delivered.Attempts).toBe(row.Attempts + 1);
    expect(Date.parse(delivered.WindowFrom ?? '')).toBeGreaterThan(windowFrom);
    // It left the failure queue: the site's Failed ones (the 4xx above, failed again) no longer list it.
    const failed = await call(stack.url, `/api/items/${site}/notifications/deliveries`, {
      ApiKey: accounts.admin.apiKey,
      Status: 'Failed',
    });
    const still = (failed.body.Response as { Deliveries: { DeliveryId: string }[] }).Deliveries;
    expect(still.map((delivery) => delivery.DeliveryId)).not.toContain(id);
  }, 120_000);
});

describe('a mail notice', () => {
  it('goes to the mail service (SMTP here), and is retried while the service is away', async () => {
    const received: { to: string; subject: string; text: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        simpleParser(stream)
          .then((mail) => {
            received.push({
              to: String(mail.to && 'text' in mail.to ? mail.to.text : ''),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
            });
            done();
          })
          .catch(done);
      },
    });
    const port = await freePort();
    const mail: MailNotice = {
      kind: 'mail',
      type: NotificationType.Mail,
      to: ['tanaka@example.com'],
      cc: [],
      bcc: [],
      subject: 'Order changed',
      body: 'Order 12 is now shipped.',
    };
    useSettings(
      loadSettings({
        KIROKU_PARAM_Notification_AllowedHosts: '["127.0.0.1"]',
        KIROKU_PARAM_Mail_SmtpHost: '127.0.0.1',
        KIROKU_PARAM_Mail_SmtpPort: String(port),
        KIROKU_PARAM_Mail_From: 'kiroku@example.com',
      }),
    );
    const [id] = (await enqueue([mail])) as [string];
    const away = await waitFor(id, (r) => r.Attempts === 1);
    expect(away.Status).toBe('Retrying');
    expect(away.Reason).toMatch(/^mail not taken: /);
    expect(away.Target).toBe('tanaka@example.com');
    await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
    try {
      await retryNow(away);
      expect(await waitFor(id, (r) => r.Status === 'Delivered')).toMatchObject({ Attempts: 2 });
      expect(received).toEqual([
        { to: 'tanaka@example.com', subject: 'Order changed', text: 'Order 12 is now shipped.\n' },
      ]);
    } finally {
      await new Promise((resolve) => smtp.close(() => resolve(undefined)));
    }
  });
});

describe('the signature, verified as docs/api.md tells a receiver to', () => {
  /** The receiver of docs/api.md, as written, run with node. */
  const snippet = () => {
    const docs = readFileSync('docs/api.md', 'utf8');
    const match = /<!-- verify-signature -->\n```js\n([\s\S]*?)```/.exec(docs);
    if (!match?.[1]) throw new Error('docs/api.md has no verify-signature example');
    return match[1];
  };

  it('accepts Kiroku’s delivery and refuses a tampered one', async () => {
    const port = await freePort();
    const file = join(tempDir('receiver-'), 'receiver.mjs');
    writeFileSync(file, snippet());
    const secret = await siteSecret(1, site);
    const child = spawn(process.execPath, [file], {
      env: { ...process.env, PORT: String(port), KIROKU_SECRET: secret.secret },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      await waitForPort(port);
      const [id] = (await enqueue([{ ...notice('/'), url: `http://127.0.0.1:${port}/hook` }])) as [string];
      expect(await waitFor(id, (r) => r.Status === 'Delivered')).toMatchObject({ ResponseStatus: 204 });
      expect(output).toContain(`delivery ${id} {"text":"to /","sent":"ありがとう"}`);

      const body = JSON.stringify({ text: 'forged' });
      const forged = await fetch(`http://127.0.0.1:${port}/hook`, {
        method: 'POST',
        body,
        headers: { 'x-kiroku-signature': `sha256=${'0'.repeat(64)}`, 'x-kiroku-delivery': 'forged' },
      });
      expect(forged.status).toBe(401);
    } finally {
      child.kill();
    }
  });

  it('signs with the previous secret too for a day after a rotation', async () => {
    const before = await siteSecret(1, site);
    const rotated = await call(stack.url, `/api/items/${site}/notifications/secret`, {
      ApiKey: accounts.admin.apiKey,
      Rotate: true,
    });
    const secret = (rotated.body.Response as { Secret: string }).Secret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(secret).not.toBe(before.secret);
    const [id] = (await enqueue([notice('/rotated')])) as [string];
    await waitFor(id, (r) => r.Status === 'Delivered');
    const [request] = receiver.received('/rotated');
    const { createHmac } = await import('node:crypto');
    const sign = (key: string) =>
      `sha256=${createHmac('sha256', key)
        .update(request?.body ?? '')
        .digest('hex')}`;
    expect(request?.headers['x-kiroku-signature']).toBe(`${sign(secret)}, ${sign(before.secret)}`);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port: number): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { method: 'GET' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`nothing listens on ${port}`);
}
