import type { Principal } from '../accounts/principal';
import { getUser } from '../accounts/repository';
import { now } from '../clock';
import { BadRequestError, LockedRecordError, NotFoundError } from '../errors';
import { messages } from '../messages';
import type { Outcome, Reading } from '../results';
import { useApiCall } from '../sites/api-limit';
import { integratedSites } from '../sites/integrated-sites';
import { recordHolders, type Site } from '../sites/model';
import { Permission, requirePermission, siteInTenant } from '../sites/permissions';
import { nextItemId } from '../sites/store';
import { retryOnConcurrentChange } from '../storage/retry';
import { planAttachments } from './attachments';
import type { ItemRecord } from './model';
import { mergeFields } from './record-fields';
import { recordCountOf, recordPageOf } from './record-pages';
import * as repository from './record-repository';
import { loadingAll, noScripts, type RecordScripts } from './record-scripts';
import type { RecordWriteInput } from './schemas';
import { recordView } from './views';

/** The reference's Api.PageSize: the most records one read returns. */
export const PAGE_SIZE = 200;

export async function createRecord(
  principal: Principal,
  siteId: number,
  input: RecordWriteInput,
  scripts: RecordScripts = noScripts,
): Promise<Outcome> {
  const site = await siteInTenant(principal, siteId);
  requireRecordHolder(site);
  await requirePermission(principal, site, Permission.Create);
  const limits = await useApiCall(site);
  const time = now();
  const recordId = await nextItemId();
  const fields = mergeFields(input);
  const files = await planAttachments(
    principal,
    site,
    recordId,
    undefined,
    fields.Attachments,
    [input.Body, ...Object.values(fields.Description)],
    time,
  );
  const draft: ItemRecord = {
    recordId,
    tenantId: principal.tenantId,
    siteId,
    title: input.Title ?? '',
    body: input.Body,
    status: input.Status,
    fields: { ...fields, Attachments: files.columns },
    locked: input.Locked ?? false,
    ...(input.Locked && { lockedBy: principal.userId, lockedAt: time }),
    creator: principal.userId,
    updator: principal.userId,
    createdAt: time,
    updatedAt: time,
    ver: 1,
  };
  const record = await scripts.before('BeforeCreate', site, draft);
  await retryOnConcurrentChange(() => repository.insertRecord(record, files.items));
  await scripts.after('AfterCreate', site, record);
  return { id: record.recordId, message: messages.created(record.title), ...limits };
}

/**
 * `items/{id}/get`: one record, or, when {id} is a site, a page of its records and its integrated sites'
 * records, in id order.
 */
export async function readItem(
  principal: Principal,
  id: number,
  paging: { Offset?: number; PageSize?: number },
  scripts: RecordScripts = noScripts,
): Promise<Reading> {
  const item = await repository.findItem(principal.tenantId, id);
  if (!item) throw new NotFoundError(`no item ${id} in tenant ${principal.tenantId}`);
  const site = item.kind === 'site' ? item.site : await siteInTenant(principal, item.record.siteId);
  requireRecordHolder(site);
  await requirePermission(principal, site, Permission.Read);
  const limits = await useApiCall(site);
  const pageSize = paging.PageSize ?? PAGE_SIZE;
  // A site's read shows its integrated sites' records too; they are all of its kind, so one view fits.
  const sites = item.kind === 'site' ? await integratedSites(principal, site) : [];
  const response =
    item.kind === 'record'
      ? {
          Offset: 0,
          PageSize: pageSize,
          TotalCount: 1,
          Data: [recordView(site, await scripts.loading(site, item.record))],
        }
      : {
          Offset: paging.Offset ?? 0,
          PageSize: pageSize,
          TotalCount: await recordCountOf(sites),
          Data: (
            await loadingAll(scripts, sites, await recordPageOf(sites, paging.Offset ?? 0, pageSize))
          ).map((record) => recordView(site, record)),
        };
  return { response, limits };
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
  await requirePermission(principal, site, Permission.Update);
  const limits = await useApiCall(site);
  let read: ItemRecord | undefined = record;
  const title = await retryOnConcurrentChange(async () => {
    const before = read ?? (await recordInSite(principal, site, id));
    read = undefined;
    return applyUpdate(principal, site, before, input, scripts);
  });
  return { id, message: messages.updated(title), ...limits };
}

/** One read-apply-write of an update; the new title. */
async function applyUpdate(
  principal: Principal,
  site: Site,
  before: ItemRecord,
  input: RecordWriteInput,
  scripts: RecordScripts,
): Promise<string> {
  const id = before.recordId;
  await requireUnlocked(principal, before);
  const time = now();
  const locking = input.Locked === true && !before.locked;
  const locked = input.Locked ?? before.locked;
  const fields = mergeFields(input, before.fields);
  const body = input.Body ?? before.body;
  const files = await planAttachments(
    principal,
    site,
    id,
    before,
    fields.Attachments,
    [body, ...Object.values(fields.Description)],
    time,
  );
  const draft: ItemRecord = {
    ...before,
    title: input.Title ?? before.title,
    body,
    status: input.Status ?? before.status,
    fields: { ...fields, Attachments: files.columns },
    locked,
    lockedBy: locking ? principal.userId : locked ? before.lockedBy : undefined,
    lockedAt: locking ? time : locked ? before.lockedAt : undefined,
    updator: principal.userId,
    updatedAt: time,
    ver: before.ver + 1,
  };
  const after = await scripts.before('BeforeUpdate', site, draft, before);
  await repository.updateRecord(before, after, files.items);
  await scripts.after('AfterUpdate', site, after, before);
  return after.title;
}

export async function deleteRecord(
  principal: Principal,
  id: number,
  scripts: RecordScripts = noScripts,
): Promise<Outcome> {
  const { site, record: first } = await recordInTenant(principal, id);
  await requirePermission(principal, site, Permission.Delete);
  const limits = await useApiCall(site);
  let read: ItemRecord | undefined = first;
  const title = await retryOnConcurrentChange(async () => {
    const record = read ?? (await recordInSite(principal, site, id));
    read = undefined;
    await requireUnlocked(principal, record);
    // Its files go through the Items stream (functions/record-files.ts), for deletesite's records alike.
    await scripts.before('BeforeDelete', site, record);
    await repository.deleteRecord(record);
    await scripts.after('AfterDelete', site, record);
    return record.title;
  });
  return { id, message: messages.deleted(title), ...limits };
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

/** Folders and dashboards hold no records: the reference answers BadRequest for their record calls. */
function requireRecordHolder(site: Site): void {
  if (!recordHolders.has(site.referenceType)) {
    throw new BadRequestError(`site ${site.siteId} (${site.referenceType}) holds no records`);
  }
}

/**
 * A locked record refuses changes (update, delete; uploads later) from anyone but the user who locked it;
 * tenant managers and privileged users may still change or unlock it. The time is ISO 8601 UTC.
 */
export async function requireUnlocked(principal: Principal, record: ItemRecord): Promise<void> {
  if (!record.locked || record.lockedBy === principal.userId) return;
  if (principal.tenantManager || principal.privileged) return;
  const locker = record.lockedBy === undefined ? undefined : await getUser(record.lockedBy);
  const time = new Date(record.lockedAt ?? record.updatedAt).toISOString();
  throw new LockedRecordError(record.recordId, locker?.name ?? `User,${record.lockedBy}`, time);
}
