import type { DynamoDBStreamEvent } from 'aws-lambda';
import { deletedRecordsOf, removeFilesOf } from '../lib/binaries/record-files';
import { logger } from '../lib/http/logger';

/** The Items table's stream → the files of deleted records (lib/binaries/record-files.ts). */
export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  for (const record of deletedRecordsOf(event.Records)) {
    const removed = await removeFilesOf(record);
    logger.info('files of a deleted record removed', { recordId: record.recordId, removed });
  }
}
