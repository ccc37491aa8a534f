import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { getUser } from '../accounts/repository';
import { now } from '../clock';
import {
  BadRequestError,
  ForbiddenError,
  LockedRecordError,
  NotFoundError,
  UnsupportedInputError,
} from '../errors';
import { discardingOnFailure } from '../files/inline-files';
import { messages } from '../messages';
import type { Outcome } from '../results';
import { useApiCall } from '../sites/api-limit';
import { recordHolders, type Site } from '../sites/model';
import { Permission, siteInTenant, sitePermission } from '../sites/permissions';
import { nextItemId } from '../sites/store';
import { retryOnConcurrentChange } from '../storage/retry';
import { formatLocal } from '../zoned-time';
import { MAX_FILE_CHANGES, planAttachments } from './attachments';
import { type Comment, type ItemRecord, itemTitleOf } from './model';
import { checkedWrite, deletionWrites, designedNewRecord, designedRecord } from './record-design';
import { mergeFields } from './record-fields';
import {
  type CheckedImage,
  checkedImages,
  type ImageInput,
  type RecordTexts,
  withImages,
} from './record-images';
import { deleteChildren, linkedChildren } from './record-links';
import { peopleAndTimes } from './record-people-and-times';
import { checkedRecordPermissions, requireOnRecord } from './record-permissions';
import type { TransactItem } from './record-repository';
import * as repository from './record-repository';
import { noScripts, type RecordScripts } from './record-scripts';
import { nextVersion } from './record-versions';
import type { RecordWriteInput } from './schemas';

/**
 * `recordId`: an id reserved beforehand with nextItemId (a server script's create held for the save of its
 * Before condition answers the id before the record exists, lib/scripts/calls/item-writes.ts).
 */
export async function createRecord(
  principal: Principal,
  siteId: number,
  input: RecordWriteInput,
  scripts: RecordScripts = noScripts,
  recordId?: number,
): Promise<Outcome> {
  const site = await siteInTenant(principal, siteId);
  requireRecordHolder(site);
  await requireCreator(principal, site);
  const limits = await useApiCall(site);
  const record = await insertNewRecord(principal, site, input, scripts, undefined, recordId);
  return { id: record.recordId, message: messages.created(itemTitleOf(record)), ...limits };
}

/**
 * A create once checked and counted, with its scripts: the record as saved. An upsert's key `claim` is
 * written with it; a lost claim is not retried here, since the upsert must match again (lib/items/upsert.ts).
 */
export async function insertNewRecord(
  principal: Principal,
  site: Site,
  input: RecordWriteInput,
  scripts: RecordScripts,
  claim?: (recordId: number) => TransactItem,
  recordId?: number,
): Promise<ItemRecord> {
  const id = recordId ?? (await nextItemId());
  const { record: draft, extra } = await newRecord(principal, site, input, id, now());
  const record = await discardingOnFailure(
    () => extra,
    async () => {
      const checked = await scripts.before('BeforeCreate', site, draft);
      const parts = [...extra, ...(await checkedWrite(principal, site, undefined, checked))];
      const insert = () => repository.insertRecord(checked, parts, claim?.(checked.recordId));
      await (claim ? insert() : retryOnConcurrentChange(insert));
      return checked;
    },
  );
  await scripts.after('AfterCreate', site, record);
  return record;
}

/**
 * The permission is checked and the call counted once; the read-apply-write runs again when another
 * request changed the record in between (CONTRACT section 5: a lost race is retried, never a 404), so
 * that each of many concurrent updates applies whole, on the record as the one before it left it.
 */
export async function updateRecord(
  principal: Principal,
  id: number,
  input: RecordWriteInput,
  scripts: RecordScripts = noScripts,
): Promise<Outcome> {
  const { site, record } = await recordInTenant(principal, id);
  await requireOnRecord(principal, site, record, Permission.Update);
  const limits = await useApiCall(site);
  const after = await applyUpdate(principal, site, record, input, scripts);
  return { id, message: messages.updated(itemTitleOf(after)), ...limits };
}

/** An update once checked and counted, with its scripts, from `record` as read: the record as saved. */
export async function applyUpdate(
  principal: Principal,
  site: Site,
  record: ItemRecord,
  input: RecordWriteInput,
  scripts: RecordScripts,
): Promise<ItemRecord> {
  let read: ItemRecord | undefined = record;
  return retryOnConcurrentChange(async () => {
    const before = read ?? (await recordInSite(principal, site, record.recordId));
    read = undefined;
    await requireUnlocked(principal, before);
    const { after: draft, extra } = await changedRecord(principal, site, before, input, now());
    const after = await discardingOnFailure(
      () => extra,
      async () => {
        const checked = await scripts.before('BeforeUpdate', site, draft, before);
        const unique = await checkedWrite(principal, site, before, checked);
        await repository.updateRecord(before, checked, [...extra, ...unique]);
        return checked;
      },
    );
    await scripts.after('AfterUpdate', site, after, before);
    return after;
  });
}

