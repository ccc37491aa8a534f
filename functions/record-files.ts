import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { deletedRecordsOf, goneForGood, removeFilesOf } from '../lib/items/record-files';
import { logger } from '../lib/log';
import { settleBatch } from '../lib/storage/stream-batch';

/**
 * The Items table's stream → the files of records removed without passing through the recycle bin
 * (lib/items/record-files.ts), record by record; a record in the bin or current again keeps its files.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const units = event.Records.flatMap((record) =>
    deletedRecordsOf([record]).map((deleted) => ({
      records: [record],
      label: { tenantId: deleted.tenantId, recordId: deleted.recordId },
      run: async () => {
        if (!(await goneForGood(deleted))) return;
        const removed = await removeFilesOf(deleted);
        logger.info('files of a deleted record removed', { recordId: deleted.recordId, removed });
      },
    })),
  );
  return settleBatch(event.Records, units, {
    onFailure: (error, unit) =>
      logger.error('removing the files of a record failed', { ...unit.label, error }),
  });
}
