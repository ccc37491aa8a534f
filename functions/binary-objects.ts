import type { DynamoDBStreamEvent } from 'aws-lambda';
import { cleanupOf } from '../lib/files/cleanup';
import { abortMultipart, deleteObjects } from '../lib/files/object-store';
import { logger } from '../lib/log';

/** The Binaries table's stream → the S3 objects and multipart uploads nothing points at any more. */
export async function handler(event: DynamoDBStreamEvent): Promise<void> {
  const { objects, multipartUploads } = cleanupOf(event.Records);
  for (const upload of multipartUploads) await abortMultipart(upload.key, upload.uploadId);
  await deleteObjects(objects, { strict: true });
  if (objects.length + multipartUploads.length > 0) {
    logger.info('binary objects removed', {
      objects: objects.length,
      multipartUploads: multipartUploads.length,
    });
  }
}
