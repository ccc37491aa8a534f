import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import { MAX_ATTACHMENT_BYTES } from '../../lib/mail/schemas';
import { sentMailKeys } from '../../lib/mail/sent-mails';
import { dynamo } from '../../lib/storage/clients';
import { type SmtpLocal, startSmtpLocal } from '../../local/smtp-server';
import { createUser, seedAccounts, type TestAccounts, type TestUser } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * `items/{id}/OutgoingMails/Send` received by a real SMTP server (the local one of `npm start`, which keeps
 * each mail under its directory): what arrives is parsed again from the kept bytes. Then `mailbox/get`
 * over the same directory.
 */

let stack: Stack;
let smtp: SmtpLocal;
let accounts: TestAccounts;
let admin: string;
let directory: string;
let site: number;
let record: number;
let sender: TestUser;
let reader: TestUser;
let folder: number;
let groupId: number;
let deptId: number;
const stamp = Date.now();

const post = (path: string, body?: object) => call(stack.url, path, body);
const send = (id: number, key: string, body: object) =>
  post(`/api/items/${id}/OutgoingMails/Send`, { ApiKey: key, ...body });
const mailbox = (key: string, body: object = {}) => post('/api/mailbox/get', { ApiKey: key, ...body });

/** The newest kept mail, parsed again from its .eml, with the envelope's recipients. */
async function lastMail() {
  const page = await mailbox(admin);
  const [newest] = (page.body.Response as { Mails: { Id: string }[] }).Mails;
  if (!newest) throw new Error('no mail kept');
  const kept = JSON.parse(await readFile(join(directory, `${newest.Id}.json`), 'utf8'));
  const parsed = await simpleParser(await readFile(join(directory, `${newest.Id}.eml`)));
  return { kept, parsed };
}

const addressesOf = (field: unknown) =>
  ((field as { value: { address: string }[] } | undefined)?.value ?? []).map((mailbox) => mailbox.address);

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'kiroku-mail-'));
  smtp = await startSmtpLocal({ directory });
  stack = await startStack();
  process.env.KIROKU_MAILBOX_DIR = directory;
  useSettings(
    loadSettings({
      KIROKU_PARAM_Mail_SmtpHost: smtp.host,
      KIROKU_PARAM_Mail_SmtpPort: String(smtp.port),
      KIROKU_PARAM_Mail_From: 'kiroku@localhost',
    }),
  );
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
  sender = await createUser(stack.url, admin, `sender-${stamp}`, { MailAddresses: ['sender@example.com'] });
  reader = await createUser(stack.url, admin, `reader-${stamp}`);
  const dept = await post('/api/depts/create', { ApiKey: admin, DeptCode: `d${stamp}`, DeptName: 'Sales' });
  deptId = Number(dept.body.Id);
  const member = await createUser(stack.url, admin, `member-${stamp}`, {
    MailAddresses: ['member@example.com'],
    DeptId: deptId,
  });
  await createUser(stack.url, admin, `off-${stamp}`, {
    MailAddresses: ['disabled@example.com'],
    DeptId: deptId,
    Disabled: true,
  });
  const group = await post('/api/groups/create', {
    ApiKey: admin,
    GroupName: 'Mailing',
    Members: [`User,${sender.userId}`, `User,${member.userId}`],
  });
  groupId = Number(group.body.Id);
  await post('/api/users/1/update', { ApiKey: admin, MailAddresses: ['admin@example.com'] });
  folder = await createSite(stack.url, admin, 0, { Title: 'Folder' });
  site = await createSite(stack.url, admin, 0, {
    Title: 'Orders',
    ReferenceType: 'Results',
    Permissions: [`User,${sender.userId},17`, `User,${reader.userId},1`],
  });
  record = await createRecord(stack.url, admin, site, { Title: 'Order 1' });
}, 60_000);

afterAll(async () => {
  useSettings(undefined);
  delete process.env.KIROKU_MAILBOX_DIR;
  await stack?.close();
  await smtp?.stop();
  await rm(directory, { recursive: true, force: true });
});

