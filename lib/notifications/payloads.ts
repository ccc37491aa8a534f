import { headersOf, type NotificationSetting } from '../sites/notification-settings';
import { type HttpMethod, type HttpNotice, type Notice, NotificationType } from './model';

/**
 * The request or mail each type makes of a message (reference/pleasanter-export-import.md 5, the table;
 * Notification.Send and Libraries/DataSources/*.cs): the title is the event's (`"x" has been updated.`) or
 * a script's Title, the body the formatted notice. Line, LineGroup and LineWorks give nothing: the
 * settings check refuses them, so only an entry stored before that check could still name them.
 */

export interface NoticeMessage {
  readonly title: string;
  readonly body: string;
  /** Who sent it, as Slack and RocketChat show it (`username`). */
  readonly userName: string;
  /** Mail: the addresses with `[ColumnName]` and `[RelatedUsers]` already replaced. */
  readonly to?: string;
  readonly cc?: string;
  readonly bcc?: string;
}

const JSON_UTF8 = 'application/json; charset=utf-8';
const FORM_UTF8 = 'application/x-www-form-urlencoded; charset=utf-8';
const METHODS: Readonly<Record<number, HttpMethod>> = { 1: 'GET', 2: 'POST', 3: 'PUT', 4: 'DELETE' };

/** The notices of one notification for one message, in the order they are sent. */
export function noticesOf(notification: NotificationSetting, message: NoticeMessage): Notice[] {
  const prefix = notification.Prefix ?? '';
  const address = (notification.Address ?? '').trim();
  const text = `*${prefix}${message.title}*\n${message.body}`;
  const post = (url: string, body: string, contentType: string, headers = {}): HttpNotice => ({
    kind: 'http',
    type: notification.Type as NotificationType,
    url,
    method: 'POST',
    headers,
    body,
    contentType,
    signed: false,
  });
  switch (notification.Type) {
    case NotificationType.Mail: {
      const to = addressList(message.to ?? notification.Address);
      if (to.length === 0) return [];
      return [
        {
          kind: 'mail',
          type: NotificationType.Mail,
          to,
          cc: addressList(message.cc ?? notification.CcAddress),
          bcc: addressList(message.bcc ?? notification.BccAddress),
          subject: `${prefix}${message.title}`,
          body: message.body,
        },
      ];
    }
    case NotificationType.Slack:
    case NotificationType.RocketChat:
      return [post(address, JSON.stringify({ text, username: message.userName }), JSON_UTF8)];
    case NotificationType.Teams:
      return address
        .split(',')
        .map((url) => url.trim())
        .filter((url) => url !== '')
        .map((url) => post(url, JSON.stringify({ text }), JSON_UTF8));
    case NotificationType.ChatWork:
      return [
        post(address, new URLSearchParams({ body: text }).toString(), FORM_UTF8, {
          'X-ChatWorkToken': notification.Token ?? '',
        }),
      ];
    case NotificationType.InCircle: {
      // The Token is `ticketno:token_id` (InCircle.cs).
      const [ticketno = '', tokenId = ''] = (notification.Token ?? '').split(':');
      const form = new URLSearchParams({ token_id: tokenId, ticketno, action: '1', text });
      return [post(address, form.toString(), FORM_UTF8)];
    }
    case NotificationType.HttpClient:
      return [httpClientNotice(notification, address, message.body)];
    default:
      return [];
  }
}

/** HttpClient: MethodType (none stored: GET), the body alone as `Encoding` text of `MediaType`, signed. */
function httpClientNotice(notification: NotificationSetting, url: string, body: string): HttpNotice {
  const method = METHODS[notification.MethodType ?? 1] ?? 'GET';
  const mediaType = notification.MediaType || 'application/json';
  const charset = notification.Encoding || 'utf-8';
  return {
    kind: 'http',
    type: NotificationType.HttpClient,
    url,
    method,
    headers: headersOf(notification.Headers) ?? {},
    body: method === 'GET' ? '' : body,
    contentType: `${mediaType}; charset=${charset}`,
    signed: true,
  };
}

/** An address list split on `,`, `;` or a newline outside quotes (reference 5, Addresses). */
export function addressList(text: string | undefined): string[] {
  const addresses: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of text ?? '') {
    if (char === '"') quoted = !quoted;
    if (!quoted && (char === ',' || char === ';' || char === '\n' || char === '\r')) {
      addresses.push(current);
      current = '';
    } else current += char;
  }
  addresses.push(current);
  return addresses.map((address) => address.trim()).filter((address) => address !== '');
}
