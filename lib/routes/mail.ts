import * as mail from '../mail/schemas';
import { apiResultSchema } from '../schema';
import { itemsRead, type Route } from './route';

/** Mail (CONTRACT 14): a mail sent about an item, and the local SMTP server's mailbox. */

export const outgoingmailsSend = {
  method: 'POST',
  path: '/api/items/{id}/OutgoingMails/Send',
  aliases: ['/api/items/{id}/outgoingmails/send'],
  handler: 'outgoingmails-send',
  // Accounts: the caller's own address, and the members of [UserN], [GroupN] and [DeptN]. Deliveries: the
  // record of the sent mail (lib/mail/sent-mails.ts).
  tables: { ...itemsRead, deliveries: 'write' },
  mail: true,
  summary:
    'Send a mail about record or site {id} (SendMail; ManageSite on a folder or dashboard): To, Cc, Bcc, Title, Body, Attachments; answers once the mail service took it',
  request: mail.outgoingMailRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const mailboxGet = {
  method: 'POST',
  path: '/api/mailbox/get',
  handler: 'mailbox-get',
  tables: { accounts: 'read' },
  summary:
    "The local SMTP server's mailbox, newest first, 20 per page from Offset (privileged users; 404 where mail goes through SES)",
  request: mail.mailboxRequest,
  response: mail.mailboxResponse,
} as const satisfies Route;
