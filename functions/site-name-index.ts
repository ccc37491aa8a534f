import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../lib/log';
import { markIndexStale } from '../lib/sites/index-store';
import { tenantChangesOf, updateTenantIndex } from '../lib/sites/index-updater';
import { settleBatch } from '../lib/storage/stream-batch';

/**
 * The Items table's stream → each changed tenant's site-name index (lib/sites/index-updater.ts). A tenant
 * whose update fails is marked stale, so that its next update rebuilds whether this batch is retried or
 * dropped, and it and what follows it are reported for retry.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const units = tenantChangesOf(event.Records).map(({ tenantId, records, changes }) => ({
    records,
    label: { tenantId, changes: changes.length },
    run: async () => {
      const { version, rebuilt } = await updateTenantIndex(tenantId, changes);
      logger.info('site-name index updated', { tenantId, changes: changes.length, version, rebuilt });
    },
    recover: () => markIndexStale(tenantId),
  }));
  return settleBatch(event.Records, units, {
    onFailure: (error, unit) => logger.error('site-name index update failed', { ...unit.label, error }),
  });
}
