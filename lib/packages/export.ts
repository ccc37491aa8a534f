import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import { now } from '../clock';
import { BadRequestError } from '../errors';
import { recordCount, recordPage } from '../items/record-repository';
import { recordView } from '../items/views';
import { recordHolders, type Site } from '../sites/model';
import { Permission, requirePermission, siteInTenant, sitePermission } from '../sites/permissions';
import { childSiteIds, getSite } from '../sites/repository';
import { formatLocal } from '../zoned-time';
import { MAX_PACKAGE_RECORDS, MAX_PACKAGE_SITES } from './schemas';

/**
 * `items/{siteId}/exportsitepackage` (reference SitePackages/Utilities.cs GetSitePackage): the subtree
 * rooted at the site as a package, parents first. Permission as in the reference: ManageSite on the root;
 * with IncludeData, also Export on every site whose records go in (the reference's CanExport per site).
 * Sites below the root that the caller cannot read are left out with everything under them, as a site
 * tree hides them: a package never shows what its exporter could not see.
 */
export async function exportSitePackage(
  principal: Principal,
  siteId: number,
  includeData: boolean,
): Promise<Record<string, unknown>> {
  const root = await siteInTenant(principal, siteId);
  await requirePermission(principal, root, Permission.ManageSite);
  const sites = await readableSubtree(principal, root);
  const data = includeData ? await recordsOf(principal, sites) : undefined;
  return {
    Package: {
      BaseSiteId: root.siteId,
      PackageTime: formatLocal(now(), callerZone(principal)),
      IncludeData: includeData,
      Sites: sites.map(packageSite),
      Data: data,
    },
  };
}

/** The root and every site below it the caller may read, level by level, each site's children by id. */
async function readableSubtree(principal: Principal, root: Site): Promise<Site[]> {
  const sites = [root];
  // A site reached twice (only corrupt data has a cycle) is taken once; the size bound ends the walk too.
  const seen = new Set([root.siteId]);
  for (let index = 0; index < sites.length; index++) {
    const parent = sites[index] as Site;
    if (parent.referenceType !== 'Sites') continue;
    const ids = await childSiteIds(principal.tenantId, parent.siteId);
    const children = await Promise.all(ids.map((id) => getSite(principal.tenantId, id)));
    for (const child of children) {
      if (!child || child.deleting || seen.has(child.siteId)) continue;
      seen.add(child.siteId);
      if (((await sitePermission(principal, child)) & Permission.Read) === 0) continue;
      sites.push(child);
      // An import takes at most this many: a larger package could be written but never read back.
      if (sites.length > MAX_PACKAGE_SITES) {
        throw new BadRequestError(`the subtree of ${root.siteId} has more than ${MAX_PACKAGE_SITES} sites`);
      }
    }
  }
  return sites;
}

async function recordsOf(principal: Principal, sites: readonly Site[]): Promise<Record<string, unknown>[]> {
  const holders = sites.filter((site) => recordHolders.has(site.referenceType));
  const zone = callerZone(principal);
  for (const site of holders) await requirePermission(principal, site, Permission.Export);
  const counts = await Promise.all(holders.map(recordCount));
  if (counts.reduce((sum, count) => sum + count, 0) > MAX_PACKAGE_RECORDS) {
    throw new BadRequestError(`more than ${MAX_PACKAGE_RECORDS} records to include`);
  }
  const pages = await Promise.all(
    holders.map(async (site) =>
      (await recordPage(site, 0, MAX_PACKAGE_RECORDS)).map((r) => recordView(site, r, zone)),
    ),
  );
  return pages.flat();
}

function packageSite(site: Site): Record<string, unknown> {
  return {
    SiteId: site.siteId,
    Title: site.title,
    ReferenceType: site.referenceType,
    SiteName: site.siteName,
    SiteGroupName: site.siteGroupName,
    ParentId: site.parentId,
    InheritPermission: site.inheritPermission,
    Permissions: site.permissions,
    SiteSettings: site.siteSettings,
  };
}
