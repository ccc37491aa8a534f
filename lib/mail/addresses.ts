import { isAddrSpec } from '../accounts/mail-addresses';
import type { User } from '../accounts/model';
import { MailAddressError } from './errors';

/**
 * Address lists as the reference reads them (MailAddressValidators, OutgoingMailUtilities): a list is
 * split on `,`, `;` or a newline outside quotes; an entry is an address, `Name <address>`, or a token
 * `[User1]`, `[Group2]`, `[Dept3]` that stands for the members' addresses in the tenant.
 */

/** One entry of a list: a mailbox to send to, or a token the directory expands. */
export type AddressEntry =
  | { readonly kind: 'address'; readonly name?: string; readonly address: string }
  | { readonly kind: 'token'; readonly of: 'User' | 'Group' | 'Dept'; readonly id: number };

/** A mailbox as the transport takes it. */
export interface Mailbox {
  readonly name?: string;
  readonly address: string;
}

const TOKEN = /^\[(User|Group|Dept)(\d{1,15})\]$/;
const NAMED = /^(.*?)\s*<([^<>]*)>$/;

/** Splits a list on `,`, `;` and newlines outside double quotes; blank entries are dropped. */
export function splitAddressList(text: string): string[] {
  const entries: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    if (!quoted && (char === ',' || char === ';' || char === '\n' || char === '\r')) {
      entries.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  entries.push(current);
  return entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/** Reads one entry; an entry that is neither a token nor an address is a MailAddressError naming it. */
export function parseAddressEntry(entry: string, property?: string): AddressEntry {
  const token = TOKEN.exec(entry);
  if (token) return { kind: 'token', of: token[1] as 'User' | 'Group' | 'Dept', id: Number(token[2]) };
  const named = NAMED.exec(entry);
  const address = (named ? (named[2] as string) : entry).trim();
  if (!isAddrSpec(address)) throw new MailAddressError(entry, property);
  const name = named?.[1]?.trim().replace(/^"(.*)"$/, '$1');
  return name ? { kind: 'address', name, address } : { kind: 'address', address };
}

/** Every entry of the lists (each may itself hold several), parsed; the first bad one throws. */
export function parseAddressLists(lists: readonly string[], property?: string): AddressEntry[] {
  return lists.flatMap((list) => splitAddressList(list).map((entry) => parseAddressEntry(entry, property)));
}

/** What the tokens expand against: the tenant's users, and who belongs to a group or a dept. */
export interface AddressDirectory {
  user(id: number): Promise<User | undefined>;
  groupMembers(id: number): Promise<readonly User[]>;
  deptMembers(id: number): Promise<readonly User[]>;
}

/**
 * The mailboxes the entries stand for, each address once (the first spelling kept): a token gives the
 * addresses of its enabled users, and nothing when it names nobody of the tenant, as in the reference.
 */
export async function expandEntries(
  entries: readonly AddressEntry[],
  directory: AddressDirectory,
): Promise<Mailbox[]> {
  const expanded = await Promise.all(entries.map((entry) => expandEntry(entry, directory)));
  const seen = new Set<string>();
  return expanded.flat().filter((mailbox) => {
    const key = mailbox.address.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function expandEntry(entry: AddressEntry, directory: AddressDirectory): Promise<Mailbox[]> {
  if (entry.kind === 'address') return [entry];
  const users =
    entry.of === 'User'
      ? [await directory.user(entry.id)].filter((user): user is User => user !== undefined)
      : entry.of === 'Group'
        ? await directory.groupMembers(entry.id)
        : await directory.deptMembers(entry.id);
  return users
    .filter((user) => !user.disabled)
    .flatMap((user) => (user.mailAddresses ?? []).map((address) => ({ name: user.name, address })));
}
