import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { settings } from '../config/settings';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors';
import type { Binary } from '../files/model';
import type { UploadForm } from '../files/multipart-form';
import { fileHashOf, requireFile, rowOf } from '../files/new-upload';
import * as objects from '../files/object-store';
import * as repository from '../files/repository';
import { mayShowInline, SNIFF_BYTES, servedType } from '../files/served-type';
import { type Answer, answerOf, receiveFile, type StoredFile } from '../files/upload';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { useApiCall } from '../sites/api-limit';
import { Permission, siteInTenant, sitePermission } from '../sites/permissions';
import { formatLocal } from '../zoned-time';
import { checkColumnLimits, columnSettings, entryOf } from './attachments';
import type { Attachment, ItemRecord } from './model';
import { canOnRecord, recordPermission } from './record-permissions';
import * as records from './record-repository';
import { nextVersion } from './record-versions';
import { recordInTenant, requireUnlocked } from './records';

/**
 * The binary endpoints (web-api.txt 4.5, 7.2; CONTRACT section 6): new uploads, uploads to an attached
 * file's GUID, downloads and the JSON read. Every refusal of a processed upload is an ApiError, which the
 * upload endpoints answer with HTTP 200 and the StatusCode in the body.
 */

/** `/api/binaries/{guid}/get` returns files up to this size; larger ones are for download. */
export const MAX_JSON_FILE_BYTES = 4 * 1024 * 1024;

/**
 * `POST /api/binaries/{guid}/upload[?overwrite=true]`: new content for a file attached to a record, kept
 * under its GUID with overwrite, else added to the same column under a new GUID. The record's update rules
 * apply (lock, permission, column limits, daily limit); lock and permission are checked at every chunk,
 * so that a refusal comes before the bytes rather than after them.
 */
export async function uploadToGuid(
  principal: Principal,
  pathGuid: string,
  overwrite: boolean,
  form: UploadForm,
): Promise<Answer> {
  const file = requireFile(form);
  const target = await attachedFile(principal, pathGuid);
  await writableRecord(principal, target.binary.referenceId);
  const outcome = await receiveFile(
    {
      owner: principal,
      referenceId: target.binary.referenceId,
      pathGuid: target.binary.guid,
      targetGuid: overwrite ? target.binary.guid : undefined,
      file,
      bytes: file.bytes,
      fileHash: fileHashOf(form),
      maxSizeMb: settings().BinaryStorage.MaxSize,
    },
    (stored) => storeInRecord(principal, target.binary.guid, stored, overwrite),
  );
  return answerOf(outcome, target.binary.referenceId, target.binary.guid);
}

/**
 * A presigned URL (60 s) for a file the caller may read, served as served-type.ts decides: a `show` reads
 * the first bytes of a file named as a raster image, since only those bytes tell an image from a page.
 */
export async function fileUrl(
  principal: Principal,
  guid: string,
  kind: 'show' | 'download',
): Promise<string> {
  const binary = await readableFile(principal, guid);
  const head =
    kind === 'show' && binary.size > 0 && mayShowInline(binary.fileName)
      ? await objects.firstBytes(binary.objectKey, SNIFF_BYTES)
      : undefined;
  return objects.presignedGet(binary.objectKey, binary.fileName, servedType(binary, kind, head));
}

/** `POST /api/binaries/{guid}/get`: the file, base64 in JSON, up to 4 MB. */
export async function fileAsJson(
  principal: Principal,
  guid: string,
): Promise<Outcome & { response: Record<string, unknown> }> {
  const binary = await readableFile(principal, guid);
  if (binary.size > MAX_JSON_FILE_BYTES) {
    throw new BadRequestError(`file of ${binary.size} bytes is over the JSON limit`);
  }
  const bytes = await objects.getObject(binary.objectKey);
  const zone = callerZone(principal);
  return {
    id: binary.binaryId,
    message: messages.fileRetrieved(binary.fileName),
    response: {
      ReferenceId: binary.referenceId,
      BinaryType: 'Attachments',
      Base64: bytes.toString('base64'),
      Guid: binary.guid,
      FileName: binary.fileName,
      Extension: binary.extension,
      Size: binary.size,
      ContentType: binary.contentType,
      Creator: binary.creator,
      Updator: binary.updator,
      CreatedTime: formatLocal(binary.createdAt, zone),
      UpdatedTime: formatLocal(binary.updatedAt, zone),
    },
  };
}

/**
 * A file the caller may read (reference/pleasanter-behaviour.md §4.6): read permission on the site of its
 * ReferenceId (a site, or a record's site), or, while it is attached nowhere, being its uploader. Anything
 * else is a 404, so that a GUID's existence leaks to no one who may not read it.
 */
