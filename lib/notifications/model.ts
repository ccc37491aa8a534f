import type { MailMessage } from '../mail/send';

/**
 * What a notification sends (CONTRACT 14, reference/pleasanter-export-import.md 5): a notice is one request
 * to one URL or one mail, built from a site's `SiteSettings.Notifications` entry (or a script's
 * `notifications` object) and a record's change. A delivery is a notice queued for sending, with its
 * attempts and outcome (lib/notifications/queue.ts).
 */

/** The reference's `Notification.Types`. */
export const NotificationType = {
  Mail: 1,
  Slack: 2,
  ChatWork: 3,
  Line: 4,
  LineGroup: 5,
  Teams: 6,
  RocketChat: 7,
  InCircle: 8,
  HttpClient: 9,
  LineWorks: 10,
} as const;
export type NotificationType = (typeof NotificationType)[keyof typeof NotificationType];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One request to one URL. `signed`: the HttpClient type, whose body Kiroku signs with the site's secret. */
export interface HttpNotice {
  readonly kind: 'http';
  readonly type: NotificationType;
  readonly url: string;
  readonly method: HttpMethod;
  /** Headers as given by the notification (ChatWork's token, Line's bearer, HttpClient's Headers). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent, already encoded as text; empty for a GET. */
  readonly body: string;
  /** The Content-Type header, charset included (`application/json; charset=utf-8`). */
  readonly contentType: string;
  readonly signed: boolean;
}

/** One mail: `[ColumnName]` and `[RelatedUsers]` are replaced already, `[User1]`-style tokens are left to sendMail. */
export interface MailNotice extends MailMessage {
  readonly kind: 'mail';
  readonly type: typeof NotificationType.Mail;
}

export type Notice = HttpNotice | MailNotice;

export type NoticeEvent = 'Created' | 'Updated' | 'Deleted' | 'Script';

/** Where notices come from: the same origin always gives the same delivery ids, so a redone batch adds none. */
export interface NoticeOrigin {
  readonly tenantId: number;
  readonly siteId: number;
  readonly recordId?: number;
  /** The site's notification (`Notification.Id`); absent for a script's own notification. */
  readonly notificationId?: number;
  readonly event: NoticeEvent;
  /**
   * What makes the origin unique and stable across retries: the stream record's eventID for a record's
   * change, a script run's id for a script.
   */
  readonly source: string;
  /** When the change happened (the stream record's creation time), as epoch milliseconds. */
  readonly at: number;
}

export type DeliveryStatus = 'Pending' | 'Retrying' | 'Delivered' | 'Failed' | 'Refused';
