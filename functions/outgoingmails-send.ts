import { endpoint } from '../lib/http/api';
import { apiResult } from '../lib/http/response';
import { mailTarget } from '../lib/items/mail-target';
import { sendOutgoingMail } from '../lib/mail/outgoing';
import { outgoingmailsSend } from '../lib/routes/mail';

export const handler = endpoint(outgoingmailsSend, async ({ input, principal, pathId }) => {
  const target = await mailTarget(principal, pathId);
  return apiResult(await sendOutgoingMail(principal, target, input));
});
