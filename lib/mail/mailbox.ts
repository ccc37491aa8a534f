import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Principal } from '../accounts/principal';
import { ForbiddenError } from '../errors';
import { NoMailboxError } from './errors';

/**
 * The local mailbox (CONTRACT 14): the SMTP server of `npm start` (local/smtp-server.ts) keeps every mail
 * it receives as `<dir>/<UTC yyyymmddhhmmssSSS>-<hex>.eml` with the same name in `.json`, parsed; the
 * directory is KIROKU_MAILBOX_DIR, which only the local runtime sets. Privileged users read it.
 */

export const MAILBOX_PAGE_SIZE = 20;

/** One received mail as `mailbox/get` answers it. */
export interface MailboxMail {
  readonly Id: string;
  /** ISO time it was received. */
  readonly Date: string;
  readonly From: string;
  readonly To: readonly string[];
  readonly Cc: readonly string[];
  readonly Subject: string;
  readonly Text: string;
  /** Every address of the SMTP envelope: Bcc recipients are only here. */
  readonly Recipients: readonly string[];
}

export function mailboxDirectory(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.KIROKU_MAILBOX_DIR || undefined;
}

/** Keeps a received mail: its raw bytes and its parsed view, each written whole (a rename) or not at all. */
export async function keepReceivedMail(
  directory: string,
  raw: Buffer,
  mail: Omit<MailboxMail, 'Id' | 'Date'>,
  at = new Date(),
): Promise<MailboxMail> {
  const id = `${at.toISOString().replace(/\D/g, '').slice(0, 17)}-${randomBytes(6).toString('hex')}`;
  const kept: MailboxMail = { Id: id, Date: at.toISOString(), ...mail };
  await mkdir(directory, { recursive: true });
  await writeWhole(join(directory, `${id}.eml`), raw);
  await writeWhole(join(directory, `${id}.json`), `${JSON.stringify(kept, null, 2)}\n`);
  return kept;
}

async function writeWhole(path: string, data: Buffer | string): Promise<void> {
  await writeFile(`${path}.tmp`, data);
  await rename(`${path}.tmp`, path);
}

/** A page of the mailbox, newest first; 404 where there is none, 403 for anyone not privileged. */
export async function readMailbox(
  principal: Principal,
  offset = 0,
  directory = mailboxDirectory(),
): Promise<{ mails: MailboxMail[]; totalCount: number }> {
  if (!principal.privileged) throw new ForbiddenError(`user ${principal.userId} is not privileged`);
  if (!directory) throw new NoMailboxError();
  const names = (await listJson(directory)).sort().reverse();
  const page = names.slice(offset, offset + MAILBOX_PAGE_SIZE);
  const mails = await Promise.all(
    page.map(async (name) => JSON.parse(await readFile(join(directory, name), 'utf8')) as MailboxMail),
  );
  return { mails, totalCount: names.length };
}

async function listJson(directory: string): Promise<string[]> {
  try {
    return (await readdir(directory)).filter((name) => name.endsWith('.json'));
  } catch (error) {
    // The server has received nothing yet: an empty mailbox.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
