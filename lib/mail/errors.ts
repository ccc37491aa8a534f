import { ApiError } from '../errors';

/**
 * What can go wrong with a mail, each with the reference's text where it has one (OutgoingMailValidators,
 * MailAddressValidators). The reference answers a caller's bad address with 500; Kiroku answers 400, as
 * CONTRACT section 1 treats every caller's mistake. The delivery of Mail notifications tells them apart:
 * a MailAddressError or NoMailAddressError is permanent, a MailServiceError may pass on a retry.
 */

export const mailMessages = {
  requireMailAddresses: 'Add at least one email address.',
  badMailAddress: (address: string) => `Invalid email address.[${address}]`,
  sent: 'Email has been sent.',
  // Kiroku's own: the reference answers 200 before it sends, and has no such failures to tell.
  notSent: (reason: string) => `The mail could not be sent: ${reason}`,
  noMailService: 'No mail service is configured: set Mail.SmtpHost (or deploy with an SES identity).',
  noSender: 'No sender: the mail names none, the caller has no mail address and Mail.From is not set.',
  noMailbox: 'There is no local mailbox here: mail goes through the mail service (SES in AWS).',
} as const;

/** An address that does not parse; the message names it. */
export class MailAddressError extends ApiError {
  override name = 'MailAddressError';
  constructor(
    readonly address: string,
    property?: string,
  ) {
    super(
      400,
      mailMessages.badMailAddress(address),
      `bad mail address ${JSON.stringify(address)}`,
      undefined,
      [{ Property: property, Problem: `not a mail address: ${address}` }],
    );
  }
}

/** To, Cc and Bcc are empty (or their tokens name nobody with an address). */
export class NoMailAddressError extends ApiError {
  override name = 'NoMailAddressError';
  constructor(reason = 'To, Cc and Bcc are empty') {
    super(400, mailMessages.requireMailAddresses, reason, undefined, [{ Problem: reason }]);
  }
}

/** The mail service refused the mail or could not be reached: 502, naming why. */
export class MailServiceError extends ApiError {
  override name = 'MailServiceError';
  constructor(reason: string) {
    super(502, mailMessages.notSent(reason), reason);
  }
}

/** Neither SES nor an SMTP host is configured: 503. */
export class MailNotConfiguredError extends ApiError {
  override name = 'MailNotConfiguredError';
  constructor() {
    super(503, mailMessages.noMailService, 'no Mail.SmtpHost and no SES identity');
  }
}

/** A mail without a sender where `Mail.From` is not set either: 503, as the service is not set up. */
export class NoSenderError extends ApiError {
  override name = 'NoSenderError';
  constructor() {
    super(503, mailMessages.noSender, 'no From and no Mail.From');
  }
}

/** `mailbox/get` where no local SMTP server keeps mail (in AWS). */
export class NoMailboxError extends ApiError {
  override name = 'NoMailboxError';
  constructor() {
    super(404, mailMessages.noMailbox, 'KIROKU_MAILBOX_DIR is not set');
  }
}
