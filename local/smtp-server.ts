import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { keepReceivedMail, type MailboxMail } from '../lib/mail/mailbox';

/**
 * The local SMTP server of `npm start` (CONTRACT 14): smtp-server on 127.0.0.1, no authentication, no
 * STARTTLS, mails up to MAX_MAIL_BYTES; every mail it takes is kept under `directory` (lib/mail/mailbox.ts),
 * so it survives a restart and `mailbox/get` shows it. It answers 250 only once the mail is on disk.
 */

export const MAX_MAIL_BYTES = 25 * 1024 * 1024;

export interface SmtpLocalOptions {
  readonly directory: string;
  /** Fixed port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Called with each mail once kept (tests wait on it). */
  readonly onMail?: (mail: MailboxMail) => void;
}

export interface SmtpLocal {
  readonly host: string;
  readonly port: number;
  readonly directory: string;
  stop(): Promise<void>;
}

export async function startSmtpLocal(options: SmtpLocalOptions): Promise<SmtpLocal> {
  const directory = resolve(options.directory);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_MAIL_BYTES,
    logger: false,
    banner: 'Kiroku local mail server',
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          const error = Object.assign(new Error(`the mail is larger than ${MAX_MAIL_BYTES} bytes`), {
            responseCode: 552,
          });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks);
        const recipients = session.envelope.rcptTo.map((address: SMTPServerAddress) => address.address);
        keep(directory, raw, recipients)
          .then((mail) => {
            options.onMail?.(mail);
            callback(null, `kept as ${mail.Id}`);
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', fail);
      done();
    });
  });
  // smtp-server keeps its net.Server as `server`; the types do not say so.
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  let stopped: Promise<void> | undefined;
  return {
    host: '127.0.0.1',
    port,
    directory,
    stop: () => {
      stopped ??= new Promise<void>((done) => server.close(() => done()));
      return stopped;
    },
  };
}

async function keep(directory: string, raw: Buffer, recipients: string[]): Promise<MailboxMail> {
  const parsed = await simpleParser(raw);
  const addresses = (field: AddressObject | AddressObject[] | undefined) =>
    (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) =>
      object.value.flatMap((mailbox) => (mailbox.address ? [mailbox.address] : [])),
    );
  return keepReceivedMail(directory, raw, {
    From: parsed.from?.text ?? '',
    To: addresses(parsed.to),
    Cc: addresses(parsed.cc),
    Subject: parsed.subject ?? '',
    Text: parsed.text ?? '',
    Recipients: recipients,
  });
}
