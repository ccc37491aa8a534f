import type { Principal } from '../accounts/principal';
import { getUser } from '../accounts/repository';
import { now } from '../clock';
import { BadRequestError, LockedRecordError, NotFoundError } from '../errors';
import { messages } from '../messages';
import type { Outcome, Reading } from '../results';
import { useApiCall } from '../sites/api-limit';
import { integratedSites } from '../sites/integrated-sites';
import { itemKeys } from '../sites/keys';
import { recordHolders, type Site } from '../sites/model';
import { Permission, requirePermission, siteInTenant } from '../sites/permissions';
import { nextItemId } from '../sites/store';
import { planAttachments } from './attachments';
import type { ItemRecord } from './model';
import { mergeFields } from './record-fields';
import { recordCountOf, recordPageOf } from './record-pages';
import * as repository from './record-repository';
import type { RecordWriteInput } from './schemas';
import { recordView } from './views';

/** The reference's Api.PageSize: the most records one read returns. */
export const PAGE_SIZE = 200;

export async function createRecord(
  principal: Principal,
  siteId: number,
  input: RecordWriteInput,
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
  const record: ItemRecord = {
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
  await repository.insertRecord(record, files.items);
  return { id: record.recordId, message: messages.created(record.title), ...limits };
}

/**
 * `items/{id}/get`: one record, or, when {id} is a site, a page of its records and its integrated sites'
 * records, in id order.
 */
export async function readItem(
  principal: Principal,
  id: number,
  paging: { Offset?: number; PageSize?: number; View?: { Search?: string } },
  search?: RecordSearch,
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
  const searchText = paging.View?.Search;
  const response =
    item.kind === 'record'
      ? { Offset: 0, PageSize: pageSize, TotalCount: 1, Data: [recordView(site, item.record)] }
      : searchText && search
        ? await searchedPage(
            search,
            principal.tenantId,
            sites,
            searchText,
            paging.Offset ?? 0,
            pageSize,
            site,
          )
        : {
            Offset: paging.Offset ?? 0,
            PageSize: pageSize,
            TotalCount: await recordCountOf(sites),
            Data: (await recordPageOf(sites, paging.Offset ?? 0, pageSize)).map((record) =>
              recordView(site, record),
            ),
          };
  return { response, limits };
}

/**
 * View.Search's matcher: the ids, in id order, of the records of `siteIds` whose full text holds every
 * word of `text`. Given by the endpoint (lib/search sits above this layer).
 */
export type RecordSearch = (tenantId: number, siteIds: readonly number[], text: string) => Promise<number[]>;

/** View.Search: the records of `sites` that `search` finds, paged in id order. */
async function searchedPage(
  search: RecordSearch,
  tenantId: number,
  sites: readonly Site[],
  searchText: string,
  offset: number,
  pageSize: number,
  shownAs: Site,
) {
  const ids = await search(
    tenantId,
    sites.map((each) => each.siteId),
    searchText,
  );
  const page = ids.slice(offset, offset + pageSize).map((id) => itemKeys.item(tenantId, id));
  const records = await repository.recordsByKeys(page);
  return {
    Offset: offset,
    PageSize: pageSize,
    TotalCount: ids.length,
    Data: records.map((record) => recordView(shownAs, record)),
  };
}

export async function updateRecord(
  principal: Principal,
  id: number,
  input: RecordWriteInput,
): Promise<Outcome> {
  const { site, record: before } = await recordInTenant(principal, id);
  await requirePermission(principal, site, Permission.Update);
  const limits = await useApiCall(site);
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
  const after: ItemRecord = {
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
  await repository.updateRecord(before, after, files.items);
  return { id, message: messages.updated(after.title), ...limits };
}

export async function deleteRecord(principal: Principal, id: number): Promise<Outcome> {
  const { site, record } = await recordInTenant(principal, id);
  await requirePermission(principal, site, Permission.Delete);
  const limits = await useApiCall(site);
  await requireUnlocked(principal, record);
  // Its files go through the Items stream (functions/record-files.ts), for deletesite's records alike.
  await repository.deleteRecord(record);
  return { id, message: messages.deleted(record.title), ...limits };
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