/** What a write's fields become, checked: a field Kiroku cannot store is refused before anything is. */
export function checkedInput(principal: Principal, site: Site, input: RecordWriteInput, before?: ItemRecord) {
  refuseMissingFeatures(input);
  const zone = callerZone(principal);
  return {
    fields: mergeFields(input, zone, before?.fields),
    people: peopleAndTimes(site, input, zone, before),
    images: checkedImages(input.ImageHash as Record<string, ImageInput> | null | undefined),
  };
}

/**
 * The write's texts with its images in, its attachment columns, and the writes of the files it takes or
 * lets go; the images' files are discarded again when the attachments are refused.
 */
async function textsAndFiles(
  principal: Principal,
  site: Site,
  recordId: number,
  before: ItemRecord | undefined,
  attachments: ItemRecord['fields']['Attachments'],
  images: readonly CheckedImage[],
  given: RecordTexts,
  time: number,
) {
  const { texts, items } = await withImages(principal, recordId, images, given, time);
  return discardingOnFailure(
    () => items,
    async () => {
      const bodies = [texts.body, ...Object.values(texts.descriptions)];
      const files = await planAttachments(principal, site, recordId, before, attachments, bodies, time);
      const extra = [...items, ...files.items];
      if (extra.length > MAX_FILE_CHANGES) {
        throw new BadRequestError(`${extra.length} file changes in one write; at most ${MAX_FILE_CHANGES}`);
      }
      return { texts, columns: files.columns, extra };
    },
  );
}

/** A new record of the site from a create body, and the writes of the files it takes. */
export async function newRecord(
  principal: Principal,
  site: Site,
  input: RecordWriteInput,
  recordId: number,
  time: number,
): Promise<{ record: ItemRecord; extra: TransactItem[] }> {
  const { fields, people, images } = checkedInput(principal, site, input);
  const given = { body: input.Body, comment: input.Comments, descriptions: fields.Description };
  const { texts, columns, extra } = await textsAndFiles(
    principal,
    site,
    recordId,
    undefined,
    fields.Attachments,
    images,
    given,
    time,
  );
  const built: ItemRecord = {
    recordId,
    tenantId: principal.tenantId,
    siteId: site.siteId,
    title: input.Title ?? '',
    body: texts.body,
    status: input.Status,
    ...people,
    comments: withComment(undefined, texts.comment, principal, time),
    fields: { ...fields, Description: { ...texts.descriptions }, Attachments: columns },
    locked: input.Locked ?? false,
    ...(input.Locked && { lockedBy: principal.userId, lockedAt: time }),
    creator: principal.userId,
    updator: principal.userId,
    createdAt: time,
    updatedAt: time,
    ver: 1,
    version: 1,
  };
  return { record: await designedNewRecord(principal, site, input, built), extra };
}

/** The record after an update body, and the writes of the files it takes or lets go. */
export async function changedRecord(
  principal: Principal,
  site: Site,
  before: ItemRecord,
  input: RecordWriteInput,
  time: number,
): Promise<{ after: ItemRecord; extra: TransactItem[] }> {
  const locking = input.Locked === true && !before.locked;
  const locked = input.Locked ?? before.locked;
  const { fields, people, images } = checkedInput(principal, site, input, before);
  const permissions = input.RecordPermissions
    ? await checkedRecordPermissions(principal, site, before, input.RecordPermissions)
    : before.permissions;
  const given = {
    body: input.Body ?? before.body,
    comment: input.Comments,
    descriptions: fields.Description,
  };
  const { texts, columns, extra } = await textsAndFiles(
    principal,
    site,
    before.recordId,
    before,
    fields.Attachments,
    images,
    given,
    time,
  );
  const changed: ItemRecord = {
    ...before,
    title: input.Title ?? before.title,
    body: texts.body,
    status: input.Status ?? before.status,
    ...people,
    comments: withComment(before.comments, texts.comment, principal, time),
    fields: { ...fields, Description: { ...texts.descriptions }, Attachments: columns },
    permissions: permissions?.length ? permissions : undefined,
    locked,
    lockedBy: locking ? principal.userId : locked ? before.lockedBy : undefined,
    lockedAt: locking ? time : locked ? before.lockedAt : undefined,
    updator: principal.userId,
    updatedAt: time,
    ver: before.ver + 1,
    version: nextVersion(site, before, {
      updator: principal.userId,
      time,
      zone: callerZone(principal),
      verUp: input.VerUp === true,
    }),
  };
  return { after: await designedRecord(principal, site, changed), extra };
}

