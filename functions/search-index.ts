import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { settings } from '../lib/config/settings';
import { logger } from '../lib/log';
import { indexChanges, searchChangesOf } from '../lib/search/live-updates';
import { settleBatch } from '../lib/storage/stream-batch';

/** Tenants' changes are independent: this many tenants' changes are indexed at once. */
const CONCURRENCY = 4;

/**
 * The Items table's stream → the search index (lib/search/live-updates.ts), unless Search.CreateIndexes is
 * off. One unit per tenant, each run whatever another's outcome: a tenant whose changes fail is reported
 * (with what follows it in the stream, which is safe to repeat), never the batch as a whole.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  if (!settings().Search.CreateIndexes) return { batchItemFailures: [] };
  const units = [...searchChangesOf(event.Records)].map(([tenantId, changes]) => ({
    records: changes.records,
    label: { tenantId, items: changes.items.size },
    run: async () => {
      const { written } = await indexChanges(tenantId, changes);
      logger.info('search index updated', { tenantId, written, renamedSites: changes.renamedSites.size });
    },
  }));
  return settleBatch(event.Records, units, {
    concurrency: CONCURRENCY,
    runAll: true,
    onFailure: (error, unit) => logger.error('search index update failed', { ...unit.label, error }),
  });
}
