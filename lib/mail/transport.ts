import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { createTransport } from 'nodemailer';
import { settings } from '../config/settings';
import type { Mailbox } from './addresses';
import { MailNotConfiguredError, MailServiceError } from './errors';

/**
 * The two ways a mail leaves Kiroku (CONTRACT 14): Amazon SES (SESv2 SendEmail, simple content in UTF-8)
 * where the CDK app has set KIROKU_MAIL_SES_IDENTITY (infra/mail.ts), and SMTP (`Mail.SmtpHost`,
 * `Mail.SmtpPort`, credentials in KIROKU_SMTP_USER / KIROKU_SMTP_PASSWORD) everywhere else. Either resolves
 * once the service took the mail, and rejects with a MailServiceError that names what failed.
 */

export interface MailAttachment {
  readonly name: string;
  readonly contentType: string;
  readonly content: Uint8Array;
}

export interface OutgoingMail {
  readonly from: Mailbox;
  readonly to: readonly Mailbox[];
  readonly cc: readonly Mailbox[];
  readonly bcc: readonly Mailbox[];
  readonly subject: string;
  readonly text: string;
  readonly attachments: readonly MailAttachment[];
}

/** The SES identity the deployment sends as (a domain or an address), if any. */
export function sesIdentity(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.KIROKU_MAIL_SES_IDENTITY || undefined;
}

/** The sender when a mail names none: `Mail.From`, else the SES identity's own address. */
export function defaultSender(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const identity = sesIdentity(env);
  const fallback = identity && (identity.includes('@') ? identity : `no-reply@${identity}`);
  return settings().Mail.From ?? fallback;
}

/** Sends through SES or SMTP, whichever this deployment has; the service's message id. */
export function transmit(mail: OutgoingMail, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return sesIdentity(env) ? sendWithSes(mail, env) : sendWithSmtp(mail, env);
}

let ses: SESv2Client | undefined;

async function sendWithSes(mail: OutgoingMail, env: NodeJS.ProcessEnv): Promise<string> {
  ses ??= new SESv2Client({});
  const utf8 = (data: string) => ({ Data: data, Charset: 'UTF-8' });
  try {
    const sent = await ses.send(
      new SendEmailCommand({
        FromEmailAddress: headerMailbox(mail.from),
        Destination: {
          ToAddresses: mail.to.map(headerMailbox),
          CcAddresses: mail.cc.map(headerMailbox),
          BccAddresses: mail.bcc.map(headerMailbox),
        },
        ConfigurationSetName: env.KIROKU_MAIL_SES_CONFIGURATION_SET || undefined,
        Content: {
          Simple: {
            Subject: utf8(mail.subject),
            Body: { Text: utf8(mail.text) },
            Attachments: mail.attachments.length
              ? mail.attachments.map((file) => ({
                  FileName: file.name,
                  ContentType: file.contentType,
                  RawContent: file.content,
                }))
              : undefined,
          },
        },
      }),
    );
    return sent.MessageId ?? '';
  } catch (error) {
    const { name, message } = error as Error;
    throw new MailServiceError(`Amazon SES refused the mail (${name}): ${message}`);
  }
}

async function sendWithSmtp(mail: OutgoingMail, env: NodeJS.ProcessEnv): Promise<string> {
  const { SmtpHost: host, SmtpPort: port } = settings().Mail;
  if (!host) throw new MailNotConfiguredError();
  const user = env.KIROKU_SMTP_USER;
  const transport = createTransport({
    host,
    port,
    secure: port === 465,
    auth: user ? { user, pass: env.KIROKU_SMTP_PASSWORD ?? '' } : undefined,
    // Within a request's time: a server that does not answer is a failure to report, not a hung Lambda.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    const sent = await transport.sendMail({
      from: mail.from,
      to: [...mail.to],
      cc: [...mail.cc],
      bcc: [...mail.bcc],
      subject: mail.subject,
      text: mail.text,
      attachments: mail.attachments.map((file) => ({
        filename: file.name,
        contentType: file.contentType,
        content: Buffer.from(file.content),
      })),
    });
    return sent.messageId;
  } catch (error) {
    const { message } = error as Error;
    throw new MailServiceError(`the SMTP server ${host}:${port} did not take the mail: ${message}`);
  } finally {
    transport.close();
  }
}

/** A mailbox for a header SES writes as given: a name outside ASCII as an RFC 2047 encoded word. */
function headerMailbox(mailbox: Mailbox): string {
  if (!mailbox.name) return mailbox.address;
  const name = /^[\x20-\x7e]*$/.test(mailbox.name)
    ? `"${mailbox.name.replace(/["\\]/g, '\\$&')}"`
    : `=?UTF-8?B?${Buffer.from(mailbox.name).toString('base64')}?=`;
  return `${name} <${mailbox.address}>`;
}
