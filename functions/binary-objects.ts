import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { cleanupOf } from '../lib/files/cleanup';
import { abortMultipart, deleteObjects } from '../lib/files/object-store';
import { logger } from '../lib/log';
import { settleBatch } from '../lib/storage/stream-batch';

/** Deletes of different keys do not depend on each other: this many records' objects go at once. */
const CONCURRENCY = 8;

/** The Binaries table's stream → the S3 objects and multipart uploads nothing points at any more. */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const units = event.Records.flatMap((record) => {
    const { objects, multipartUploads } = cleanupOf([record]);
    if (objects.length + multipartUploads.length === 0) return [];
    return [
      {
        records: [record],
        label: { objects, multipartUploads: multipartUploads.length },
        run: async () => {
          for (const upload of multipartUploads) await abortMultipart(upload.key, upload.uploadId);
          await deleteObjects(objects, { strict: true });
          logger.info('binary objects removed', {
            objects: objects.length,
            multipartUploads: multipartUploads.length,
          });
        },
      },
    ];
  });
  return settleBatch(event.Records, units, {
    concurrency: CONCURRENCY,
    onFailure: (error, unit) => logger.error('removing binary objects failed', { ...unit.label, error }),
  });
}
