import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { tenantOfPrincipal } from '../accounts/repository';
import { now } from '../clock';
import { BadRequestError } from '../errors';
import type { ItemRecord } from '../items/model';
import { mergeFields } from '../items/record-fields';
import type { Outcome } from '../results';
import type { Site } from '../sites/model';
import { PERMISSION_ENTRY } from '../sites/model';
import { ALL_PERMISSIONS, Permission, requirePermission } from '../sites/permissions';
import { requireContainer, withCreator } from '../sites/rules';
import { refuseUnappliedSettings } from '../sites/site-settings-check';
import { reserveItemIds } from '../sites/store';
import { storedSiteSettings } from '../sites/stored-settings';
import { retryOnConcurrentChange } from '../storage/retry';
import { namesOf, remapIntegratedSites, treeOrder } from './plan';
import { insertSiteTree, stageRecords, unstageRecords } from './repository';
import type { PackageRecord, PackageSite, SitePackage } from './schemas';

/**
 * `items/{parentId}/importsitepackage` (reference SitePackages/Utilities.cs ImportSitePackage): the
 * package's sites under `parentId` (0: the top level) with new SiteIds. Permission as in the reference:
 * ManageSite on the target (at the top level: tenant managers), exactly what createsite asks there; a
 * package with records also needs Import on the target folder, standing in for the reference's tenant
 * contract switch (ContractSettings.Import). Everything is checked before anything is written, and the
 * writes make the import visible all at once or not at all (lib/packages/repository.ts).
 */
export async function importSitePackage(
  principal: Principal,
  parentId: number,
  pkg: SitePackage,
): Promise<SitesImported> {
  pkg.Sites.forEach((site, index) => {
    refuseUnappliedSettings(site.SiteSettings, `Sites[${index}].SiteSettings.`);
  });
  return importSiteForest(principal, parentId, treeOrder(pkg), pkg.Data ?? []);
}

export type SitesImported = Outcome & { data: ReturnType<typeof idChange>[] };

/**
 * Sites, parents first, under `parentId` with new SiteIds: each site whose ParentId is not one of them goes
 * directly under `parentId` (the package's one root; a copy's every selected site whose parent was not
 * selected). InheritPermission naming a site not among them means: what the new parent's sites inherit.
 */
export async function importSiteForest(
  principal: Principal,
  parentId: number,
  order: readonly PackageSite[],
  data: readonly PackageRecord[],
): Promise<SitesImported> {
  const parent = await requireContainer(principal, parentId);
  if (data.length > 0 && parent) await requirePermission(principal, parent, Permission.Import);
  const firstId = await reserveItemIds(order.length + data.length);
  const newIds = new Map(order.map((site, index) => [site.SiteId, firstId + index]));
  const rootId = firstId;
  // A site that inherited from outside the package now inherits what the new parent does: the parent's
  // permission source, or, at the top level, the new site it hangs below there, which then has its own.
  const topOf = new Map<number, number>();
  for (const site of order) {
    topOf.set(site.SiteId, topOf.get(site.ParentId) ?? (newIds.get(site.SiteId) as number));
  }
  const outside = (site: PackageSite) => parent?.inheritPermission ?? (topOf.get(site.SiteId) as number);
  const names = namesOf(order);
  const kept = keptEntries(principal);
  const time = now();
  const sites = await Promise.all(
    order.map(async (site, index): Promise<Site> => {
      const siteId = newIds.get(site.SiteId) as number;
      const inheritPermission =
        site.InheritPermission === site.SiteId
          ? siteId
          : (newIds.get(site.InheritPermission) ?? outside(site));
      const entries = await kept(site.Permissions);
      return {
        siteId,
        tenantId: principal.tenantId,
        title: site.Title,
        referenceType: site.ReferenceType,
        siteName: site.SiteName,
        siteGroupName: site.SiteGroupName,
        parentId: newIds.get(site.ParentId) ?? parentId,
        inheritPermission,
        // As the reference does, the importer manages each site that has permissions of its own.
        permissions: inheritPermission === siteId ? withCreator(entries, principal.userId) : entries,
        siteSettings: await storedSiteSettings(
          principal.tenantId,
          site.ReferenceType,
          siteId,
          remapIntegratedSites(site.SiteSettings, newIds, names),
          undefined,
          `Package.Sites[${index}].SiteSettings.`,
        ),
        creator: principal.userId,
        updator: principal.userId,
        createdAt: time,
        updatedAt: time,
        ver: 1,
      };
    }),
  );
  const records = data.map((record, index) =>
    importedRecord(principal, record, firstId + order.length + index, newIds, time),
  );
  const staged = await stageRecords(records);
  try {
    // Another write on the parent in the same moment (a child created, the parent updated) is no reason to fail.
    await retryOnConcurrentChange(() => insertSiteTree(sites, parentId));
  } catch (error) {
    await unstageRecords(staged);
    throw error;
  }
  return {
    id: rootId,
    message: `${sites.length} sites and ${records.length} records have been imported.`,
    data: order.map((site) => idChange(site, newIds)),
  };
}

function idChange(site: PackageSite, newIds: ReadonlyMap<number, number>) {
  return {
    OldSiteId: site.SiteId,
    NewSiteId: newIds.get(site.SiteId) as number,
    ReferenceType: site.ReferenceType,
    Title: site.Title,
  };
}

/**
 * A package record as a new record of the importer, unlocked: its creator, updater and locker may be
 * users of another tenant or installation, so the import owns it, as a create would.
 */
function importedRecord(
  principal: Principal,
  record: PackageRecord,
  recordId: number,
  newIds: ReadonlyMap<number, number>,
  time: number,
): ItemRecord {
  const input = record as Record<string, unknown> & { Title?: string; Body?: string; Status?: number };
  return {
    recordId,
    tenantId: principal.tenantId,
    siteId: newIds.get(record.SiteId) as number,
    title: input.Title ?? '',
    body: input.Body,
    status: input.Status,
    fields: mergeFields(input, callerZone(principal)),
    locked: false,
    creator: principal.userId,
    updator: principal.userId,
    createdAt: time,
    updatedAt: time,
    ver: 1,
    version: 1,
  };
}

/**
 * The permission entries an imported site keeps: `User,-1` as given; users, groups and depts only when
 * they are the importing tenant's own. A package from another tenant
 * names users that mean nothing here, or worse, someone else: such entries are dropped, as the reference
 * drops those it cannot match. More than the Manager bits makes the package a 400.
 */
function keptEntries(principal: Principal): (entries: readonly string[]) => Promise<string[]> {
  const ours = new Map<string, Promise<boolean>>();
  const isOurs = (kind: string, id: number) => {
    let answer = ours.get(`${kind},${id}`);
    if (!answer) {
      answer = tenantOfPrincipal(kind, id).then((tenantId) => tenantId === principal.tenantId);
      ours.set(`${kind},${id}`, answer);
    }
    return answer;
  };
  return async (entries) => {
    const keep = await Promise.all(
      entries.map(async (entry) => {
        const [, kind = '', id = '', bits] = PERMISSION_ENTRY.exec(entry) ?? [];
        if (Number(bits) > ALL_PERMISSIONS) throw new BadRequestError(`package: ${entry}: bits over 511`);
        return id === '-1' || (await isOurs(kind, Number(id)));
      }),
    );
    return entries.filter((_entry, index) => keep[index]);
  };
}
