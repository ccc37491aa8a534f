import { BadRequestError } from '../errors';
import { INTEGRATED_SITES, isSiteIdEntry } from '../sites/integrated-sites';
import { recordHolders } from '../sites/model';
import type { PackageSite, SitePackage } from './schemas';

/**
 * The pure half of an import: checking that a package is one tree, and remapping ids. Everything here
 * runs before anything is written, so a bad package is a 400 with nothing created.
 */

/**
 * The package's sites, parents first (each site's children ascending by id), once it is known to be one
 * tree: ids unique; one root, the only site whose parent is outside the package; every other site under
 * a folder of the package; each InheritPermission the site itself, a site above it in the package, or a
 * site outside; every record in a site of the package that holds records.
 */
export function treeOrder(pkg: SitePackage): PackageSite[] {
  const byId = new Map<number, PackageSite>();
  for (const site of pkg.Sites) {
    if (byId.has(site.SiteId)) throw new BadRequestError(`package: site ${site.SiteId} is listed twice`);
    byId.set(site.SiteId, site);
  }
  const [root, ...others] = pkg.Sites.filter((site) => !byId.has(site.ParentId));
  if (!root || others.length > 0) throw new BadRequestError('package: the sites do not have one root');
  const children = new Map<number, PackageSite[]>();
  for (const site of pkg.Sites) {
    if (site !== root) children.set(site.ParentId, [...(children.get(site.ParentId) ?? []), site]);
  }
  const order = [root];
  for (let index = 0; index < order.length; index++) {
    const parent = order[index] as PackageSite;
    const below = (children.get(parent.SiteId) ?? []).sort((a, b) => a.SiteId - b.SiteId);
    if (below.length > 0 && parent.ReferenceType !== 'Sites') {
      throw new BadRequestError(`package: site ${parent.SiteId} has child sites but is not a folder`);
    }
    order.push(...below);
  }
  // Sites left over hang below one another in a cycle, never reaching the root.
  if (order.length !== pkg.Sites.length) throw new BadRequestError('package: the sites do not form a tree');
  for (const site of order) {
    const from = site.InheritPermission;
    if (from !== site.SiteId && byId.has(from) && !ancestorsOf(site, byId).includes(from)) {
      throw new BadRequestError(`package: site ${site.SiteId} inherits from ${from}, which is not above it`);
    }
  }
  for (const record of pkg.Data ?? []) {
    const site = byId.get(record.SiteId);
    if (!site || !recordHolders.has(site.ReferenceType)) {
      throw new BadRequestError(`package: a record names site ${record.SiteId}, which holds no records`);
    }
  }
  return order;
}

function ancestorsOf(site: PackageSite, byId: ReadonlyMap<number, PackageSite>): number[] {
  const ids: number[] = [];
  for (let parent = byId.get(site.ParentId); parent; parent = byId.get(parent.ParentId)) {
    ids.push(parent.SiteId);
  }
  return ids;
}

/**
 * The site's IntegratedSites with every entry that is the numeric id of a package site replaced by its new
 * id; names stay as they are. An entry that some package site carries as its SiteName or SiteGroupName is
 * a name (a name wins over a number when resolved), so it stays too. The setting keeps its form: a list
 * stays a list, a comma-separated string a string, a number a number.
 */
export function remapIntegratedSites(
  siteSettings: Record<string, unknown>,
  newIds: ReadonlyMap<number, number>,
  names: ReadonlySet<string>,
): Record<string, unknown> {
  const setting = siteSettings[INTEGRATED_SITES];
  if (setting === undefined) return siteSettings;
  const entry = (text: string) => {
    const trimmed = text.trim();
    const id = isSiteIdEntry(trimmed) && !names.has(trimmed) ? newIds.get(Number(trimmed)) : undefined;
    return id === undefined ? text : String(id);
  };
  const value = (item: unknown) => {
    if (typeof item === 'string') return item.split(',').map(entry).join(',');
    if (typeof item === 'number') return Number(entry(String(item)));
    return item;
  };
  return {
    ...siteSettings,
    [INTEGRATED_SITES]: Array.isArray(setting) ? setting.map(value) : value(setting),
  };
}

/** Every SiteName and SiteGroupName the package's sites carry. */
export function namesOf(sites: readonly PackageSite[]): Set<string> {
  const names = new Set<string>();
  for (const site of sites) {
    if (site.SiteName) names.add(site.SiteName);
    if (site.SiteGroupName) names.add(site.SiteGroupName);
  }
  return names;
}
