import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { BadRequestError, NotFoundError } from '../errors';
import { recordCount, recordPage } from '../items/record-repository';
import { recordView } from '../items/views';
import { recordHolders, type Site } from '../sites/model';
import { Permission, requirePermission, siteInTenant, sitePermission } from '../sites/permissions';
import type { CopyPackageRequest } from './copy-schemas';
import { importSiteForest } from './import';
import { MAX_PACKAGE_RECORDS, type PackageRecord, type PackageSite } from './schemas';

/**
 * `items/{siteId}/copysitepackage` (reference SitePackages/Utilities.cs ImportSitePackage with apiData):
 * the selected sites exported as a package and imported at once under TargetSiteId, each selected site
 * whose parent was not selected directly below it. Permissions as the reference's: ManageSite on the URL
 * site; with IncludeData, Export on each site whose records go along; the import's own checks (ManageSite
 * on the target, Import there for records). A selected site the caller cannot read is a 404, as it is
 * everywhere else. Everything is checked before the first write, and the copies appear all at once.
 */
export async function copySitePackage(principal: Principal, siteId: number, request: CopyPackageRequest) {
  const base = await siteInTenant(principal, siteId);
  await requirePermission(principal, base, Permission.ManageSite);
  const selected = await selectedSites(principal, request);
  const data = await recordsOf(principal, selected, request);
  const order = forestOrder(selected.map(({ site }) => packageSite(site, base, request)));
  const { data: copies } = await importSiteForest(principal, request.TargetSiteId ?? siteId, order, data);
  const byOld = new Map(copies.map((copy) => [copy.OldSiteId, copy]));
  // In the order the caller listed them, as the reference's converters are.
  return selected.map(({ site }) => byOld.get(site.siteId) as (typeof copies)[number]);
}

interface Selected {
  readonly site: Site;
  readonly includeData: boolean;
}

async function selectedSites(principal: Principal, request: CopyPackageRequest): Promise<Selected[]> {
  const seen = new Map<number, Selected>();
  for (const { SiteId, IncludeData } of request.SelectedSites) {
    const site = await siteInTenant(principal, SiteId);
    if (site.deleting || ((await sitePermission(principal, site)) & Permission.Read) === 0) {
      throw new NotFoundError(`site ${SiteId} is not readable by user ${principal.userId}`);
    }
    // A site listed twice is copied once, with its records if either listing asks for them.
    const includeData = (IncludeData ?? false) || (seen.get(SiteId)?.includeData ?? false);
    seen.set(SiteId, { site, includeData });
  }
  return [...seen.values()];
}

/** The records of the sites selected with IncludeData, as an export's package holds them. */
async function recordsOf(
  principal: Principal,
  selected: readonly Selected[],
  request: CopyPackageRequest,
): Promise<PackageRecord[]> {
  const holders = selected
    .filter(({ site, includeData }) => includeData && recordHolders.has(site.referenceType))
    .map(({ site }) => site);
  for (const site of holders) await requirePermission(principal, site, Permission.Export);
  const counts = await Promise.all(holders.map(recordCount));
  if (counts.reduce((sum, count) => sum + count, 0) > MAX_PACKAGE_RECORDS) {
    throw new BadRequestError(`more than ${MAX_PACKAGE_RECORDS} records to copy`);
  }
  const zone = callerZone(principal);
  const pages = await Promise.all(holders.map((site) => recordPage(site, 0, MAX_PACKAGE_RECORDS)));
  const records = pages.flat();
  // Copies of records are new records of the caller: their own permission rows cannot go along, and
  // the caller who asked for them must hear so rather than find them missing.
  if (request.IncludeRecordPermission && records.some((record) => record.permissions?.length)) {
    throw new BadRequestError(
      'IncludeRecordPermission: records with permissions of their own cannot be copied with them; copy without IncludeRecordPermission',
    );
  }
  return pages.flatMap((page, index) =>
    page.map((record) => recordView(holders[index] as Site, record, zone) as PackageRecord),
  );
}

const COLUMN_PERMISSIONS = [
  'CreateColumnAccessControls',
  'ReadColumnAccessControls',
  'UpdateColumnAccessControls',
];

/** A selected site as a package's site, with what the Include* flags leave out left out. */
function packageSite(site: Site, base: Site, request: CopyPackageRequest): PackageSite {
  const settings: Record<string, unknown> = { ...site.siteSettings };
  if (!request.IncludeColumnPermission) for (const name of COLUMN_PERMISSIONS) delete settings[name];
  if (!request.IncludeNotifications) delete settings.Notifications;
  if (!request.IncludeReminders) delete settings.Reminders;
  return {
    SiteId: site.siteId,
    Title: site.siteId === base.siteId && request.SiteTitle ? request.SiteTitle : site.title,
    ReferenceType: site.referenceType,
    SiteName: site.siteName,
    SiteGroupName: site.siteGroupName,
    ParentId: site.parentId,
    InheritPermission: site.inheritPermission,
    // Without IncludeSitePermission a copy that has permissions of its own gets its copier as manager only.
    Permissions: request.IncludeSitePermission ? [...site.permissions] : [],
    SiteSettings: settings,
  };
}

/**
 * The selected sites parents first: those whose parent was not selected first, each followed (level by
 * level) by the selected sites below it. A site inheriting from a selected site that is no longer above it
 * inherits from outside the copy instead.
 */
export function forestOrder(sites: readonly PackageSite[]): PackageSite[] {
  const byId = new Map(sites.map((site) => [site.SiteId, site]));
  const children = new Map<number, PackageSite[]>();
  const order: PackageSite[] = [];
  for (const site of sites) {
    if (byId.has(site.ParentId) && site.ParentId !== site.SiteId) {
      children.set(site.ParentId, [...(children.get(site.ParentId) ?? []), site]);
    } else {
      order.push({ ...site, ParentId: 0 });
    }
  }
  const above = new Map<number, ReadonlySet<number>>(order.map((site) => [site.SiteId, new Set()]));
  for (let index = 0; index < order.length; index++) {
    const parent = order[index] as PackageSite;
    const path = new Set([...(above.get(parent.SiteId) ?? []), parent.SiteId]);
    for (const child of children.get(parent.SiteId) ?? []) {
      above.set(child.SiteId, path);
      order.push(child);
    }
  }
  return order.map((site) => {
    const from = site.InheritPermission;
    const kept = from === site.SiteId || above.get(site.SiteId)?.has(from);
    return kept ? site : { ...site, InheritPermission: 0 };
  });
}
