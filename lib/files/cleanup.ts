import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { UploadState } from './model';

/**
 * What S3 no longer needs after a change to the Binaries table (fed by its stream, functions/binary-objects.ts):
 * the object of a file whose row is gone or points at new content (an overwrite), and what an upload that
 * will never complete leaves (its multipart upload, its held bytes), when its state expires, is dropped, or
 * is replaced by a new first chunk; and the bytes of an inline file whose record write did not commit. Kept apart from the requests, so that they need no S3 client for this
 * and a failed delete is retried with the stream's batch.
 */
export interface Cleanup {
  readonly objects: string[];
  readonly multipartUploads: { readonly key: string; readonly uploadId: string }[];
}

export function cleanupOf(records: readonly DynamoDBRecord[]): Cleanup {
  const cleanup: Cleanup = { objects: [], multipartUploads: [] };
  for (const record of records) {
    const before = imageOf(record.dynamodb?.OldImage);
    const after = imageOf(record.dynamodb?.NewImage);
    if (before?.sk === 'BINARY' && before.ObjectKey !== after?.ObjectKey) {
      cleanup.objects.push(String(before.ObjectKey));
    }
    // An inline file's marker gone uncommitted (its record write failed, or never ended): its bytes.
    if (before?.sk === 'INLINE' && !after && before.Committed !== true) {
      cleanup.objects.push(String(before.ObjectKey));
    }
    if (before?.sk === 'UPLOAD') {
      const old = before.State as UploadState;
      const next = after?.State as UploadState | undefined;
      if (next?.upload === old.upload) continue; // the same upload, moving on
      cleanup.objects.push(...old.held.map((part) => part.key), ...old.spent);
      if (old.result === undefined && old.multipartId !== undefined) {
        cleanup.multipartUploads.push({ key: old.objectKey, uploadId: old.multipartId });
      }
      // Never the upload's own object: without a recorded answer it may still have been registered.
    }
  }
  return cleanup;
}

function imageOf(image: Record<string, AttributeValue> | undefined): Record<string, unknown> | undefined {
  return image ? unmarshall(image as Record<string, SdkAttributeValue>) : undefined;
}
