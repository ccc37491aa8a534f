import { createHash, randomBytes } from 'node:crypto';
import { now } from '../clock';
import { BadRequestError, OverLimitSizeError } from '../errors';
import { logger } from '../log';
import { parseContentRange } from './content-range';
import { continueMd5, MD5_STATE_VERSION, md5Digest } from './md5-state';
import type { Owner, UploadState } from './model';
import * as objects from './object-store';
import * as repository from './repository';

/**
 * The chunk path of both upload routes (web-api.txt 3 and 4.5, CONTRACT section 6). A chunk is applied in
 * steps that can each fail: claim the chunk, hash it onto the saved MD5 state, write its bytes to S3 (held
 * while they do not make a 5 MiB part), save the state by a conditional write on the size received, and at
 * the end complete the S3 upload and register the file. Every step can be repeated with the same result,
 * so a client that resends a chunk after any failure, or whose answer was lost, ends with a byte-exact file.
 */

export interface FileUpload {
  readonly owner: Owner;
  /** The `id` query value, or the record of the path GUID. */
  readonly referenceId: number;
  /** The `{guid}` of `/api/binaries/{guid}/upload`. */
  readonly pathGuid?: string;
  /** The GUID the file gets: the path GUID when overwriting, else a new one (undefined). */
  readonly targetGuid?: string;
  readonly file: { readonly name: string; readonly contentType: string; readonly contentRange?: string };
  readonly bytes: Buffer;
  /** The FileHash form field: MD5 of the whole file, hex, any case. */
  readonly fileHash?: string;
  /** BinaryStorage.MaxSize in MB. */
  readonly maxSizeMb: number;
}

/** A complete file in S3, ready to be registered. */
export interface StoredFile {
  readonly guid: string;
  readonly objectKey: string;
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
}

/** What a completed upload answers: the ApiResult's fields. */
export interface Answer {
  readonly id: number;
  readonly message: string;
  readonly limitPerDate?: number;
  readonly limitRemaining?: number;
}

/** Registers a complete file (a new row, or a record's attachment) and gives the answer. Idempotent. */
export type Register = (file: StoredFile) => Promise<Answer>;

export type Outcome =
  | { readonly kind: 'progress'; readonly guid: string }
  | { readonly kind: 'complete'; readonly answer: Answer };

/** A claim older than this (well over the Lambda time limit) belongs to an attempt that died. */
const STALE_CLAIM_MS = 60_000;

export async function receiveFile(upload: FileUpload, register: Register): Promise<Outcome> {
  const range = parseContentRange(upload.file.contentRange);
  const maxBytes = upload.maxSizeMb * 1024 * 1024;
  const declared = range?.total ?? upload.bytes.length;
  if (declared > maxBytes) {
    throw new OverLimitSizeError(upload.maxSizeMb, `file of ${declared} bytes over MaxSize`);
  }
  if (range && range.to - range.from + 1 !== upload.bytes.length) {
    throw new BadRequestError(`chunk of ${upload.bytes.length} bytes sent as ${range.from}-${range.to}`);
  }
  // No range, or one chunk that is the whole file: nothing to carry over to another request.
  if (!range || (range.from === 0 && range.to + 1 === range.total)) return whole(upload, register);

  const key = uploadKey(upload);
  const chunkMd5 = createHash('md5').update(upload.bytes).digest('hex');
  if (range.from === 0) {
    // A first chunk starts the upload anew, as in the reference: a new GUID, whatever was under the key.
    const guid = upload.targetGuid ?? newGuid();
    const id = newUploadId();
    const state: UploadState = {
      tenantId: upload.owner.tenantId,
      userId: upload.owner.userId,
      key,
      upload: id,
      guid,
      referenceId: upload.referenceId,
      fileName: upload.file.name,
      contentType: upload.file.contentType,
      total: range.total,
      received: 0,
      md5: { version: MD5_STATE_VERSION, state: '' },
      objectKey: objects.fileKey(upload.owner.tenantId, guid, id),
      parts: [],
      held: [],
      spent: [],
      claim: { md5: chunkMd5, at: now() },
    };
    await repository.startUpload(state);
    return applyChunk(upload, state, chunkMd5, register);
  }

  // The usual case in one write: the upload is at this chunk, which it now claims.
  const chunk = { offset: range.from, total: range.total, md5: chunkMd5 };
  const claimed = await repository.claimChunk(upload.owner.tenantId, key, chunk, STALE_CLAIM_MS);
  if (claimed) return applyChunk(upload, claimed, chunkMd5, register);

  const state = await repository.getUpload(upload.owner.tenantId, key);
  if (!state) throw new BadRequestError(`no upload in progress for ${upload.file.name}`);
  if (isReplay(state, range.from, upload.bytes.length, chunkMd5)) return answerAgain(state, register);
  if (range.total !== state.total) {
    throw new BadRequestError(`total ${range.total} differs from the upload's ${state.total}`);
  }
  if (range.from !== state.received) {
    throw new BadRequestError(`chunk at ${range.from}, but ${state.received} bytes received`);
  }
  throw new BadRequestError(`another chunk at ${range.from} is being applied`);
}

