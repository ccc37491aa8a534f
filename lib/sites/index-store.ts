import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock';
import { batchWrite } from '../storage/batch';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { queryAll } from '../storage/queries';
import { tableName } from '../storage/tables';
import type { NameIndex } from './name-index';
import { deserializeNameIndex, serializeNameIndex } from './name-index-codec';

/**
 * Where a tenant's site-name index lives: the SiteIndexes table holds the bytes of each version in chunks
 * (2.8 MB for 100,000 sites, over DynamoDB's 400 KB item limit) and a pointer to the current version.
 * A lookup reads the pointer with a consistent read and uses its in-memory copy only while the versions
 * agree, so it never answers from a stale index; the stream handler alone writes new versions, all their
 * chunks before it moves the pointer.
 */

export interface IndexPointer {
  readonly version: number;
}

/** Below the 400 KB item limit, with room for the keys. */
const CHUNK_BYTES = 350 * 1024;

const table = () => tableName('siteIndexes');
const keys = {
  pointer: (tenantId: number) => ({ pk: `T${tenantId}`, sk: 'POINTER' }),
  version: (tenantId: number, version: number) => `T${tenantId}#V${version}`,
  chunk: (at: number) => `CHUNK#${String(at).padStart(5, '0')}`,
};

/** The indexes this instance has loaded, by tenant: a warm Lambda reads the bytes only when they change. */
const loaded = new Map<number, NameIndex>();

export async function readPointer(tenantId: number): Promise<IndexPointer | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: table(), Key: keys.pointer(tenantId), ConsistentRead: true }),
  );
  return result.Item ? { version: Number(result.Item.Version) } : undefined;
}

/** The tenant's current index, or undefined when none has been built (the tenant has no sites yet). */
export async function loadIndex(tenantId: number): Promise<NameIndex | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const pointer = await readPointer(tenantId);
    if (!pointer) return undefined;
    const cached = loaded.get(tenantId);
    if (cached?.version === pointer.version) return cached;
    const bytes = await readVersion(tenantId, pointer.version);
    // The writer deletes a version's chunks once the pointer has moved on: read the pointer again.
    if (!bytes) continue;
    const index = deserializeNameIndex(bytes);
    loaded.set(tenantId, index);
    return index;
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
  const bytes = await readVersion(tenantId, pointer.version);
  if (!bytes) throw new Error(`the site-name index of tenant ${tenantId} lost version ${pointer.version}`);
  return { index: deserializeNameIndex(bytes), pointer };
}

/**
 * Stores `index` as the tenant's current version, if the current one is still `previous`: false when
 * another writer got there first (the caller reloads and applies its changes again).
 */
export async function saveIndex(tenantId: number, index: NameIndex, previous: IndexPointer | undefined) {
  const bytes = serializeNameIndex(index);
  const chunks = [];
  for (let at = 0; at * CHUNK_BYTES < bytes.length || at === 0; at++) {
    chunks.push({
      pk: keys.version(tenantId, index.version),
      sk: keys.chunk(at),
      Data: bytes.subarray(at * CHUNK_BYTES, (at + 1) * CHUNK_BYTES),
    });
  }
  await batchWrite(
    table(),
    chunks.map((Item) => ({ PutRequest: { Item } })),
  );
  try {
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { ...keys.pointer(tenantId), Version: index.version, Bytes: bytes.length, UpdatedAt: now() },
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
    await deleteVersion(tenantId, index.version);
    return false;
  }
  loaded.set(tenantId, index);
  if (previous && previous.version !== index.version) await deleteVersion(tenantId, previous.version);
  return true;
}

/** A version's bytes, or undefined when its chunks are gone. */
async function readVersion(tenantId: number, version: number): Promise<Uint8Array | undefined> {
  const parts: Uint8Array[] = [];
  for await (const item of versionItems(tenantId, version, true)) parts.push(item.Data as Uint8Array);
  return parts.length === 0 ? undefined : Buffer.concat(parts);
}

async function deleteVersion(tenantId: number, version: number): Promise<void> {
  const requests = [];
  for await (const { pk, sk } of versionItems(tenantId, version, false)) {
    requests.push({ DeleteRequest: { Key: { pk, sk } } });
  }
  await batchWrite(table(), requests);
}

/** The chunks of one version, in order; without their bytes unless `withData`. */
function versionItems(tenantId: number, version: number, withData: boolean) {
  return queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :version',
    ExpressionAttributeValues: { ':version': keys.version(tenantId, version) },
    ...(withData ? { ConsistentRead: true } : { ProjectionExpression: 'pk, sk' }),
  });
}
