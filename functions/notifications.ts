import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../lib/log';
import { Lookups } from '../lib/notifications/notice-lookups';
import { enqueueNotices } from '../lib/notifications/queue';
import { noticesOfChange, recordChangesOf } from '../lib/notifications/record-notices';
import { settleBatch } from '../lib/storage/stream-batch';

/**
 * The Items table's stream → the site notifications of records' changes (lib/notifications), queued in the
 * Deliveries table; the Deliveries stream sends them. Record by record, in order: queueing is idempotent,
 * so a redone batch queues nothing twice.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const lookups = new Lookups();
  const units = recordChangesOf(event.Records).map((change) => ({
    records: [change.record],
    label: {
      tenantId: change.tenantId,
      siteId: change.siteId,
      recordId: change.recordId,
      event: change.event,
    },
    run: async () => {
      for (const { origin, notices } of await noticesOfChange(change, lookups)) {
        await enqueueNotices(origin, notices);
      }
    },
  }));
  return settleBatch(event.Records, units, {
    onFailure: (error, unit) =>
      logger.error('queueing the notifications of a record failed', { ...unit.label, error }),
  });
}
