import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { queryAll } from '../storage/queries';
import { tableName } from '../storage/tables';
import type { DeliveryStatus } from './model';
import { type DeliveryRow, deliveryKeys } from './queue';

/**
 * The delivery rows' reads and state changes (lib/notifications/queue.ts has the row). Every change is
 * conditional on the state it starts from, so that a redone stream batch, two overlapping wake-up runs
 * or a replay racing an attempt leave one outcome, never a mix.
 */

export async function getDelivery(
  tenantId: number,
  siteId: number,
  deliveryId: string,
): Promise<DeliveryRow | undefined> {
  const found = await dynamo().send(
    new GetCommand({
      TableName: tableName('deliveries'),
      Key: { pk: deliveryKeys.site(tenantId, siteId), sk: deliveryKeys.delivery(deliveryId) },
      ConsistentRead: true,
    }),
  );
  return found.Item as DeliveryRow | undefined;
}

/** What an attempt changes on the row. */
export interface Outcome {
  readonly status: Exclude<DeliveryStatus, 'Pending'>;
  readonly attemptedAt: string;
  readonly windowFrom: string;
  readonly responseStatus?: number;
  readonly reason?: string;
  readonly nextAttemptAt?: string;
}

/**
 * Writes an attempt's outcome on a row that was Pending after `attempts` attempts; false when the row
 * had moved on meanwhile (the attempt was a repeat, and the first one's outcome stands).
 */
export async function recordOutcome(row: DeliveryRow, outcome: Outcome): Promise<boolean> {
  const set = ['#status = :status', 'Attempts = :attempts', 'LastAttemptAt = :at', 'WindowFrom = :from'];
  const remove: string[] = [];
  const values: Record<string, unknown> = {
    ':status': outcome.status,
    ':attempts': row.Attempts + 1,
    ':at': outcome.attemptedAt,
    ':from': outcome.windowFrom,
    ':pending': 'Pending',
    ':before': row.Attempts,
  };
  const optional = [
    ['ResponseStatus', outcome.responseStatus],
    ['Reason', outcome.reason],
    ['NextAttemptAt', outcome.nextAttemptAt],
  ] as const;
  for (const [name, value] of optional) {
    if (value === undefined) remove.push(name);
    else {
      set.push(`${name} = :${name}`);
      values[`:${name}`] = value;
    }
  }
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('deliveries'),
        Key: { pk: row.pk, sk: row.sk },
        UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: '#status = :pending AND Attempts = :before',
        ExpressionAttributeNames: { '#status': 'Status' },
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * The failure queue: an entry per Failed delivery in its site's partition (`F#<id>`), so that a replay of
 * "every Failed delivery" reads those and no other. Put before the row turns Failed, dropped by the replay.
 */
export async function enterFailureQueue(row: DeliveryRow): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: tableName('deliveries'),
      Item: {
        pk: row.pk,
        sk: deliveryKeys.failed(row.DeliveryId),
        DeliveryId: row.DeliveryId,
        TenantId: row.TenantId,
        SiteId: row.SiteId,
        ExpiresAt: row.ExpiresAt,
      },
    }),
  );
}

/** The ids in the site's failure queue, oldest first. */
export async function failedDeliveryIds(tenantId: number, siteId: number): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of queryAll({
    TableName: tableName('deliveries'),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :failed)',
    ExpressionAttributeValues: { ':pk': deliveryKeys.site(tenantId, siteId), ':failed': 'F#' },
    ProjectionExpression: 'DeliveryId',
  })) {
    ids.push(String(item.DeliveryId));
  }
  return ids;
}

/**
 * Asks for a new attempt of a Failed or Refused delivery, with a new 24 h window; leaves the failure
 * queue. False when the row was in neither state by then.
 */
export async function replayDelivery(row: DeliveryRow): Promise<boolean> {
  let replayed = false;
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('deliveries'),
        Key: { pk: row.pk, sk: row.sk },
        UpdateExpression: 'SET #status = :pending REMOVE WindowFrom, NextAttemptAt',
        ConditionExpression: '#status IN (:failed, :refused) AND attribute_exists(Notice)',
        ExpressionAttributeNames: { '#status': 'Status' },
        ExpressionAttributeValues: { ':pending': 'Pending', ':failed': 'Failed', ':refused': 'Refused' },
      }),
    );
    replayed = true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  // Also when the row was not Failed: an entry left by an attempt whose outcome went otherwise.
  await dynamo().send(
    new DeleteCommand({
      TableName: tableName('deliveries'),
      Key: { pk: row.pk, sk: deliveryKeys.failed(row.DeliveryId) },
    }),
  );
  return replayed;
}

export interface DeliveryPage {
  readonly rows: readonly DeliveryRow[];
  /** The sort key to go on after, when there is more. */
  readonly after?: string;
}

/**
 * A page of the site's deliveries, newest first, of one status or all. A status is a filter on the site's
 * partition, so a page reads at most `maxRead` rows and may come back short, with `after` to go on.
 */
export async function deliveryPage(
  tenantId: number,
  siteId: number,
  options: { status?: DeliveryStatus; after?: string; size: number; maxRead: number },
): Promise<DeliveryPage> {
  const pk = deliveryKeys.site(tenantId, siteId);
  // One more than a page: whether it exists says whether there is a next page.
  const wanted = options.size + 1;
  const rows: DeliveryRow[] = [];
  let start: Record<string, unknown> | undefined = options.after ? { pk, sk: options.after } : undefined;
  let read = 0;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: tableName('deliveries'),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :delivery)',
        ExpressionAttributeValues: {
          ':pk': pk,
          ':delivery': 'D#',
          ...(options.status && { ':status': options.status }),
        },
        ...(options.status && {
          FilterExpression: '#status = :status',
          ExpressionAttributeNames: { '#status': 'Status' },
        }),
        ScanIndexForward: false,
        ExclusiveStartKey: start,
        Limit: Math.min(options.maxRead - read, options.status ? 200 : wanted - rows.length),
      }),
    );
    read += page.ScannedCount ?? 0;
    rows.push(...((page.Items ?? []) as DeliveryRow[]).slice(0, wanted - rows.length));
    start = page.LastEvaluatedKey;
  } while (start && rows.length < wanted && read < options.maxRead);
  if (rows.length > options.size) {
    const kept = rows.slice(0, options.size);
    return { rows: kept, after: (kept[kept.length - 1] as DeliveryRow).sk };
  }
  return start ? { rows, after: String(start.sk) } : { rows };
}
