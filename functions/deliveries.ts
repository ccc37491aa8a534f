import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../lib/log';
import { attemptsAsked, deliver, secretsOfBatch } from '../lib/notifications/sender';
import { settleBatch } from '../lib/storage/stream-batch';

/**
 * The Deliveries table's stream → an attempt at each delivery that asks for one (lib/notifications/sender.ts),
 * all of a batch at once: each attempt is bounded (10 s), so a hanging receiver holds its batch that long
 * and no longer, and never holds another site's (parallelization in lib/streams.ts).
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const secrets = secretsOfBatch();
  const units = attemptsAsked(event.Records).map(({ record, row }) => ({
    records: [record],
    label: { tenantId: row.TenantId, siteId: row.SiteId, deliveryId: row.DeliveryId },
    run: () => deliver(row, secrets),
  }));
  return settleBatch(event.Records, units, {
    concurrency: Math.max(1, units.length),
    runAll: true,
    onFailure: (error, unit) => logger.error('a delivery could not be attempted', { ...unit.label, error }),
  });
}
