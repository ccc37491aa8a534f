/**
 * The syntax of one mail address (an RFC 5321 mailbox, as SMTP and SES take it): a local part of atoms
 * joined by dots or a quoted string, `@`, and a domain of labels or an address literal. Kept at the
 * accounts' level because users' MailAddresses are checked with it; lib/mail builds its lists on it.
 */

const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const QUOTED = '"(?:[^"\\\\\\r\\n]|\\\\.)*"';
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const ADDRESS = new RegExp(
  `^(?:${ATOM}(?:\\.${ATOM})*|${QUOTED})@(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9A-Fa-f:.]+\\])$`,
);

/** The longest address SMTP carries (RFC 5321 4.5.3.1.3). */
export const MAX_MAIL_ADDRESS_LENGTH = 254;

/** Whether `text` is one bare address (`taro@example.com`), without a display name. */
export function isAddrSpec(text: string): boolean {
  return text.length <= MAX_MAIL_ADDRESS_LENGTH && ADDRESS.test(text);
}
