import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock';
import { itemKeys } from '../items/keys';
import { isConditionFailure, table } from '../items/store';
import { dynamo, s3 } from '../storage/clients';
import type { NameIndex } from './name-index';
import { deserializeNameIndex, serializeNameIndex } from './name-index-codec';

/**
 * Where a tenant's site-name index lives: its bytes in S3, one object per version (2.8 MB for 100,000
 * sites: too large for a DynamoDB item), and which version is current in a pointer item of the Items table.
 * A lookup reads the pointer with a consistent read and uses its in-memory copy only while the versions
 * agree, so it never answers from a stale index; the stream handler alone writes new versions.
 */

export interface IndexPointer {
  readonly version: number;
  readonly objectKey: string;
}

/** The indexes this instance has loaded, by tenant: a warm Lambda reads the bytes only when they change. */
const loaded = new Map<number, NameIndex>();

export async function readPointer(tenantId: number): Promise<IndexPointer | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: table(), Key: itemKeys.nameIndex(tenantId), ConsistentRead: true }),
  );
  if (!result.Item) return undefined;
  return { version: Number(result.Item.Version), objectKey: String(result.Item.ObjectKey) };
}

/** The tenant's current index, or undefined when none has been built (the tenant has no sites yet). */
export async function loadIndex(tenantId: number): Promise<NameIndex | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const pointer = await readPointer(tenantId);
    if (!pointer) return undefined;
    const cached = loaded.get(tenantId);
    if (cached?.version === pointer.version) return cached;
    try {
      const index = deserializeNameIndex(await readObject(pointer.objectKey));
      loaded.set(tenantId, index);
      return index;
    } catch (error) {
      // The writer deletes a version's bytes once the pointer has moved on: read the pointer again.
      if (!(error instanceof NoSuchKey)) throw error;
    }
  }
  throw new Error(`the site-name index of tenant ${tenantId} kept changing while it was read`);
}

/**
 * The current version as a private copy for the stream handler to change in place (lookups may be using
 * the shared one), with the pointer it was read through, or undefined when none exists yet.
 */
export async function loadIndexForUpdate(
  tenantId: number,
): Promise<{ index: NameIndex; pointer: IndexPointer } | undefined> {
  const pointer = await readPointer(tenantId);
  if (!pointer) return undefined;
  return { index: deserializeNameIndex(await readObject(pointer.objectKey)), pointer };
}

/**
 * Stores `index` as the tenant's current version, if the current one is still `previous`: false when
 * another writer got there first (the caller reloads and applies its changes again).
 */
export async function saveIndex(tenantId: number, index: NameIndex, previous: IndexPointer | undefined) {
  const objectKey = `site-name-index/${tenantId}/${index.version}.bin`;
  await s3().send(
    new PutObjectCommand({ Bucket: bucket(), Key: objectKey, Body: serializeNameIndex(index) }),
  );
  try {
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: {
          ...itemKeys.nameIndex(tenantId),
          Version: index.version,
          ObjectKey: objectKey,
          UpdatedAt: now(),
        },
        ...(previous
          ? {
              ConditionExpression: 'Version = :previous',
              ExpressionAttributeValues: { ':previous': previous.version },
            }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    await deleteObject(objectKey);
    return false;
  }
  loaded.set(tenantId, index);
  if (previous && previous.objectKey !== objectKey) await deleteObject(previous.objectKey);
  return true;
}

async function readObject(key: string): Promise<Uint8Array> {
  const object = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  if (!object.Body) throw new Error(`empty site-name index object ${key}`);
  return object.Body.transformToByteArray();
}

async function deleteObject(key: string): Promise<void> {
  await s3().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key }));
}

function bucket(): string {
  const name = process.env.KIROKU_BUCKET;
  if (!name) throw new Error('KIROKU_BUCKET is not set');
  return name;
}
