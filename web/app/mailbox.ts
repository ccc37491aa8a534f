import { ApiFailure, post } from './api';

/**
 * The local mailbox (CONTRACT 14): the mail `npm start`'s SMTP server received, read by privileged users
 * through `api/mailbox/get`, 20 a page, newest first. Who is privileged is the server's setting
 * (`Security.PrivilegedUsers`), which the user row does not show, so the page asks the mailbox itself
 * once per login: a 403 means not privileged; a 404 (no local mailbox: mail goes through SES) still shows
 * the page, which says so.
 */

export interface Mail {
  readonly Id: string;
  readonly Date: string;
  readonly From: string;
  readonly To: readonly string[];
  readonly Cc: readonly string[];
  readonly Subject: string;
  readonly Text: string;
}

export interface MailPage {
  readonly mails: readonly Mail[];
  readonly totalCount: number;
}

export const MAILS_PER_PAGE = 20;

export async function readMailbox(offset = 0): Promise<MailPage> {
  const answer = await post<{ Response: { Mails: Mail[]; TotalCount: number } }>('api/mailbox/get', {
    ...(offset > 0 && { Offset: offset }),
  });
  return { mails: answer.Response.Mails, totalCount: answer.Response.TotalCount };
}

/** Whether the logged-in user may open the mailbox page (asked once per user id). */
const asked = new Map<number, Promise<boolean>>();

export function mayReadMailbox(userId: number): Promise<boolean> {
  let answer = asked.get(userId);
  if (!answer) {
    answer = readMailbox().then(
      () => true,
      (failure) => failure instanceof ApiFailure && failure.statusCode === 404,
    );
    asked.set(userId, answer);
  }
  return answer;
}
