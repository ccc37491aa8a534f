import { createHash } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../storage/clients';
import { tableName } from '../storage/tables';
import type { DeliveryStatus, Notice, NoticeOrigin, NotificationType } from './model';

/**
 * The deliveries table (lib/storage/tables.ts `deliveries`): one row per notice, under its site, sorted by
 * time. Queueing is idempotent: a delivery's id comes from its origin and its place among the origin's
 * notices, so a stream batch that is redone puts the same rows again, and the condition drops them.
 */

/** How long a delivery's row stays readable (its outcome in the site's list of deliveries). */
export const DELIVERY_KEPT_DAYS = 30;
/** A notice bigger than this is kept as refused, without its body: DynamoDB takes 400 KB per item. */
export const MAX_NOTICE_BYTES = 256 * 1024;

/**
 * A site's partition holds its deliveries (`D#<id>`, newest last), its failure queue (`F#<id>`, one entry
 * per Failed delivery, lib/notifications/failures.ts) and its signing secret (`SECRET`). The retries' clock
 * keeps its own partitions, one per minute (lib/notifications/wakeups.ts).
 */
export const deliveryKeys = {
  site: (tenantId: number, siteId: number) => `T#${tenantId}#S#${siteId}`,
  delivery: (deliveryId: string) => `D#${deliveryId}`,
  failed: (deliveryId: string) => `F#${deliveryId}`,
  secret: 'SECRET',
};

export interface DeliveryRow {
  readonly pk: string;
  readonly sk: string;
  /** Time-ordered and stable: `<UTC yyyymmddhhmmssSSS>-<20 hex digits>`; sent as the delivery id header. */
  readonly DeliveryId: string;
  readonly TenantId: number;
  readonly SiteId: number;
  readonly RecordId?: number;
  readonly NotificationId?: number;
  readonly Event: NoticeOrigin['event'];
  readonly Notice?: Notice;
  /** The notice's type and where it goes (its URL without the query string, or the mail's To). */
  readonly Type: NotificationType;
  readonly Target: string;
  /**
   * Pending: an attempt is asked for (queued, woken for a retry, or replayed); Retrying: one failed and
   * the next is due at NextAttemptAt; Delivered; Failed: the retries are spent (in the failure queue);
   * Refused: never to be sent as it is (a private address, a notice too large).
   */
  readonly Status: DeliveryStatus;
  readonly Attempts: number;
  /** ISO time of the change that made it. */
  readonly CreatedAt: string;
  /** ISO times: the first attempt of the current 24 h retry window (a replay starts a new one), the last, the next. */
  readonly WindowFrom?: string;
  readonly LastAttemptAt?: string;
  readonly NextAttemptAt?: string;
  /** The receiver's HTTP status at the last attempt. */
  readonly ResponseStatus?: number;
  /** Why it was refused or failed, for the site's managers. */
  readonly Reason?: string;
  /** Epoch seconds: DynamoDB's TTL removes the row then. */
  readonly ExpiresAt: number;
}

export function deliveryId(origin: NoticeOrigin, index: number): string {
  const time = new Date(origin.at).toISOString().replace(/\D/g, '').slice(0, 17);
  const hash = createHash('sha256')
    .update(
      `${origin.tenantId}\n${origin.siteId}\n${origin.source}\n${origin.notificationId ?? ''}\n${index}`,
    )
    .digest('hex')
    .slice(0, 20);
  return `${time}-${hash}`;
}

/** The rows for an origin's notices, in order. */
export function deliveryRows(origin: NoticeOrigin, notices: readonly Notice[]): DeliveryRow[] {
  return notices.map((notice, index) => {
    const id = deliveryId(origin, index);
    const base = {
      pk: deliveryKeys.site(origin.tenantId, origin.siteId),
      sk: deliveryKeys.delivery(id),
      DeliveryId: id,
      TenantId: origin.tenantId,
      SiteId: origin.siteId,
      ...(origin.recordId === undefined ? {} : { RecordId: origin.recordId }),
      ...(origin.notificationId === undefined ? {} : { NotificationId: origin.notificationId }),
      Event: origin.event,
      Type: notice.type,
      Target: targetOf(notice),
      Attempts: 0,
      CreatedAt: new Date(origin.at).toISOString(),
      ExpiresAt: Math.floor(origin.at / 1000) + DELIVERY_KEPT_DAYS * 86_400,
    };
    const size = Buffer.byteLength(JSON.stringify(notice));
    return size > MAX_NOTICE_BYTES
      ? { ...base, Status: 'Refused', Reason: `the notice is ${size} bytes, more than ${MAX_NOTICE_BYTES}` }
      : { ...base, Notice: notice, Status: 'Pending' };
  });
}

/** Where a notice goes, as the site's managers see it: a URL's query string may hold a token, so it is left out. */
export function targetOf(notice: Notice): string {
  if (notice.kind === 'mail') return notice.to.join(', ');
  try {
    const url = new URL(notice.url);
    return `${url.origin}${url.pathname}`;
  } catch {
    return notice.url.split('?')[0] ?? '';
  }
}

/** Queues the notices; a row already queued (a redone batch) is left as it is. */
export async function enqueueNotices(origin: NoticeOrigin, notices: readonly Notice[]): Promise<void> {
  await Promise.all(
    deliveryRows(origin, notices).map(async (row) => {
      try {
        await dynamo().send(
          new PutCommand({
            TableName: tableName('deliveries'),
            Item: row,
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      }
    }),
  );
}
