import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import * as repository from '../files/repository';
import { embeddedGuids, guidsOf } from './attachments';
import type { Attachment } from './model';

/**
 * The files of deleted records, from the Items table's stream (functions/record-files.ts): a record deleted
 * alone or with its site's subtree takes the files attached to it, those its attachment columns list and
 * those embedded in its Body, Descriptions or comments. Their rows go; the Binaries stream then removes
 * the objects.
 */
export interface DeletedRecord {
  readonly tenantId: number;
  readonly recordId: number;
  readonly guids: readonly string[];
}

export function deletedRecordsOf(records: readonly DynamoDBRecord[]): DeletedRecord[] {
  const deleted: DeletedRecord[] = [];
  for (const record of records) {
    if (record.eventName !== 'REMOVE') continue;
    const item = imageOf(record.dynamodb?.OldImage);
    if (item?.Kind !== 'record') continue;
    const fields = (item.Fields ?? {}) as {
      Attachments?: Record<string, Attachment[]>;
      Description?: Record<string, string>;
    };
    // Comments too: an ImageHash image may sit in the comment its write added.
    const comments = Array.isArray(item.Comments) ? (item.Comments as { body?: string }[]) : [];
    const texts = [
      item.Body as string | undefined,
      ...Object.values(fields.Description ?? {}),
      ...comments.map((comment) => comment.body),
    ];
    const guids = new Set([...guidsOf(fields.Attachments ?? {}), ...embeddedGuids(texts)]);
    if (guids.size > 0) {
      deleted.push({ tenantId: Number(item.TenantId), recordId: Number(item.RecordId), guids: [...guids] });
    }
  }
  return deleted;
}

/** Deletes the rows of the files that still belong to the deleted record (a GUID may have moved on). */
export async function removeFilesOf(record: DeletedRecord): Promise<number> {
  let removed = 0;
  for (const guid of record.guids) {
    const binary = await repository.getBinary(record.tenantId, guid);
    if (binary?.attached && binary.referenceId === record.recordId) {
      await repository.deleteBinary(binary);
      removed++;
    }
  }
  return removed;
}

function imageOf(image: Record<string, AttributeValue> | undefined): Record<string, unknown> | undefined {
  return image ? unmarshall(image as Record<string, SdkAttributeValue>) : undefined;
}
