import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { tableName } from '../storage/tables';
import type { Binary, UploadState } from './model';

/**
 * The Binaries table: each file's row (`T<tenant>#B<GUID>`), each chunked upload's state
 * (`T<tenant>#U<key>`, expiring), the marker of an inline file's bytes until its record write commits
 * (`T<tenant>#B<GUID>` `INLINE`, expiring), and the BinaryId counter. Every key but the counter starts with the
 * tenant, so another tenant's GUID is simply not found.
 */

const table = () => tableName('binaries');

/** An upload untouched for this long is abandoned: its state expires, as its multipart upload does. */
export const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;

export const binaryKeys = {
  counter: () => ({ pk: 'COUNTER', sk: 'BINARYID' }),
  binary: (tenantId: number, guid: string) => ({ pk: `T${tenantId}#B${guid}`, sk: 'BINARY' }),
  upload: (tenantId: number, key: string) => ({ pk: `T${tenantId}#U${key}`, sk: 'UPLOAD' }),
  /** An inline file's bytes, written before the record write that attaches them (lib/files/inline-files.ts). */
  inline: (tenantId: number, guid: string) => ({ pk: `T${tenantId}#B${guid}`, sk: 'INLINE' }),
} as const;

export async function nextBinaryId(): Promise<number> {
  const result = await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: binaryKeys.counter(),
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'Value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.Value);
}

export async function getBinary(tenantId: number, guid: string): Promise<Binary | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: table(), Key: binaryKeys.binary(tenantId, guid), ConsistentRead: true }),
  );
  return result.Item ? toBinary(result.Item) : undefined;
}

/** Stores a new file's row; if a retry finds it already stored, that row is the answer. */
export async function insertBinary(binary: Binary): Promise<Binary> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: fromBinary(binary),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return binary;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const stored = await getBinary(binary.tenantId, binary.guid);
    if (!stored) throw error;
    return stored;
  }
}

export async function deleteBinary(binary: Binary): Promise<void> {
  await dynamo().send(
    new DeleteCommand({ TableName: table(), Key: binaryKeys.binary(binary.tenantId, binary.guid) }),
  );
}

/**
 * The transaction part that attaches a file to a record, on the condition that it is still as it was read
 * (same object, same reference, same attachment state): a concurrent attach or overwrite fails it.
 */
export function attachItem(binary: Binary, recordId: number, userId: number, time: number) {
  return {
    Update: {
      TableName: table(),
      Key: binaryKeys.binary(binary.tenantId, binary.guid),
      UpdateExpression: 'SET ReferenceId = :record, Attached = :true, Updator = :user, UpdatedAt = :time',
      ConditionExpression: 'ObjectKey = :object AND ReferenceId = :reference AND Attached = :attached',
      ExpressionAttributeValues: {
        ':record': recordId,
        ':true': true,
        ':user': userId,
        ':time': time,
        ':object': binary.objectKey,
        ':reference': binary.referenceId,
        ':attached': binary.attached,
      },
    },
  };
}

/** The transaction part that stores a new file's row (a new GUID added to a record). */
export function insertItem(binary: Binary) {
  return {
    Put: { TableName: table(), Item: fromBinary(binary), ConditionExpression: 'attribute_not_exists(pk)' },
  };
}

/** The transaction part that points a file's row at new content (an overwrite keeping the GUID). */
export function replaceContentItem(before: Binary, after: Binary) {
  return {
    Put: {
      TableName: table(),
      Item: fromBinary(after),
      ConditionExpression: 'ObjectKey = :object',
      ExpressionAttributeValues: { ':object': before.objectKey },
    },
  };
}

/** The transaction part that removes a file's row, when its record no longer lists it. */
export function deleteItem(binary: Binary) {
  return {
    Delete: {
      TableName: table(),
      Key: binaryKeys.binary(binary.tenantId, binary.guid),
      ConditionExpression: 'ObjectKey = :object',
      ExpressionAttributeValues: { ':object': binary.objectKey },
    },
  };
}

/** The upload in progress under `key`, unless it has expired (the TTL deletes late). */
export async function getUpload(tenantId: number, key: string): Promise<UploadState | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: table(), Key: binaryKeys.upload(tenantId, key), ConsistentRead: true }),
  );
  const item = result.Item;
  if (!item || Number(item.ExpiresAt) * 1000 <= now()) return undefined;
  return item.State as UploadState;
}

/** Starts an upload: a first chunk begins anew, replacing any upload under the same key (the reference). */
export async function startUpload(state: UploadState): Promise<void> {
  await dynamo().send(new PutCommand({ TableName: table(), Item: uploadItem(state) }));
}

