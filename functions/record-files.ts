import type { DynamoDBStreamEvent } from 'aws-lambda';
import { deletedRecordsOf, removeFilesOf } from '../lib/items/record-files';
import { logger } from '../lib/log';

/** The Items table's stream → the files of deleted records (lib/items/record-files.ts). */
export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  for (const record of deletedRecordsOf(event.Records)) {
    const removed = await removeFilesOf(record);
    logger.info('files of a deleted record removed', { recordId: record.recordId, removed });
  }
}
