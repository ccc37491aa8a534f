import { randomUUID } from 'node:crypto';
import { logger } from '../log';
import { notificationsOf } from '../sites/notification-settings';
import type { NoticeOrigin } from './model';
import { noticesOf } from './payloads';
import { enqueueNotices } from './queue';

/**
 * A server script's `notifications.New()…Send()` (reference/pleasanter-script-objects.md): sent as the
 * reference's Send does with the script's Title and Body, through the same queue as a site's notices.
 * Each run has its own id, and each call its place in the run, so every Send is a delivery of its own.
 */

export interface ScriptSendOrigin {
  readonly tenantId: number;
  readonly siteId: number;
  readonly recordId?: number;
  /** The acting user's name, as Slack and RocketChat show the sender. */
  readonly userName: string;
}

/** A fresh id for a script run, the first part of its sends' sources. */
export function scriptRunId(): string {
  return randomUUID();
}

export async function queueScriptSends(
  origin: ScriptSendOrigin,
  runId: string,
  sends: readonly Readonly<Record<string, unknown>>[],
): Promise<void> {
  const at = Date.now();
  for (const [index, send] of sends.entries()) {
    const [notification] = notificationsOf({ Notifications: [send] });
    if (!notification) continue;
    const text = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : String(value));
    const notices = noticesOf(notification, {
      title: text(send.Title),
      body: text(send.Body),
      userName: origin.userName,
    });
    if (notices.length === 0) {
      logger.warn('a script notification sends nothing', { siteId: origin.siteId, type: notification.Type });
      continue;
    }
    const id = Number(notification.Id);
    const queued: NoticeOrigin = {
      tenantId: origin.tenantId,
      siteId: origin.siteId,
      ...(origin.recordId !== undefined && { recordId: origin.recordId }),
      ...(Number.isSafeInteger(id) && id > 0 && { notificationId: id }),
      event: 'Script',
      source: `script:${runId}:${index}`,
      at,
    };
    await enqueueNotices(queued, notices);
  }
}
