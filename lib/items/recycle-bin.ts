import { callerLanguage } from '../accounts/caller-language';
import type { Principal } from '../accounts/principal';
import { ApiError, NotFoundError } from '../errors';
import { messages } from '../messages';
import type { Outcome } from '../results';
import type { Site } from '../sites/model';
import { Permission, rowsPermission, sitePermission } from '../sites/permissions';
import {
  type Locator,
  locate,
  recordEntries,
  recordEntry,
  siteEntry,
  storedItemOf,
  unbinWrites,
} from '../sites/recycle-bin-store';
import { getSite, insertSite, toSite } from '../sites/repository';
import { paged } from './history';
import { expireVersions } from './history-store';
import type { ItemRecord } from './model';
import { tableDesign } from './record-design';
import { canOnRecord, type SiteAccess } from './record-permissions';
import * as repository from './record-repository';
import { type Selection, selectVisible } from './record-select';
import { uniquenessWrites } from './record-unique';
import type { CompiledView } from './view/view';

/**
 * The recycle bin (CONTRACT 15): `POST /api/items/{id}/restore` brings back a deleted record, or a site
 * deleted with `deletesite` with its subtree and the records deleted with it, under the same ids. A
 * restore puts the stored item back as it was (values, attachments' metadata: the files never left S3;
 * its history rows lose the TTL the deletion gave them) and takes its NoDuplication values, record
 * permission rows and site counts again; the Items stream then brings the search index and the site-name
 * index up to date, and sends no notification (lib/notifications/record-notices.ts skips `Restored`).
 */

/** 400 for an id that is current, or a record whose site is itself in the bin: the message says what to do. */
export class NotRestorableError extends ApiError {
  constructor(why: string) {
    super(400, messages.invalidRequestNaming(why), why, undefined, [{ Problem: why }]);
  }
}

export async function restoreItem(principal: Principal, id: number): Promise<Outcome> {
  const located = await locate(principal.tenantId, id);
  if (!located) {
    if (await repository.findItem(principal.tenantId, id)) {
      throw new NotRestorableError(`${id} is not in the recycle bin: it has not been deleted.`);
    }
    throw new NotFoundError(`no deleted item ${id} in tenant ${principal.tenantId}`);
  }
  const count =
    located.kind === 'site'
      ? await restoreSite(principal, id, located)
      : await restoreOne(principal, id, located);
  return { id, message: messages.restored(count) };
}

/** A deleted record, into its site, which must be current: the Delete permission on it, as the reference's UI. */
async function restoreOne(principal: Principal, id: number, located: Locator): Promise<number> {
  const site = await getSite(principal.tenantId, located.siteId);
  const entry = await recordEntry(principal.tenantId, located.siteId, id);
  if (!entry) throw new NotFoundError(`record ${id} left the recycle bin meanwhile`);
  if (!site || site.deleting) {
    if (located.siteDeletion === undefined)
      throw new NotFoundError(`site ${located.siteId} of ${id} is gone`);
    throw new NotRestorableError(
      `record ${id} was deleted with the site ${located.siteDeletion}: restore that site (POST /api/items/${located.siteDeletion}/restore), which brings its records back.`,
    );
  }
  const record = repository.toRecord(storedItemOf(entry));
  // A caller who could not read it learns nothing of it; one who could but may not delete is refused.
  if (!(await canOnRecord(principal, site, record, Permission.Read)))
    throw new NotFoundError(`user ${principal.userId} may not read deleted ${id}`);
  if (!(await canOnRecord(principal, site, record, Permission.Delete)))
    throw new NotRestorableForbidden(principal, id);
  await putBack(principal, site, entry);
  return 1;
}

class NotRestorableForbidden extends ApiError {
  constructor(principal: Principal, id: number) {
    super(403, messages.hasNotPermission, `user ${principal.userId} may not delete, so not restore, ${id}`);
  }
}

/** One binned record back into `site`: its history kept for good first, so a failure loses nothing. */
async function putBack(principal: Principal, site: Site, entry: Record<string, unknown>): Promise<void> {
  const record = repository.toRecord(storedItemOf(entry));
  await expireVersions(record.tenantId, record.siteId, record.recordId, undefined);
  const design = tableDesign(site, callerLanguage(principal));
  const taken = await uniquenessWrites(design.unique, undefined, record);
  await repository.restoreRecord(record, [...taken, ...unbinWrites(entry)]);
}

/**
 * A site deleted with `deletesite`, with every site of its subtree and the records deleted with them
 * (records deleted one by one before stay in the bin, restorable on their own once their site is back).
 * Only the site the deletion named may be restored, into a current parent, by one holding ManageSite on it.
 */