/** A file in one request: straight into one object, nothing saved between requests. */
async function whole(upload: FileUpload, register: Register): Promise<Outcome> {
  if (upload.fileHash !== undefined) {
    const md5 = createHash('md5').update(upload.bytes).digest('hex');
    if (md5 !== upload.fileHash.toLowerCase()) throw new BadRequestError('FileHash differs from the file');
  }
  const guid = upload.targetGuid ?? newGuid();
  const objectKey = objects.fileKey(upload.owner.tenantId, guid, newUploadId());
  await objects.putObject(objectKey, upload.bytes, upload.file.contentType);
  const answer = await register({
    guid,
    objectKey,
    fileName: upload.file.name,
    contentType: upload.file.contentType,
    size: upload.bytes.length,
  });
  return { kind: 'complete', answer };
}

async function applyChunk(
  upload: FileUpload,
  state: UploadState,
  chunkMd5: string,
  register: Register,
): Promise<Outcome> {
  const { bytes } = upload;
  if (state.md5.version !== MD5_STATE_VERSION) {
    await discard(state);
    throw new BadRequestError(`upload begun under ${state.md5.version}; restart it`);
  }
  const md5 = await continueMd5(state.received === 0 ? undefined : state.md5, bytes);
  const received = state.received + bytes.length;
  const final = received === state.total;
  if (final && upload.fileHash !== undefined && (await md5Digest(md5)) !== upload.fileHash.toLowerCase()) {
    await discard(state);
    throw new BadRequestError('FileHash differs from the file');
  }

  let { multipartId, parts, held, spent } = state;
  const heldBytes = held.reduce((sum, part) => sum + part.size, 0);
  if (final || heldBytes + bytes.length >= objects.MIN_PART_BYTES) {
    const body = await objects.joined(held, bytes);
    if (final && multipartId === undefined) {
      await objects.putObject(state.objectKey, body, state.contentType);
    } else {
      multipartId ??= await objects.startMultipart(state.objectKey, state.contentType);
      parts = [...parts, await objects.uploadPart(state.objectKey, multipartId, parts.length + 1, body)];
    }
    spent = [...spent, ...held.map((part) => part.key)];
    held = [];
  } else {
    const key = objects.heldKey(state.tenantId, state.guid, state.upload, state.received);
    await objects.putObject(key, bytes);
    held = [...held, { key, size: bytes.length }];
  }

  const { claim: _claim, ...rest } = state;
  const after: UploadState = {
    ...rest,
    received,
    md5,
    multipartId,
    parts,
    held,
    spent,
    last: { offset: state.received, md5: chunkMd5 },
  };
  if (!(await repository.advanceUpload(state, after, chunkMd5))) {
    return afterConflict(upload, state.received, chunkMd5, register);
  }
  return final ? complete(after, register) : { kind: 'progress', guid: after.guid };
}

