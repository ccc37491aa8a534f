import { randomBytes } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../storage/clients';
import { tableName } from '../storage/tables';
import type { Mailbox } from './addresses';

/**
 * The record of a mail sent through `OutgoingMails/Send` (the reference inserts an OutgoingMails row).
 * Kiroku keeps it in the deliveries table, in a partition of its own per site (`T#<tenant>#M#<site>`,
 * never the deliveries' `T#<tenant>#S#<site>`), for as long as deliveries are kept; the body up to
 * MAX_KEPT_BODY characters, the attachments by name.
 */

export const SENT_MAIL_KEPT_DAYS = 30;
const MAX_KEPT_BODY = 32_000;

export const sentMailKeys = {
  site: (tenantId: number, siteId: number) => `T#${tenantId}#M#${siteId}`,
  mail: (id: string) => `M#${id}`,
};

export interface SentMailRecord {
  readonly tenantId: number;
  readonly siteId: number;
  readonly recordId?: number;
  readonly userId: number;
  readonly messageId: string;
  readonly from: Mailbox;
  readonly to: readonly Mailbox[];
  readonly cc: readonly Mailbox[];
  readonly bcc: readonly Mailbox[];
  readonly subject: string;
  readonly body: string;
  readonly attachmentNames: readonly string[];
  /** Epoch ms. */
  readonly sentAt: number;
}

/** Keeps the record; its id is time-ordered (`<UTC yyyymmddhhmmssSSS>-<hex>`), as deliveries' ids. */
export async function keepSentMail(mail: SentMailRecord): Promise<string> {
  const id = `${new Date(mail.sentAt).toISOString().replace(/\D/g, '').slice(0, 17)}-${randomBytes(8).toString('hex')}`;
  const text = (mailbox: Mailbox) => mailbox.address;
  await dynamo().send(
    new PutCommand({
      TableName: tableName('deliveries'),
      Item: {
        pk: sentMailKeys.site(mail.tenantId, mail.siteId),
        sk: sentMailKeys.mail(id),
        Kind: 'OutgoingMail',
        OutgoingMailId: id,
        TenantId: mail.tenantId,
        SiteId: mail.siteId,
        RecordId: mail.recordId,
        SentBy: mail.userId,
        MessageId: mail.messageId,
        From: text(mail.from),
        To: mail.to.map(text),
        Cc: mail.cc.map(text),
        Bcc: mail.bcc.map(text),
        Subject: mail.subject,
        Body: mail.body.slice(0, MAX_KEPT_BODY),
        AttachmentNames: mail.attachmentNames,
        SentAt: new Date(mail.sentAt).toISOString(),
        ExpiresAt: Math.floor(mail.sentAt / 1000) + SENT_MAIL_KEPT_DAYS * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return id;
}
