import { OutOfBoundsError } from '../errors';
import { expandEntries, type Mailbox, parseAddressEntry, parseAddressLists } from './addresses';
import { tenantDirectory } from './directory';
import { MailAddressError, NoMailAddressError, NoSenderError } from './errors';
import { defaultSender, type MailAttachment, transmit } from './transport';

export type { MailAttachment } from './transport';

/**
 * One mail. Each of `to`, `cc` and `bcc` holds lists as the reference writes them (entries split on `,`,
 * `;` or newlines outside quotes); an entry may be a token of the reference, `[User1]`, `[Group2]` or
 * `[Dept3]`, which the sender expands to the members' addresses in the tenant.
 */
export interface MailMessage {
  readonly from?: string;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly bcc: readonly string[];
  readonly subject: string;
  readonly body: string;
  readonly attachments?: readonly MailAttachment[];
}

/** The mail as it went out: the service's id and the mailboxes the lists came to. */
export interface SentMail {
  readonly messageId: string;
  readonly from: Mailbox;
  readonly to: readonly Mailbox[];
  readonly cc: readonly Mailbox[];
  readonly bcc: readonly Mailbox[];
}

/** The most recipients of one mail: SES takes 50 (To, Cc and Bcc together). */
export const MAX_RECIPIENTS = 50;

/** The lists read and expanded, before anything is sent: the first bad address throws, naming it. */
export async function resolveRecipients(
  tenantId: number,
  mail: Pick<MailMessage, 'to' | 'cc' | 'bcc'>,
): Promise<Pick<SentMail, 'to' | 'cc' | 'bcc'>> {
  const entries = {
    to: parseAddressLists(mail.to, 'To'),
    cc: parseAddressLists(mail.cc, 'Cc'),
    bcc: parseAddressLists(mail.bcc, 'Bcc'),
  };
  if (entries.to.length + entries.cc.length + entries.bcc.length === 0) throw new NoMailAddressError();
  const directory = tenantDirectory(tenantId);
  const [to, cc, bcc] = await Promise.all([
    expandEntries(entries.to, directory),
    expandEntries(entries.cc, directory),
    expandEntries(entries.bcc, directory),
  ]);
  const count = to.length + cc.length + bcc.length;
  if (count === 0)
    throw new NoMailAddressError('the tokens of To, Cc and Bcc name nobody with a mail address');
  if (count > MAX_RECIPIENTS) {
    throw new OutOfBoundsError('To', `${count} recipients; a mail goes to at most ${MAX_RECIPIENTS}`);
  }
  return { to, cc, bcc };
}

/** The sender: the mail's own `from`, else `Mail.From` (or the SES identity); one bare mailbox. */
export function resolveSender(from: string | undefined): Mailbox {
  const text = from?.trim() || defaultSender();
  if (!text) throw new NoSenderError();
  const entry = parseAddressEntry(text, 'From');
  if (entry.kind !== 'address') throw new MailAddressError(text, 'From');
  return entry;
}

/**
 * Sends one mail (CONTRACT 14) through SES in AWS or SMTP elsewhere (lib/mail/transport.ts). Resolves once
 * the service took it; rejects with a MailAddressError or NoMailAddressError (the lists are wrong: sending
 * again cannot help), a MailServiceError (the service failed: a retry may pass), or a
 * MailNotConfiguredError / NoSenderError (the deployment lacks Mail.SmtpHost or Mail.From).
 */
export async function sendMail(tenantId: number, mail: MailMessage): Promise<SentMail> {
  const from = resolveSender(mail.from);
  const recipients = await resolveRecipients(tenantId, mail);
  const messageId = await transmit({
    from,
    ...recipients,
    subject: mail.subject,
    text: mail.body,
    attachments: mail.attachments ?? [],
  });
  return { messageId, from, ...recipients };
}