/** Completes the S3 object and registers the file; run again by a resent last chunk until it is done. */
async function complete(state: UploadState, register: Register): Promise<Outcome> {
  if (state.multipartId !== undefined) {
    await objects.completeMultipart(state.objectKey, state.multipartId, state.parts, state.total);
  }
  const answer = await register({
    guid: state.guid,
    objectKey: state.objectKey,
    fileName: state.fileName,
    contentType: state.contentType,
    size: state.total,
  });
  await repository.finishUpload(state, answer);
  // Held bytes now in parts go in one call at the end; what a failure leaves, the bucket's rule expires.
  await objects.deleteObjects(state.spent);
  return { kind: 'complete', answer };
}

/** The chunk that brought the upload to where it is, sent again: its answer, not a 400. */
function isReplay(state: UploadState, offset: number, length: number, chunkMd5: string): boolean {
  return state.last?.offset === offset && state.last.md5 === chunkMd5 && state.received === offset + length;
}

function answerAgain(state: UploadState, register: Register): Promise<Outcome> | Outcome {
  if (state.received < state.total) return { kind: 'progress', guid: state.guid };
  if (state.result) return { kind: 'complete', answer: state.result };
  return complete(state, register);
}

/** Another request moved the upload meanwhile: fine if it was a copy of this chunk, else a 400. */
async function afterConflict(
  upload: FileUpload,
  offset: number,
  chunkMd5: string,
  register: Register,
): Promise<Outcome> {
  const current = await repository.getUpload(upload.owner.tenantId, uploadKey(upload));
  if (current && isReplay(current, offset, upload.bytes.length, chunkMd5))
    return answerAgain(current, register);
  throw new BadRequestError(`another chunk at ${offset} is being applied, or the upload was restarted`);
}

/** Gives up an upload: its state, its held bytes and its multipart upload. */
async function discard(state: UploadState): Promise<void> {
  await repository.dropUpload(state);
  if (state.multipartId !== undefined) await objects.abortMultipart(state.objectKey, state.multipartId);
  await objects.deleteObjects([...state.spent, ...state.held.map((part) => part.key)]);
  logger.info('upload discarded', { guid: state.guid, received: state.received });
}

/** What identifies an upload across requests: tenant (in the table key), user, id or GUID, file name. */
function uploadKey(upload: Pick<FileUpload, 'owner' | 'referenceId' | 'pathGuid' | 'file'>): string {
  const parts = [upload.owner.userId, upload.referenceId, upload.pathGuid ?? '', upload.file.name];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * Where a chunked upload of `/api/binaries/upload?id=` stands (Kiroku's addition, CONTRACT section 10): the
 * bytes the server holds, so that a client resumes there after a network error or a reload instead of
 * starting over. A chunk being applied right now is not counted until its state is saved.
 */
export async function uploadProgress(
  owner: Owner,
  referenceId: number,
  fileName: string,
): Promise<{ received: number; total: number }> {
  const key = uploadKey({ owner, referenceId, file: { name: fileName, contentType: '' } });
  const state = await repository.getUpload(owner.tenantId, key);
  return state ? { received: state.received, total: state.total } : { received: 0, total: 0 };
}

/** 32 uppercase hexadecimal characters, as the reference issues them. */
export function newGuid(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

function newUploadId(): string {
  return randomBytes(8).toString('hex');
}

/** What an upload answers: while in progress Id `progressId` and the GUID (or `progressMessage`). */
export function answerOf(outcome: Outcome, progressId: number, progressMessage?: string): Answer {
  if (outcome.kind === 'progress') return { id: progressId, message: progressMessage ?? outcome.guid };
  return outcome.answer;
}
