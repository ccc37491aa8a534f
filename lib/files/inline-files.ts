import { randomBytes } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock';
import { settings } from '../config/settings';
import { OverLimitSizeError, UnsupportedInputError } from '../errors';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { tableName } from '../storage/tables';
import type { Binary, Owner } from './model';
import { fileKey, putObject } from './object-store';
import { binaryKeys, nextBinaryId } from './repository';

/**
 * An attachment given inline in a record write, `{Name, Base64, ContentType?}` (reference/pleasanter-
 * items-api.md 5): stored as a new file under a new GUID, attached to the record by the write's own
 * transaction. The bytes go to S3 before that transaction, so a marker goes before them: the record's
 * transaction marks it committed, a write that fails removes it (discardInlineFiles), and one that never
 * returns leaves it to expire. The Binaries stream deletes the bytes of a marker that goes uncommitted
 * (lib/files/cleanup.ts), so a failed write leaves no object behind.
 */

/** Longer than any request can run (Lambda's 15 minutes), so a marker never expires under a live write. */
const MARKER_LIFETIME_S = 60 * 60;

const table = () => tableName('binaries');
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export interface InlineEntry {
  readonly Name?: string;
  readonly Base64?: string;
  readonly Base64Binary?: string;
  readonly ContentType?: string;
}

export async function storeInlineFile(
  principal: Owner,
  recordId: number,
  column: string,
  entry: InlineEntry,
  time: number,
): Promise<Binary> {
  const name = entry.Name ?? '';
  if (name.trim() === '') throw new UnsupportedInputError(`${column}: an inline file needs a Name.`);
  const text = entry.Base64 ?? entry.Base64Binary ?? '';
  if (!isBase64(text)) {
    throw new UnsupportedInputError(`${column}: the Base64 of ${name} is not valid base64.`);
  }
  const bytes = Buffer.from(text.replace(/\s/g, ''), 'base64');
  const maxMb = settings().BinaryStorage.MaxSize;
  if (bytes.length > maxMb * 1024 * 1024) {
    throw new OverLimitSizeError(maxMb, `${column}: ${name} is ${bytes.length} bytes`);
  }
  const guid = randomBytes(16).toString('hex').toUpperCase();
  const objectKey = fileKey(principal.tenantId, guid, randomBytes(8).toString('hex'));
  const contentType = entry.ContentType || 'text/plain';
  await putMarker(principal.tenantId, guid, objectKey);
  await putObject(objectKey, bytes, contentType);
  const dot = name.lastIndexOf('.');
  return {
    binaryId: await nextBinaryId(),
    tenantId: principal.tenantId,
    guid,
    referenceId: recordId,
    attached: true,
    fileName: name,
    extension: dot > 0 ? name.slice(dot) : '',
    contentType,
    size: bytes.length,
    objectKey,
    creator: principal.userId,
    updator: principal.userId,
    createdAt: time,
    updatedAt: time,
  };
}

/** Standard base64 (whitespace ignored, padding complete), as .NET's Convert.FromBase64String takes it. */
export function isBase64(text: string): boolean {
  const compact = text.replace(/\s/g, '');
  return BASE64.test(compact) && compact.length % 4 === 0;
}

function markerItem(tenantId: number, guid: string, objectKey: string) {
  return {
    ...binaryKeys.inline(tenantId, guid),
    ObjectKey: objectKey,
    ExpiresAt: Math.floor(now() / 1000) + MARKER_LIFETIME_S,
  };
}

async function putMarker(tenantId: number, guid: string, objectKey: string): Promise<void> {
  await dynamo().send(new PutCommand({ TableName: table(), Item: markerItem(tenantId, guid, objectKey) }));
}

/**
 * The part of the record's transaction that keeps an inline file's bytes: its marker, marked committed
 * (left to expire without effect). The marker must still be there: bytes whose marker is gone are deleted.
 */
export function commitInlineItem(binary: Binary) {
  return {
    Put: {
      TableName: table(),
      Item: { ...markerItem(binary.tenantId, binary.guid, binary.objectKey), Committed: true },
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(Committed)',
    },
  };
}

/**
 * After a record write that failed: the markers of the inline files among its transaction parts are
 * removed, unless committed, so that the Binaries stream deletes their bytes now rather than at expiry.
 */
export async function discardInlineFiles(items: readonly unknown[]): Promise<void> {
  const markers = items.flatMap((item) => {
    const put = (item as { Put?: { Item?: Record<string, unknown> } }).Put?.Item;
    return put?.sk === 'INLINE' ? [{ pk: String(put.pk), sk: 'INLINE' }] : [];
  });
  await Promise.all(
    markers.map((Key) =>
      dynamo()
        .send(
          new DeleteCommand({
            TableName: table(),
            Key,
            ConditionExpression: 'attribute_not_exists(Committed)',
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        }),
    ),
  );
}

/**
 * Runs a record write whose transaction parts are `items` (read when it fails, so a list filled during the
 * write counts): if it throws, their inline files are discarded, then the error goes on unchanged.
 */
export async function discardingOnFailure<T>(
  items: () => readonly unknown[],
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    await discardInlineFiles(items());
    throw error;
  }
}
