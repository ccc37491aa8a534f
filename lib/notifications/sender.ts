import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { now } from '../clock';
import { logger } from '../log';
import { type Attempt, attemptNotice } from './deliver';
import type { DeliveryRow } from './queue';
import { enterFailureQueue, getDelivery, type Outcome, recordOutcome } from './repository';
import { nextAttemptAt } from './retries';
import { type SiteSecret, siteSecret } from './secrets';
import { scheduleWake } from './wakeups';

/**
 * The Deliveries stream's consumer (functions/deliveries.ts): a delivery row that enters Pending (queued:
 * an INSERT; woken for a retry or replayed: a MODIFY from another status) asks for an attempt. Its other
 * changes (the outcomes written here), the failure queue's entries, the wake-ups and the secrets ask for
 * nothing.
 */

export function attemptsAsked(
  records: readonly DynamoDBRecord[],
): { record: DynamoDBRecord; row: DeliveryRow }[] {
  return records.flatMap((record) => {
    const image = record.dynamodb?.NewImage;
    if (!image?.sk?.S?.startsWith('D#') || image.Status?.S !== 'Pending') return [];
    if (record.eventName === 'MODIFY' && record.dynamodb?.OldImage?.Status?.S === 'Pending') return [];
    return [{ record, row: unmarshall(image as Record<string, never>) as DeliveryRow }];
  });
}

/** The secrets of one batch's sites, each read once. */
export function secretsOfBatch(): (tenantId: number, siteId: number) => Promise<SiteSecret> {
  const known = new Map<string, Promise<SiteSecret>>();
  return (tenantId, siteId) => {
    const key = `${tenantId}#${siteId}`;
    let secret = known.get(key);
    if (!secret) {
      secret = siteSecret(tenantId, siteId);
      known.set(key, secret);
    }
    return secret;
  };
}

/**
 * One attempt at the delivery, unless the row has moved on since the stream saw it (a redone batch): its
 * outcome on the row, and for a retry its wake-up first, so that no row waits in Retrying without one.
 */
export async function deliver(
  seen: DeliveryRow,
  secrets: (tenantId: number, siteId: number) => Promise<SiteSecret>,
): Promise<void> {
  const row = await getDelivery(seen.TenantId, seen.SiteId, seen.DeliveryId);
  if (row?.Status !== 'Pending' || row.Attempts !== seen.Attempts || !row.Notice) return;
  const at = now();
  const attempt = await attemptNotice(row.Notice, {
    tenantId: row.TenantId,
    deliveryId: row.DeliveryId,
    secret: () => secrets(row.TenantId, row.SiteId),
  });
  const outcome = outcomeOf(row, attempt, at);
  if (outcome.status === 'Retrying' && outcome.nextAttemptAt)
    await scheduleWake(row, Date.parse(outcome.nextAttemptAt));
  if (outcome.status === 'Failed') await enterFailureQueue(row);
  const recorded = await recordOutcome(row, outcome);
  const log = outcome.status === 'Failed' ? logger.warn.bind(logger) : logger.info.bind(logger);
  log(recorded ? 'delivery attempted' : 'delivery attempted again, its first outcome kept', {
    tenantId: row.TenantId,
    siteId: row.SiteId,
    deliveryId: row.DeliveryId,
    attempt: row.Attempts + 1,
    status: outcome.status,
    responseStatus: outcome.responseStatus,
    reason: outcome.reason,
  });
}

function outcomeOf(row: DeliveryRow, attempt: Attempt, at: number): Outcome {
  const windowFrom = row.WindowFrom ?? new Date(at).toISOString();
  const base = {
    attemptedAt: new Date(at).toISOString(),
    windowFrom,
    ...('status' in attempt && attempt.status !== undefined && { responseStatus: attempt.status }),
  };
  switch (attempt.outcome) {
    case 'delivered':
      return { ...base, status: 'Delivered' };
    case 'refused':
      return { ...base, status: 'Refused', reason: attempt.reason };
    case 'failed':
      return { ...base, status: 'Failed', reason: `${attempt.reason} (not retried)` };
    case 'retry': {
      const next = nextAttemptAt(Date.parse(windowFrom), row.Attempts + 1, at);
      return next === undefined
        ? { ...base, status: 'Failed', reason: `${attempt.reason} (retried for 24 hours)` }
        : {
            ...base,
            status: 'Retrying',
            reason: attempt.reason,
            nextAttemptAt: new Date(next).toISOString(),
          };
    }
  }
}