async function restoreSite(principal: Principal, siteId: number, located: Locator): Promise<number> {
  const { tenantId } = principal;
  if (located.siteDeletion !== siteId) {
    throw new NotRestorableError(
      `site ${siteId} was deleted with the site ${located.siteDeletion}: restore that site, which brings its subtree back.`,
    );
  }
  const entry = await siteEntry(tenantId, siteId);
  if (!entry) throw new NotFoundError(`site ${siteId} left the recycle bin meanwhile`);
  const root = toSite(storedItemOf(entry));
  if (root.parentId !== 0) {
    const parent = await getSite(tenantId, root.parentId);
    if (!parent || parent.deleting) {
      throw new NotRestorableError(
        `the parent site ${root.parentId} of site ${siteId} is deleted: restore it first.`,
      );
    }
  }
  if (!((await sitePermission(principal, root)) & Permission.ManageSite)) {
    throw new NotRestorableForbidden(principal, siteId);
  }
  // Top-down, so each site's parent is current when it is put back.
  const subtree = Array.isArray(entry.Subtree) ? entry.Subtree.map(Number) : [siteId];
  let count = 0;
  for (const id of subtree) {
    const kept = id === siteId ? entry : await siteEntry(tenantId, id);
    if (!kept || kept.SiteDeletion !== siteId) continue;
    const site = { ...toSite(storedItemOf(kept)), deleting: false };
    if (!(await getSite(tenantId, id))) await insertSite(site);
    await repository.unbin(unbinWrites(kept));
    count++;
    for await (const record of recordEntries(tenantId, id)) {
      if (record.SiteDeletion !== siteId) continue;
      await putBack(principal, site, record);
      count++;
    }
  }
  return count;
}

/**
 * What a `TableType: Deleted` read of a site selects from (the View then filters, sorts and pages them):
 * its binned records the caller could read, by the site's Read or the record's own rows.
 */
export async function deletedRecordsOf(principal: Principal, site: Site): Promise<ItemRecord[]> {
  const wholeSite = ((await sitePermission(principal, site)) & Permission.Read) !== 0;
  const records: ItemRecord[] = [];
  for await (const entry of recordEntries(site.tenantId, site.siteId)) {
    const record = deletedRecord(entry);
    if (wholeSite || (await rowsPermission(principal, record.permissions ?? [])) & Permission.Read)
      records.push(record);
  }
  return records;
}

/**
 * What a Deleted or NormalAndDeleted read of a table selects: the site's deleted records the caller could
 * read (and for NormalAndDeleted the current ones the read shows), filtered, sorted and paged by the View.
 * The whole bin of the site is read: it is for finding what to restore, not for a grid.
 */
export async function siteDeletedSelection(
  tableType: 'Deleted' | 'NormalAndDeleted',
  principal: Principal,
  site: Site,
  access: SiteAccess,
  view: CompiledView,
  paging: { offset: number; pageSize: number },
): Promise<Selection> {
  const rows: ItemRecord[] = [];
  if (tableType === 'NormalAndDeleted') {
    const all = { offset: 0, pageSize: Number.MAX_SAFE_INTEGER };
    rows.push(...(await selectVisible(access.readable, access.granted, view, all)).page);
  }
  rows.push(...(await deletedRecordsOf(principal, site)).filter(view.filter));
  return paged(rows, view, paging);
}

/** A binned record as a record, with when and by whom it was deleted. */
export function deletedRecord(entry: Record<string, unknown>): ItemRecord {
  return repository.toRecord(storedItemOf(entry));
}

/** A deleted record by id, if the bin holds it in a current site: what a `TableType: Deleted` read of a record answers. */
export async function deletedRecordById(
  principal: Principal,
  id: number,
): Promise<{ site: Site; record: ItemRecord } | undefined> {
  const located = await locate(principal.tenantId, id);
  if (located?.kind !== 'record') return undefined;
  const [site, entry] = await Promise.all([
    getSite(principal.tenantId, located.siteId),
    recordEntry(principal.tenantId, located.siteId, id),
  ]);
  if (!site || site.deleting || !entry) return undefined;
  return { site, record: deletedRecord(entry) };
}

/**
 * `bulkdelete` with `PhysicalDelete: true` (reference: purges from the deleted table): the records just
 * deleted and the site's binned records the selection names leave the bin for good; the bin's stream then
 * removes their files and history (functions/recycle-bin.ts). How many were purged.
 */
export async function purgeFromBin(site: Site, select: (record: ItemRecord) => boolean): Promise<number> {
  let purged = 0;
  for await (const entry of recordEntries(site.tenantId, site.siteId)) {
    if (!select(deletedRecord(entry))) continue;
    await repository.unbin(unbinWrites(entry));
    purged++;
  }
  return purged;
}