/**
 * Claims the chunk at `offset` of the upload under `key` for a chunk with this MD5, and answers the upload's
 * state, in one write: unless another chunk (different bytes) is being applied there, copies of one chunk
 * may all proceed, since they write the same bytes to the same places. A claim older than a Lambda's time
 * limit is stale. Undefined when there is no such upload, or it is not at `offset` of `total`.
 */
export async function claimChunk(
  tenantId: number,
  key: string,
  chunk: { readonly offset: number; readonly total: number; readonly md5: string },
  staleAfterMs: number,
): Promise<UploadState | undefined> {
  const time = now();
  try {
    const result = await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: binaryKeys.upload(tenantId, key),
        UpdateExpression: 'SET #state.#claim = :claim',
        ConditionExpression:
          'ExpiresAt > :now AND #state.#received = :received AND #state.#total = :total AND ' +
          '(attribute_not_exists(#state.#claim) OR #state.#claim.#md5 = :md5 OR #state.#claim.#at < :stale)',
        ExpressionAttributeNames: {
          '#state': 'State',
          '#claim': 'claim',
          '#received': 'received',
          '#total': 'total',
          '#md5': 'md5',
          '#at': 'at',
        },
        ExpressionAttributeValues: {
          ':claim': { md5: chunk.md5, at: time },
          ':now': Math.floor(time / 1000),
          ':received': chunk.offset,
          ':total': chunk.total,
          ':md5': chunk.md5,
          ':stale': time - staleAfterMs,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes?.State as UploadState | undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * Saves the upload's next state, if it is still where `before` was (same upload, same size received) and
 * the chunk applied is the one that claimed it. False when another copy got there first, or the upload
 * was restarted.
 */
export async function advanceUpload(before: UploadState, after: UploadState, md5: string): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: uploadItem(after),
        ConditionExpression:
          '#state.#upload = :upload AND #state.#received = :received AND #state.#claim.#md5 = :md5',
        ExpressionAttributeNames: {
          '#state': 'State',
          '#upload': 'upload',
          '#received': 'received',
          '#claim': 'claim',
          '#md5': 'md5',
        },
        ExpressionAttributeValues: { ':upload': before.upload, ':received': before.received, ':md5': md5 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Records the answer of a completed upload, so that a resent last chunk gets it again. */
export async function finishUpload(state: UploadState, result: UploadState['result']): Promise<void> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: uploadItem({ ...state, result }),
        ConditionExpression: '#state.#upload = :upload',
        ExpressionAttributeNames: { '#state': 'State', '#upload': 'upload' },
        ExpressionAttributeValues: { ':upload': state.upload },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error; // restarted meanwhile: the new upload's state stays
  }
}

/** Drops an upload that cannot complete (FileHash mismatch), unless it was restarted meanwhile. */
export async function dropUpload(state: UploadState): Promise<void> {
  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: table(),
        Key: binaryKeys.upload(state.tenantId, state.key),
        ConditionExpression: '#state.#upload = :upload',
        ExpressionAttributeNames: { '#state': 'State', '#upload': 'upload' },
        ExpressionAttributeValues: { ':upload': state.upload },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

function uploadItem(state: UploadState) {
  return {
    ...binaryKeys.upload(state.tenantId, state.key),
    State: state,
    ExpiresAt: Math.floor((now() + UPLOAD_LIFETIME_MS) / 1000),
  };
}

export function fromBinary(binary: Binary): Record<string, unknown> {
  return {
    ...binaryKeys.binary(binary.tenantId, binary.guid),
    BinaryId: binary.binaryId,
    TenantId: binary.tenantId,
    Guid: binary.guid,
    ReferenceId: binary.referenceId,
    Attached: binary.attached,
    FileName: binary.fileName,
    Extension: binary.extension,
    ContentType: binary.contentType,
    Size: binary.size,
    ObjectKey: binary.objectKey,
    Creator: binary.creator,
    Updator: binary.updator,
    CreatedAt: binary.createdAt,
    UpdatedAt: binary.updatedAt,
  };
}

function toBinary(item: Record<string, unknown>): Binary {
  return {
    binaryId: Number(item.BinaryId),
    tenantId: Number(item.TenantId),
    guid: String(item.Guid),
    referenceId: Number(item.ReferenceId),
    attached: item.Attached === true,
    fileName: String(item.FileName),
    extension: String(item.Extension ?? ''),
    contentType: String(item.ContentType),
    size: Number(item.Size),
    objectKey: String(item.ObjectKey),
    creator: Number(item.Creator),
    updator: Number(item.Updator),
    createdAt: Number(item.CreatedAt),
    updatedAt: Number(item.UpdatedAt),
  };
}
