import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { queryAll } from '../storage/queries';
import { tableName } from '../storage/tables';

/**
 * The retries' clock. DynamoDB has no delayed events, so a delivery that waits for its next attempt leaves
 * a wake-up entry in the Deliveries table, in a partition per minute of its due time (`W#<yyyymmddhhmm>`,
 * sorted by due time). A scheduled function (lib/schedules.ts, every minute) reads the minutes up to now,
 * and for each entry due puts its delivery back to Pending, which the Deliveries stream turns into the
 * attempt (lib/notifications/sender.ts); then it drops the entry. Nothing scans: each pass queries the
 * minutes since the last one it finished (a cursor row), normally one or two partitions. Within its
 * minute a run looks again every POLL_MS, so that a 10 s retry is not a minute late.
 *
 * An entry whose delivery has moved on (replayed, or attempted by a redone batch) fails the wake's
 * condition and is dropped alone: waking is safe to repeat, and two runs that overlap do no harm.
 */

export const POLL_MS = 5_000;
/** A first pass (no cursor yet) looks this far back; then each pass resumes from the cursor. */
const FIRST_LOOK_BACK_MINUTES = 60;
/** At most this many minutes a pass, so a long outage is caught up over several passes. */
const MAX_MINUTES_A_PASS = 24 * 60;
const CONCURRENCY = 16;
const ENTRY_KEPT_DAYS = 7;

const cursorKey = { pk: 'W#CURSOR', sk: 'W#CURSOR' };

const minuteOf = (at: number) => Math.floor(at / 60_000);
const bucketKey = (minute: number) =>
  `W#${new Date(minute * 60_000).toISOString().replace(/\D/g, '').slice(0, 12)}`;

export interface WakeTarget {
  /** The delivery row's key. */
  readonly pk: string;
  readonly sk: string;
}

/** Asks for another attempt of the delivery at `dueAt` (epoch ms); `NextAttemptAt` on its row must say the same. */
export async function scheduleWake(target: WakeTarget, dueAt: number): Promise<void> {
  const due = new Date(dueAt).toISOString();
  await dynamo().send(
    new PutCommand({
      TableName: tableName('deliveries'),
      Item: {
        pk: bucketKey(minuteOf(dueAt)),
        sk: `${due}#${target.pk}#${target.sk}`,
        DeliveryPk: target.pk,
        DeliverySk: target.sk,
        NextAttemptAt: due,
        ExpiresAt: Math.floor(dueAt / 1000) + ENTRY_KEPT_DAYS * 86_400,
      },
    }),
  );
}

/** One pass: wakes every delivery due by now. Answers how many it woke. */
export async function wakeDue(): Promise<number> {
  const at = now();
  const current = minuteOf(at);
  const cursor = await readCursor();
  const from = cursor === undefined ? current - FIRST_LOOK_BACK_MINUTES : cursor + 1;
  const to = Math.min(current, from + MAX_MINUTES_A_PASS - 1);
  const minutes = Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
  let woken = 0;
  for (let start = 0; start < minutes.length; start += CONCURRENCY) {
    const counts = await Promise.all(
      minutes.slice(start, start + CONCURRENCY).map((minute) => wakeMinute(minute, at)),
    );
    woken += counts.reduce((sum, count) => sum + count, 0);
  }
  // Every entry of a past minute was due and is woken now; the current minute may still get entries.
  const done = Math.min(to, current - 1);
  if (cursor === undefined || done > cursor) await writeCursor(done);
  return woken;
}

/** Passes until `until` (epoch ms), one every POLL_MS: a scheduled run's minute. */
export async function runWakeups(until: number): Promise<number> {
  let woken = await wakeDue();
  for (let rest = until - now(); rest > 0; rest = until - now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, rest)));
    woken += await wakeDue();
  }
  return woken;
}

async function wakeMinute(minute: number, at: number): Promise<number> {
  const entries = queryAll({
    TableName: tableName('deliveries'),
    KeyConditionExpression: 'pk = :bucket AND sk < :bound',
    ExpressionAttributeValues: { ':bucket': bucketKey(minute), ':bound': new Date(at + 1).toISOString() },
  });
  const woken: Promise<boolean>[] = [];
  for await (const entry of entries) woken.push(wake(entry));
  return (await Promise.all(woken)).filter(Boolean).length;
}

async function wake(entry: Record<string, unknown>): Promise<boolean> {
  let woken = true;
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('deliveries'),
        Key: { pk: entry.DeliveryPk, sk: entry.DeliverySk },
        UpdateExpression: 'SET #status = :pending REMOVE NextAttemptAt',
        ConditionExpression: '#status = :retrying AND NextAttemptAt = :due',
        ExpressionAttributeNames: { '#status': 'Status' },
        ExpressionAttributeValues: {
          ':pending': 'Pending',
          ':retrying': 'Retrying',
          ':due': entry.NextAttemptAt,
        },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    woken = false;
  }
  await dynamo().send(
    new DeleteCommand({ TableName: tableName('deliveries'), Key: { pk: entry.pk, sk: entry.sk } }),
  );
  return woken;
}

async function readCursor(): Promise<number | undefined> {
  const found = await dynamo().send(
    new GetCommand({ TableName: tableName('deliveries'), Key: cursorKey, ConsistentRead: true }),
  );
  return typeof found.Item?.Minute === 'number' ? found.Item.Minute : undefined;
}

async function writeCursor(minute: number): Promise<void> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('deliveries'),
        Item: { ...cursorKey, Minute: minute },
        // Overlapping runs: the cursor only moves on.
        ConditionExpression: 'attribute_not_exists(pk) OR #minute < :minute',
        ExpressionAttributeNames: { '#minute': 'Minute' },
        ExpressionAttributeValues: { ':minute': minute },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