describe('OutgoingMails/Send', () => {
  it('sends To, Cc and Bcc, a Japanese subject and body and a byte-exact attachment, then answers', async () => {
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, index) => (index * 7) % 256));
    const result = await send(record, sender.apiKey, {
      To: '"山田 太郎" <taro@example.com>; hanako@example.com',
      Cc: 'cc@example.com',
      Bcc: 'hidden@example.com',
      Title: '見積書の送付について',
      Body: 'お世話になっております。\n見積書を添付します。',
      Attachments: [
        { Name: '見積書.bin', Base64: bytes.toString('base64'), ContentType: 'application/octet-stream' },
      ],
    });
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({ Id: record, StatusCode: 200, Message: 'Email has been sent.' });

    const { kept, parsed } = await lastMail();
    expect(addressesOf(parsed.from)).toEqual(['sender@example.com']);
    expect(addressesOf(parsed.to)).toEqual(['taro@example.com', 'hanako@example.com']);
    expect((parsed.to as { value: { name: string }[] }).value[0]?.name).toBe('山田 太郎');
    expect(addressesOf(parsed.cc)).toEqual(['cc@example.com']);
    // Bcc travels in the envelope only.
    expect(parsed.headers.has('bcc')).toBe(false);
    expect(kept.Recipients).toEqual(
      expect.arrayContaining([
        'taro@example.com',
        'hanako@example.com',
        'cc@example.com',
        'hidden@example.com',
      ]),
    );
    expect(parsed.subject).toBe('見積書の送付について');
    expect(parsed.text?.trim()).toBe('お世話になっております。\n見積書を添付します。');
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]?.filename).toBe('見積書.bin');
    expect(Buffer.compare(parsed.attachments[0]?.content as Buffer, bytes)).toBe(0);
  });

  it('keeps a record of the sent mail under its site', async () => {
    const rows = await dynamo().send(
      new QueryCommand({
        TableName: stack.tables.deliveries,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': sentMailKeys.site(1, site) },
      }),
    );
    expect(rows.Items?.find((row) => row.Subject === '見積書の送付について')).toMatchObject({
      Kind: 'OutgoingMail',
      RecordId: record,
      SentBy: sender.userId,
      From: 'sender@example.com',
      Bcc: ['hidden@example.com'],
      AttachmentNames: ['見積書.bin'],
    });
  });

  it('expands [UserN], [GroupN] and [DeptN] to the enabled members of the tenant, each address once', async () => {
    const result = await send(record, sender.apiKey, {
      To: `[User1], [Group${groupId}]`,
      Cc: `[Dept${deptId}]`,
      Title: 'tokens',
    });
    expect(result.status, result.text).toBe(200);
    const { parsed } = await lastMail();
    expect(addressesOf(parsed.to).sort()).toEqual([
      'admin@example.com',
      'member@example.com',
      'sender@example.com',
    ]);
    expect(addressesOf(parsed.cc)).toEqual(['member@example.com']);
  });

  it('sends from Mail.From when the caller has no address, and from the body when it names one', async () => {
    await send(record, admin, { From: 'Desk <desk@example.com>', To: 'a@example.com', Title: 'from' });
    expect(addressesOf((await lastMail()).parsed.from)).toEqual(['desk@example.com']);
    const plain = await createUser(stack.url, admin, `plain-${stamp}`);
    await send(record, plain.apiKey, { To: 'a@example.com', Title: 'from' }).then(async (result) =>
      // A plain user without SendMail: the check comes first.
      expect(result.status).toBe(403),
    );
    await post('/api/users/1/update', { ApiKey: admin, MailAddresses: [] });
    await send(record, admin, { To: 'a@example.com', Title: 'from' });
    expect(addressesOf((await lastMail()).parsed.from)).toEqual(['kiroku@localhost']);
    await post('/api/users/1/update', { ApiKey: admin, MailAddresses: ['admin@example.com'] });
  });

  it('takes ManageSite on a folder, SendMail on a table', async () => {
    expect((await send(folder, admin, { To: 'a@example.com' })).status).toBe(200);
    expect((await send(folder, sender.apiKey, { To: 'a@example.com' })).status).toBe(403);
    expect((await send(site, sender.apiKey, { To: 'a@example.com' })).status).toBe(200);
  });

  describe('permissions', () => {
    it.each([
      ['a user without SendMail', () => send(record, reader.apiKey, { To: 'a@example.com' }), 403],
      ["another tenant's record", () => send(record, accounts.other.apiKey, { To: 'a@example.com' }), 404],
      ['no such record', () => send(999_999_999, sender.apiKey, { To: 'a@example.com' }), 404],
      ['no credentials', () => post(`/api/items/${record}/OutgoingMails/Send`, { To: 'a@example.com' }), 401],
    ])('%s → %i', async (_case, request, status) => {
      const result = await request();
      expect(result.status, result.text).toBe(status);
      expect(result.body.StatusCode).toBe(status);
    });
  });

  describe('bad input', () => {
    const big = Buffer.alloc(MAX_ATTACHMENT_BYTES / 2 + 1).toString('base64');
    it.each([
      ['no address', {}, 'Add at least one email address.', undefined],
      ['blank lists', { To: ' ; ', Cc: '', Bcc: '\n' }, 'Add at least one email address.', undefined],
      [
        'a bad address',
        { To: 'ok@example.com, not-an-address' },
        'Invalid email address.[not-an-address]',
        'To',
      ],
      [
        'a bad Cc',
        { To: 'ok@example.com', Cc: 'a@@example.com' },
        'Invalid email address.[a@@example.com]',
        'Cc',
      ],
      ['a bad From', { From: 'me', To: 'ok@example.com' }, 'Invalid email address.[me]', 'From'],
      [
        'a token naming nobody with an address',
        { To: '[User999999]' },
        'Add at least one email address.',
        undefined,
      ],
      [
        'bad Base64',
        { To: 'ok@example.com', Attachments: [{ Name: 'a.txt', Base64: 'not base64!' }] },
        'Invalid request.',
        'Attachments[0].Base64',
      ],
      [
        'attachments too large together',
        {
          To: 'ok@example.com',
          Attachments: [
            { Name: 'a', Base64: big },
            { Name: 'b', Base64: big },
          ],
        },
        'Invalid request.',
        'Attachments',
      ],
      [
        'too many attachments',
        {
          To: 'ok@example.com',
          Attachments: Array.from({ length: 11 }, () => ({ Name: 'a', Base64: 'YQ==' })),
        },
        'Invalid request.',
        'Attachments',
      ],
      [
        'too many recipients',
        { To: Array.from({ length: 51 }, (_, index) => `r${index}@example.com`).join(',') },
        'Invalid request.',
        'To',
      ],
    ])('%s → 400', async (_case, body, message, property) => {
      const result = await send(record, sender.apiKey, body);
      expect(result.status, result.text).toBe(400);
      expect(result.body).toMatchObject({ StatusCode: 400, Message: message });
      if (property) expect(JSON.stringify(result.body.Errors)).toContain(`"Property":"${property}`);
    });
  });

  it('answers 502 naming the SMTP server when it cannot be reached, and 503 when none is set', async () => {
    useSettings(loadSettings({ KIROKU_PARAM_Mail_SmtpHost: '127.0.0.1', KIROKU_PARAM_Mail_SmtpPort: '1' }));
    const down = await send(record, sender.apiKey, { To: 'a@example.com' });
    expect(down.status, down.text).toBe(502);
    expect(String(down.body.Message)).toMatch(/^The mail could not be sent: the SMTP server 127\.0\.0\.1:1 /);
    useSettings(loadSettings({}));
    const none = await send(record, sender.apiKey, { To: 'a@example.com' });
    expect(none.status, none.text).toBe(503);
    useSettings(
      loadSettings({
        KIROKU_PARAM_Mail_SmtpHost: smtp.host,
        KIROKU_PARAM_Mail_SmtpPort: String(smtp.port),
        KIROKU_PARAM_Mail_From: 'kiroku@localhost',
      }),
    );
  });
});