export async function readableFile(principal: Principal, guid: string): Promise<Binary> {
  const binary = GUID.test(guid.toUpperCase())
    ? await repository.getBinary(principal.tenantId, guid.toUpperCase())
    : undefined;
  if (!binary) throw new NotFoundError(`no file ${guid} in tenant ${principal.tenantId}`);
  if (!binary.attached && binary.creator === principal.userId) return binary;
  if (await canReadReference(principal, binary.referenceId)) return binary;
  throw new NotFoundError(`user ${principal.userId} may not read file ${guid}`);
}

const GUID = /^[0-9A-F]{32}$/;

/** Read on the site a file belongs to, or on its record (the site's Read or the record's own rows). */
async function canReadReference(principal: Principal, id: number): Promise<boolean> {
  const item = await records.findItem(principal.tenantId, id);
  if (item?.kind === 'site') return ((await sitePermission(principal, item.site)) & Permission.Read) !== 0;
  if (item?.kind !== 'record') return false;
  const site = await siteInTenant(principal, item.record.siteId).catch(() => undefined);
  return site !== undefined && canOnRecord(principal, site, item.record, Permission.Read);
}

/** The path GUID of `{guid}/upload`: a file the caller can read, attached to a record. */
async function attachedFile(principal: Principal, guid: string): Promise<{ binary: Binary }> {
  const binary = await readableFile(principal, guid);
  if (!binary.attached) throw new NotFoundError(`file ${guid} is attached to no record`);
  return { binary };
}

/** The record may take an upload from the caller: 404 unless readable, 405 when locked, 403 without Update. */
async function writableRecord(principal: Principal, recordId: number) {
  const { site, record } = await recordInTenant(principal, recordId);
  const bits = await recordPermission(principal, site, record);
  if (!(bits & Permission.Read)) throw new NotFoundError(`user ${principal.userId} cannot read ${recordId}`);
  await requireUnlocked(principal, record);
  if (!(bits & Permission.Update)) {
    throw new ForbiddenError(`user ${principal.userId} lacks Update on record ${recordId}`);
  }
  return { site, record };
}

/**
 * The end of a `{guid}/upload`: the record's column takes the new content, as a record update does. Run
 * again when the last chunk is resent, it finds its own work done and answers the same.
 */
async function storeInRecord(
  principal: Principal,
  pathGuid: string,
  stored: StoredFile,
  overwrite: boolean,
): Promise<Answer> {
  const current = await repository.getBinary(principal.tenantId, pathGuid);
  if (!current?.attached) throw new NotFoundError(`file ${pathGuid} is attached to no record`);
  const { site, record } = await writableRecord(principal, current.referenceId);
  const done = overwrite
    ? current.objectKey === stored.objectKey
    : (await repository.getBinary(principal.tenantId, stored.guid)) !== undefined;
  if (done) return { id: record.recordId, message: messages.updated(record.title) };

  const limits = await useApiCall(site);
  const column = Object.entries(record.fields.Attachments).find(([, entries]) =>
    entries.some((entry) => entry.Guid.toUpperCase() === pathGuid),
  )?.[0];
  if (!column) throw new NotFoundError(`file ${pathGuid} is in no column of record ${record.recordId}`);

  const time = now();
  const replacing = columnSettings(site, column).overwriteSameFileName;
  const row: Binary = overwrite
    ? { ...current, ...rowOf(stored, principal, time) }
    : {
        ...rowOf(stored, principal, time),
        binaryId: await repository.nextBinaryId(),
        referenceId: record.recordId,
        attached: true,
        creator: principal.userId,
        createdAt: time,
      };
  // Entries the new file replaces: its own GUID's when overwriting; with OverwriteSameFileName, the path
  // GUID's and any of the same name.
  const replaced = (entry: Attachment) => {
    const guid = entry.Guid.toUpperCase();
    if (guid === row.guid) return true;
    return replacing && (guid === pathGuid || entry.Name === stored.fileName);
  };
  const entries = record.fields.Attachments[column] ?? [];
  const kept = entries.filter((entry) => !replaced(entry));
  const list = [...kept, entryOf(row)];
  checkColumnLimits(site, column, list);

  const dropped: Binary[] = [];
  for (const entry of entries) {
    const guid = entry.Guid.toUpperCase();
    if (!replaced(entry) || guid === row.guid) continue;
    const binary = await repository.getBinary(principal.tenantId, guid);
    if (binary?.attached && binary.referenceId === record.recordId) dropped.push(binary);
  }
  const after: ItemRecord = {
    ...record,
    fields: { ...record.fields, Attachments: { ...record.fields.Attachments, [column]: list } },
    updator: principal.userId,
    updatedAt: time,
    ver: record.ver + 1,
    version: nextVersion(site, record, { updator: principal.userId, time, zone: callerZone(principal) }),
  };
  await records.updateRecord(record, after, [
    overwrite ? repository.replaceContentItem(current, row) : repository.insertItem(row),
    ...dropped.map((binary) => repository.deleteItem(binary)),
  ]);
  return { id: record.recordId, message: messages.updated(after.title), ...limits };
}
