import type * as z from 'zod';
import type { Principal } from '../accounts/principal';
import { getUser } from '../accounts/repository';
import { now } from '../clock';
import { InvalidInputError, OutOfBoundsError } from '../errors';
import { logger } from '../log';
import { mailMessages } from './errors';
import { MAX_ATTACHMENT_BYTES, type outgoingMailRequest } from './schemas';
import { type MailAttachment, sendMail } from './send';
import { keepSentMail } from './sent-mails';

/** Where the mail is sent from: the item `mailTarget` (lib/items/mail-target.ts) allowed. */
export interface OutgoingMailTarget {
  readonly siteId: number;
  readonly recordId?: number;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * `items/{id}/OutgoingMails/Send` (reference note 5): checks the lists and the attachments, sends, and
 * answers only once the mail service took the mail (the reference answers before it sends). `From`
 * defaults to the caller's first mail address, else `Mail.From`. The mail is then recorded
 * (lib/mail/sent-mails.ts); a failure to record it is logged and does not fail the request, which would
 * only make the caller send the mail twice.
 */
export async function sendOutgoingMail(
  principal: Principal,
  target: OutgoingMailTarget,
  input: z.infer<typeof outgoingMailRequest>,
): Promise<{ id: number; message: string }> {
  const attachments = decodeAttachments(input.Attachments ?? []);
  const from = input.From?.trim() || (await getUser(principal.userId))?.mailAddresses?.[0];
  const subject = input.Title ?? '';
  const body = input.Body ?? '';
  const sent = await sendMail(principal.tenantId, {
    from,
    to: [input.To ?? ''],
    cc: [input.Cc ?? ''],
    bcc: [input.Bcc ?? ''],
    subject,
    body,
    attachments,
  });
  const id = target.recordId ?? target.siteId;
  try {
    await keepSentMail({
      tenantId: principal.tenantId,
      ...target,
      userId: principal.userId,
      ...sent,
      subject,
      body,
      attachmentNames: attachments.map((file) => file.name),
      sentAt: now(),
    });
  } catch (error) {
    logger.error('the sent mail could not be recorded', { id, messageId: sent.messageId, error });
  }
  return { id, message: mailMessages.sent };
}

/** The attachments as bytes; a Base64 that does not decode, or too many bytes, is a 400 naming it. */
function decodeAttachments(
  entries: NonNullable<z.infer<typeof outgoingMailRequest>['Attachments']>,
): MailAttachment[] {
  let total = 0;
  return entries.map((entry, index) => {
    const base64 = entry.Base64.replace(/\s+/g, '');
    if (!BASE64.test(base64)) {
      throw new InvalidInputError([{ Property: `Attachments[${index}].Base64`, Problem: 'not Base64' }]);
    }
    const content = Buffer.from(base64, 'base64');
    total += content.length;
    if (total > MAX_ATTACHMENT_BYTES) {
      throw new OutOfBoundsError(
        'Attachments',
        `more than ${MAX_ATTACHMENT_BYTES} bytes of attachments (${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB) in one mail`,
      );
    }
    return {
      name: entry.Name,
      contentType: entry.ContentType || 'application/octet-stream',
      content,
    };
  });
}
