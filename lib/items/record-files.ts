import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import * as repository from '../files/repository';
import { holdsRecord } from '../sites/recycle-bin-store';
import { embeddedGuids, guidsOf } from './attachments';
import { deleteVersions } from './history-store';
import type { Attachment } from './model';
import { findItem } from './record-repository';

/**
 * The files of records gone for good: a record leaves the Items table for the recycle bin and keeps its
 * files there; only when it leaves the bin without coming back (purged, or expired by the TTL: the bin's
 * stream, functions/recycle-bin.ts) do its files go, those its attachment columns list and those embedded
 * in its Body, Descriptions or comments, and its kept versions with them. Their rows go; the Binaries
 * stream then removes the objects. The Items table's stream (functions/record-files.ts) still takes the
 * files of a record removed without passing through the bin (none does today: a safety net).
 */
export interface DeletedRecord {
  readonly tenantId: number;
  readonly siteId: number;
  readonly recordId: number;
  readonly guids: readonly string[];
}

/** The records removed (from the Items table or the bin, as the stream is) that hold files. */
export function deletedRecordsOf(records: readonly DynamoDBRecord[]): DeletedRecord[] {
  return removedRecordsOf(records).filter((record) => record.guids.length > 0);
}

/** Every record removed in `records`, with the files it names (maybe none). */
export function removedRecordsOf(records: readonly DynamoDBRecord[]): DeletedRecord[] {
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
    deleted.push({
      tenantId: Number(item.TenantId),
      siteId: Number(item.SiteId),
      recordId: Number(item.RecordId),
      guids: [...guids],
    });
  }
  return deleted;
}

/**
 * Whether a removed record is gone for good: neither current (restored, or never binned) nor in the bin
 * (moved there, or deleted again after a restore). Only then may its files and history go.
 */
export async function goneForGood(record: DeletedRecord): Promise<boolean> {
  const [current, binned] = await Promise.all([
    findItem(record.tenantId, record.recordId),
    holdsRecord(record.tenantId, record.siteId, record.recordId),
  ]);
  return !current && !binned;
}

/** A record gone for good: its files and its kept versions go. */
export async function purgeLeftovers(record: DeletedRecord): Promise<{ files: number; versions: number }> {
  if (!(await goneForGood(record))) return { files: 0, versions: 0 };
  const files = await removeFilesOf(record);
  const versions = await deleteVersions(record.tenantId, record.siteId, record.recordId);
  return { files, versions };
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
