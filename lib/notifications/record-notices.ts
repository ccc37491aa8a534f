import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { ItemRecord } from '../items/model';
import { itemTitleOf } from '../items/model';
import { toRecord } from '../items/record-repository';
import { logger } from '../log';
import { messages } from '../messages';
import { type NotificationSetting, notificationsOf } from '../sites/notification-settings';
import { type NoticeContext, noticeBody, replaced } from './format';
import type { Notice, NoticeOrigin } from './model';
import { Lookups } from './notice-lookups';
import { noticesOf } from './payloads';
import { ConditionNotApplicable, fires, type RecordChange } from './triggers';
import { noticeValue } from './values';

/**
 * The Items stream → the notices of records' changes (functions/notifications.ts). Only items of Kind
 * `record` count: a record that appears is Created, one that changes Updated, one that goes (or becomes
 * another kind) Deleted. Each firing notification gives one origin, so a redone batch queues nothing new.
 */

export interface StreamChange extends RecordChange {
  readonly tenantId: number;
  readonly siteId: number;
  readonly recordId: number;
  /** The stream record's eventID: the origin's source. */
  readonly source: string;
  /** When it happened, epoch ms: the record's UpdatedAt, or the stream's time when that is later. */
  readonly at: number;
  readonly record: DynamoDBRecord;
}

export interface QueuedNotices {
  readonly origin: NoticeOrigin;
  readonly notices: readonly Notice[];
}

export function recordChangesOf(records: readonly DynamoDBRecord[]): StreamChange[] {
  const changes: StreamChange[] = [];
  for (const record of records) {
    const old = image(record.dynamodb?.OldImage);
    const now = image(record.dynamodb?.NewImage);
    const before = old?.Kind === 'record' ? toRecord(old) : undefined;
    const after = now?.Kind === 'record' ? toRecord(now) : undefined;
    const item = after ?? before;
    if (!item) continue;
    // A record restored from the recycle bin (lib/items/recycle-bin.ts) was not created: no notice.
    if (!before && now?.Restored === true) continue;
    const event = before && after ? 'Updated' : after ? 'Created' : 'Deleted';
    // The record's own UpdatedAt orders its changes to the millisecond, where the stream's time is to the
    // second; a deletion, which writes no time, comes after the last change it removes.
    const seconds = record.dynamodb?.ApproximateCreationDateTime;
    const streamAt = seconds === undefined ? 0 : Math.round(seconds * 1000);
    const changedAt = after ? after.updatedAt : item.updatedAt + 1;
    changes.push({
      event,
      ...(before && { before }),
      ...(after && { after }),
      tenantId: item.tenantId,
      siteId: item.siteId,
      recordId: item.recordId,
      source: record.eventID ?? `${record.dynamodb?.SequenceNumber}`,
      at: Math.max(streamAt, changedAt),
      record,
    });
  }
  return changes;
}

/** The notices of one change; the site's settings are read as they are now. */
export async function noticesOfChange(
  change: StreamChange,
  lookups = new Lookups(),
): Promise<QueuedNotices[]> {
  const site = await lookups.site(change.tenantId, change.siteId);
  if (!site) return [];
  const notifications = notificationsOf(site.siteSettings);
  if (notifications.length === 0) return [];
  const record = (change.after ?? change.before) as ItemRecord;
  const context = await lookups.context(site, record);
  const conditions = { userId: record.updator, zone: context.zone, now: change.at };
  const queued: QueuedNotices[] = [];
  for (const notification of notifications) {
    let firing: boolean;
    try {
      firing = fires(notification, change, { ...context, ...conditions });
    } catch (error) {
      if (!(error instanceof ConditionNotApplicable)) throw error;
      logger.warn('a notification condition cannot be applied: nothing sent', {
        siteId: site.siteId,
        notificationId: notification.Id,
        reason: error.message,
      });
      continue;
    }
    if (!firing) continue;
    queued.push({
      origin: {
        tenantId: change.tenantId,
        siteId: change.siteId,
        recordId: change.recordId,
        notificationId: notification.Id,
        event: change.event,
        source: change.source,
        at: change.at,
      },
      notices: recordNotices(notification, change, record, context),
    });
  }
  return queued;
}

function recordNotices(
  notification: NotificationSetting,
  change: RecordChange,
  record: ItemRecord,
  context: NoticeContext,
): Notice[] {
  const title = notification.Subject
    ? replaced(notification.Subject, record, context)
    : eventTitle(change.event, itemTitleOf(record));
  const body = noticeBody(
    notification,
    record,
    change.event === 'Updated' ? change.before : undefined,
    context,
  );
  const addresses = (text: string | undefined) => mailAddresses(text, record, context);
  return noticesOf(notification, {
    title,
    body,
    userName: context.user.name,
    to: addresses(notification.Address),
    cc: addresses(notification.CcAddress),
    bcc: addresses(notification.BccAddress),
  });
}

function eventTitle(event: RecordChange['event'], title: string): string {
  if (event === 'Created') return messages.created(title);
  return event === 'Updated' ? messages.updated(title) : messages.deleted(title);
}

/**
 * A Mail notification's addresses: `[RelatedUsers]` (creator, updator, manager, owner) and a user column's
 * `[ColumnName]` become `[UserN]` tokens that sendMail expands; another column's `[ColumnName]` its text.
 */
export function mailAddresses(text: string | undefined, record: ItemRecord, context: NoticeContext): string {
  if (!text) return '';
  const users = (ids: readonly (number | undefined)[]) =>
    [...new Set(ids.filter((id): id is number => id !== undefined && id > 0))].map((id) => `[User${id}]`);
  return text
    .replaceAll(
      '[RelatedUsers]',
      users([record.creator, record.updator, record.manager, record.owner]).join(';'),
    )
    .replace(/\[([A-Za-z]+)\]/g, (whole, name: string) => {
      const column = context.columns.byName.get(name);
      if (!column) return whole;
      if (column.kind === 'user') {
        const id = Number(noticeRaw(column.columnName, record));
        return users([id]).join(';');
      }
      return noticeValue(column, record, context);
    });
}

function noticeRaw(name: string, record: ItemRecord): unknown {
  const built: Record<string, unknown> = {
    Manager: record.manager,
    Owner: record.owner,
    Creator: record.creator,
    Updator: record.updator,
  };
  return built[name];
}

function image(value: Record<string, AttributeValue> | undefined): Record<string, unknown> | undefined {
  return value ? unmarshall(value as Record<string, SdkAttributeValue>) : undefined;
}