export async function deleteRecord(
  principal: Principal,
  id: number,
  scripts: RecordScripts = noScripts,
): Promise<Outcome> {
  const { site, record: first } = await recordInTenant(principal, id);
  await requireOnRecord(principal, site, first, Permission.Delete);
  const limits = await useApiCall(site);
  let read: ItemRecord | undefined = first;
  const title = await retryOnConcurrentChange(async () => {
    const record = read ?? (await recordInSite(principal, site, id));
    read = undefined;
    await requireUnlocked(principal, record);
    const children = await linkedChildren(principal, site, [record]);
    // Its files go through the Items stream (functions/record-files.ts), for deletesite's records alike.
    await scripts.before('BeforeDelete', site, record);
    // The children first: a parent whose deletion then fails is still there for the retry to find.
    await deleteChildren(principal, children);
    await repository.deleteRecord(record, await deletionWrites(principal, site, record));
    await scripts.after('AfterDelete', site, record);
    return itemTitleOf(record);
  });
  return { id, message: messages.deleted(title), ...limits };
}

/**
 * Create on the site: a caller who cannot even read it is answered as if it did not exist (404, as the
 * reference and `get` answer), one who reads it but may not create gets 403.
 */
export async function requireCreator(principal: Principal, site: Site): Promise<void> {
  const bits = await sitePermission(principal, site);
  if (!(bits & Permission.Read))
    throw new NotFoundError(`user ${principal.userId} may not read site ${site.siteId}`);
  if (!(bits & Permission.Create)) {
    throw new ForbiddenError(`user ${principal.userId} lacks Create on site ${site.siteId} (has ${bits})`);
  }
}

/** The record again, still in the site already checked: a record moved or gone since is a 404. */
async function recordInSite(principal: Principal, site: Site, id: number): Promise<ItemRecord> {
  const item = await repository.findItem(principal.tenantId, id);
  if (item?.kind !== 'record' || item.record.siteId !== site.siteId)
    throw new NotFoundError(`no record ${id} in site ${site.siteId}`);
  return item.record;
}

export async function recordInTenant(
  principal: Principal,
  id: number,
): Promise<{ site: Site; record: ItemRecord }> {
  const item = await repository.findItem(principal.tenantId, id);
  if (item?.kind !== 'record') throw new NotFoundError(`no record ${id} in tenant ${principal.tenantId}`);
  return { site: await siteInTenant(principal, item.record.siteId), record: item.record };
}

/** The comments after a write: its one new comment first, a blank one ignored (reference 4). */
function withComment(
  comments: readonly Comment[] | undefined,
  text: string | null | undefined,
  principal: Principal,
  time: number,
): readonly Comment[] | undefined {
  if (typeof text !== 'string' || text.trim() === '') return comments;
  const commentId = Math.max(0, ...(comments ?? []).map((comment) => comment.commentId)) + 1;
  return [{ commentId, createdAt: time, creator: principal.userId, body: text }, ...(comments ?? [])];
}

/**
 * Fields of features Kiroku does not have are refused by name, never accepted and dropped. ProcessId and
 * ProcessIds are not among them: a Kiroku site holds no Processes, so the id is unknown, which in the
 * reference too has no effect.
 */
function refuseMissingFeatures(input: RecordWriteInput): void {
  for (const name of ['MigrationMode']) {
    if (input[name] !== undefined && input[name] !== null) {
      throw new UnsupportedInputError(`${name}: this feature is not available.`);
    }
  }
}

/** Folders and dashboards hold no records: the reference answers BadRequest for their record calls. */
export function requireRecordHolder(site: Site): void {
  if (!recordHolders.has(site.referenceType)) {
    throw new BadRequestError(`site ${site.siteId} (${site.referenceType}) holds no records`);
  }
}

/**
 * A locked record refuses changes (update, delete; uploads later) from anyone but the user who locked it;
 * tenant managers and privileged users may still change or unlock it. The time is in the caller's zone,
 * as every date the API answers (CONTRACT 5.1).
 */
export async function requireUnlocked(principal: Principal, record: ItemRecord): Promise<void> {
  if (!record.locked || record.lockedBy === principal.userId) return;
  if (principal.tenantManager || principal.privileged) return;
  const locker = record.lockedBy === undefined ? undefined : await getUser(record.lockedBy);
  const time = formatLocal(record.lockedAt ?? record.updatedAt, callerZone(principal));
  throw new LockedRecordError(record.recordId, locker?.name ?? `User,${record.lockedBy}`, time);
}
