import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { deletedRecordsOf, removeFilesOf } from '../lib/items/record-files';
import { logger } from '../lib/log';
import { settleBatch } from '../lib/storage/stream-batch';

/** The Items table's stream → the files of deleted records (lib/items/record-files.ts), record by record. */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const units = event.Records.flatMap((record) =>
    deletedRecordsOf([record]).map((deleted) => ({
      records: [record],
      label: { tenantId: deleted.tenantId, recordId: deleted.recordId },
      run: async () => {
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
