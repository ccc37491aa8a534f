import type { Principal } from '../accounts/principal';
import { ForbiddenError } from '../errors';
import { integratedSiteCandidates } from '../sites/integrated-sites';
import { itemKeys } from '../sites/keys';
import type { Site } from '../sites/model';
import { Permission, rowsPermission, sitePermission } from '../sites/permissions';
import { checkPermissionEntries } from '../sites/rules';
import type { ItemRecord } from './model';
import { recordsWithRows } from './record-permission-rows';
import { recordsByKeys } from './record-repository';

/**
 * Record-level permissions (CONTRACT 5.1; the reference's Permissions rows whose ReferenceId is a record):
 * a record's own rows, OR-ed with its site's permission, so that they widen what a caller may do with that
 * one record and never narrow it. Every read and write path of records asks here.
 */

/** A site without its SiteSettings, as sitesOfTenant lists them. */
type SiteRef = Omit<Site, 'siteSettings'>;

/** The caller's bits on one record: the site's, and the record's own rows. Another tenant's gives 0. */
export async function recordPermission(
  principal: Principal,
  site: Site,
  record: ItemRecord,
): Promise<number> {
  if (record.tenantId !== principal.tenantId || record.siteId !== site.siteId) return 0;
  const [onSite, onRecord] = await Promise.all([
    sitePermission(principal, site),
    rowsPermission(principal, record.permissions ?? []),
  ]);
  return onSite | onRecord;
}

/** Whether the caller holds every flag of `needed` on the record. */
export async function canOnRecord(
  principal: Principal,
  site: Site,
  record: ItemRecord,
  needed: number,
): Promise<boolean> {
  return ((await recordPermission(principal, site, record)) & needed) === needed;
}

/** Refuses with 403 unless the caller holds every flag of `needed` on the record. */
export async function requireOnRecord(
  principal: Principal,
  site: Site,
  record: ItemRecord,
  needed: number,
): Promise<void> {
  const bits = await recordPermission(principal, site, record);
  if ((bits & needed) !== needed) {
    throw new ForbiddenError(
      `user ${principal.userId} lacks ${needed} on record ${record.recordId} (has ${bits})`,
    );
  }
}

/**
 * The records of `site` whose own rows give the caller `needed`, in id order: what a caller without that
 * flag on the site may still reach. One query of the rows kept beside the site, then the records by key,
 * each judged again by the rows it carries itself.
 */
export async function grantedRecords(
  principal: Principal,
  site: Site,
  needed: number,
): Promise<ItemRecord[]> {
  const granted = await grantedIds(principal, site, needed);
  if (granted.length === 0) return [];
  const records = await recordsByKeys(granted.map((id) => itemKeys.item(site.tenantId, id)));
  const kept: ItemRecord[] = [];
  for (const record of records) {
    const bits = await rowsPermission(principal, record.permissions ?? []);
    if (record.siteId === site.siteId && (bits & needed) === needed) kept.push(record);
  }
  return kept;
}

async function grantedIds(principal: Principal, site: SiteRef, needed: number): Promise<number[]> {
  if (site.tenantId !== principal.tenantId) return [];
  const ids: number[] = [];
  for (const { recordId, rows } of await recordsWithRows(site)) {
    if (((await rowsPermission(principal, rows)) & needed) === needed) ids.push(recordId);
  }
  return ids;
}

export interface SiteAccess {
  /** The site and its integrated sites (all of its kind). */
  readonly sites: readonly Site[];
  readonly siteIds: readonly number[];
  /** Those whose records the caller may all read. */
  readonly readable: readonly Site[];
  /** Records of the others that their own rows let the caller read. */
  readonly granted: readonly ItemRecord[];
}

/**
 * What a table's read may show the caller (reference Permissions.SetCanReadWhere): the records of the site
 * and of its integrated sites they may read at site level, and of the others only the records their own
 * rows let them read. Undefined when the caller may read neither the site nor any record of it.
 */
export async function readableInSite(principal: Principal, site: Site): Promise<SiteAccess | undefined> {
  const candidates = await integratedSiteCandidates(site);
  const readable: Site[] = [];
  const granted: ItemRecord[] = [];
  let own = false;
  for (const candidate of candidates) {
    if ((await sitePermission(principal, candidate)) & Permission.Read) {
      readable.push(candidate);
      own ||= candidate.siteId === site.siteId;
      continue;
    }
    const records = await grantedRecords(principal, candidate, Permission.Read);
    granted.push(...records);
    own ||= candidate.siteId === site.siteId && records.length > 0;
  }
  if (!own) return undefined;
  const sites = [...readable, ...candidates.filter((each) => !readable.includes(each))];
  return { sites, siteIds: sites.map((each) => each.siteId), readable, granted };
}

export interface ReadableRecords {
  /** Whether the caller may read the record (or, given a site's own id twice, the site). */
  readonly canRead: (siteId: number, recordId: number) => boolean;
}

/**
 * What the caller may read among items known by id (for the search index, which holds ids and site ids,
 * not records): every record of a site they may read, and the records of other sites whose own rows give
 * them Read. `sites` are the sites whose records may be asked about (sitesOfTenant's will do: permissions
 * read no SiteSettings).
 */
export async function readableRecords(
  principal: Principal,
  sites: readonly SiteRef[],
): Promise<ReadableRecords> {
  const wholeSites = new Set<number>();
  const single = new Set<number>();
  await Promise.all(
    sites.map(async (site) => {
      if ((await sitePermission(principal, site as Site)) & Permission.Read) wholeSites.add(site.siteId);
      else for (const id of await grantedIds(principal, site, Permission.Read)) single.add(id);
    }),
  );
  return { canRead: (siteId, recordId) => wholeSites.has(siteId) || single.has(recordId) };
}

/**
 * RecordPermissions of an update (reference 4): ManagePermission on the record (the site's or its own) and
 * rows naming the tenant's own users, groups and depts; they replace every row the record had. A bad row is
 * a 400 naming RecordPermissions (the reference skips it: a row silently dropped is a grant that never was).
 */
export async function checkedRecordPermissions(
  principal: Principal,
  site: Site,
  record: ItemRecord,
  rows: readonly string[],
): Promise<readonly string[]> {
  await requireOnRecord(principal, site, record, Permission.ManagePermission);
  await checkPermissionEntries(principal, rows, 'RecordPermissions');
  return [...new Set(rows)];
}
