import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { purgeLeftovers, removedRecordsOf } from '../lib/items/record-files';
import { logger } from '../lib/log';
import { settleBatch } from '../lib/storage/stream-batch';

/**
 * The recycle bin's stream → the files and history of records gone for good (lib/items/record-files.ts):
 * an entry removed by the TTL (Deletion.RetentionDays) or a purge. A restore removes the entry too; the
 * record is then current again and keeps everything.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const units = event.Records.flatMap((record) =>
    removedRecordsOf([record]).map((removed) => ({
      records: [record],
      label: { tenantId: removed.tenantId, recordId: removed.recordId },
      run: async () => {
        const purged = await purgeLeftovers(removed);
        logger.info('recycle bin entry gone', { recordId: removed.recordId, ...purged });
      },
    })),
  );
  return settleBatch(event.Records, units, {
    onFailure: (error, unit) =>
      logger.error('removing what a purged record left failed', { ...unit.label, error }),
  });
}