describe('mailbox/get', () => {
  it('answers the kept mail to a privileged user, newest first, 20 a page', async () => {
    for (let index = 0; index < 21; index++) {
      await send(record, sender.apiKey, { To: 'page@example.com', Title: `page ${index}` });
    }
    const first = await mailbox(admin);
    expect(first.status, first.text).toBe(200);
    const response = first.body.Response as { Mails: Record<string, unknown>[]; TotalCount: number };
    expect(response.Mails).toHaveLength(20);
    expect(response.Mails[0]).toMatchObject({
      From: 'sender@example.com',
      To: ['page@example.com'],
      Cc: [],
      Subject: 'page 20',
    });
    expect(Object.keys(response.Mails[0] ?? {}).sort()).toEqual([
      'Cc',
      'Date',
      'From',
      'Id',
      'Subject',
      'Text',
      'To',
    ]);
    const second = await mailbox(admin, { Offset: 20 });
    const rest = (second.body.Response as { Mails: { Subject: string }[]; TotalCount: number }).Mails;
    expect(rest[0]?.Subject).toBe('page 0');
    expect((second.body.Response as { TotalCount: number }).TotalCount).toBe(response.TotalCount);
  });

  it.each([
    ['a plain user', () => reader.apiKey, 403],
    ["another tenant's manager", () => accounts.other.apiKey, 403],
  ])('refuses %s with %i', async (_case, key, status) => {
    const result = await mailbox(key());
    expect(result.status, result.text).toBe(status);
  });

  it('answers 404 with a clear message where there is no local mailbox', async () => {
    delete process.env.KIROKU_MAILBOX_DIR;
    try {
      const result = await mailbox(admin);
      expect(result.status).toBe(404);
      expect(result.body.Message).toBe(
        'There is no local mailbox here: mail goes through the mail service (SES in AWS).',
      );
    } finally {
      process.env.KIROKU_MAILBOX_DIR = directory;
    }
  });
});
