import { endpoint } from '../lib/http/api';
import { responseResult } from '../lib/http/response';
import { readMailbox } from '../lib/mail/mailbox';
import { mailboxGet } from '../lib/routes/mail';

export const handler = endpoint(mailboxGet, async ({ input, principal }) => {
  const { mails, totalCount } = await readMailbox(principal, input.Offset ?? 0);
  // The envelope's recipients are the server's to know; the answer keeps the reference-like headers.
  const Mails = mails.map(({ Recipients: _recipients, ...mail }) => mail);
  return responseResult({ Mails, TotalCount: totalCount });
});
