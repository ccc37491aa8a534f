import type { Principal } from '../accounts/principal';
import { loadIndex } from './index-store';
import { itemKeys } from './keys';
import type { Site } from './model';
import { siteIdsNamedOrGrouped } from './name-index';
import { Permission, sitePermission } from './permissions';
import { toSite } from './repository';
import { batchGet } from './store';

/** The SiteSettings property, as the reference's SiteSettings JSON names it: a list of strings. */
export const INTEGRATED_SITES = 'IntegratedSites';

/** An entry taken as a SiteId (the reference's `entry.ToLong() > 0`), within the safe integers. */
const SITE_ID = /^\d{1,15}$/;

/**
 * The entries of a site's integrated-site setting, as the reference's SetIntegratedSites reads them: each
 * value split on `,`, trimmed, empties dropped, duplicates dropped. The setting is a list, as in the
 * reference; a single comma-separated string and numbers in the list are taken too, since SiteSettings
 * is stored as given and a hand-written one may use either form.
 */
export function integratedSiteEntries(siteSettings: Record<string, unknown>): string[] {
  const setting = siteSettings[INTEGRATED_SITES];
  const values = Array.isArray(setting) ? setting : [setting];
  const entries = values
    .filter((value) => typeof value === 'string' || typeof value === 'number')
    .flatMap((value) => String(value).split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return [...new Set(entries)];
}

/** True when the entry would be read as a SiteId, should no site carry it as a name. */
export function isSiteIdEntry(entry: string): boolean {
  return SITE_ID.test(entry) && Number(entry) > 0;
}

/**
 * The sites whose records `site` shows (CONTRACT 4, reference 3 GetIntegratedSites and
 * SetAllowedIntegratedSites): the site itself first, then, for each entry, every site of the tenant whose
 * SiteName or SiteGroupName equals it (through the name index, never a scan), or, only when no site
 * carries it as a name, the site with that numeric id. Then only sites of the site's own ReferenceType that
 * the caller may read (site-level Read) are kept; the site itself passes the same check. Another tenant's
 * id names nothing: sites are read under the caller's tenant key. Used by record reads and, later, by the
 * server-script API.
 */
export async function integratedSites(principal: Principal, site: Site): Promise<Site[]> {
  const readable = readableBy(principal);
  const kept: Site[] = [];
  for (const candidate of await integratedSiteCandidates(site)) {
    if (await readable(candidate)) kept.push(candidate);
  }
  return kept;
}

/**
 * The sites integratedSites considers, before the caller's site-level Read is asked: the site itself first,
 * then the sites its entries name that are of its ReferenceType and not being deleted. A record read takes
 * from those the caller may not read the records whose own permission rows let them.
 */
export async function integratedSiteCandidates(site: Site): Promise<Site[]> {
  const entries = integratedSiteEntries(site.siteSettings);
  /** Site id → the entries that named it; `numbered`: ids given as numbers, which need no name. */
  const named = new Map<number, Set<string>>();
  const numbered = new Set<number>();
  if (entries.length > 0) {
    const index = await loadIndex(site.tenantId);
    for (const entry of entries) {
      const ids = index ? siteIdsNamedOrGrouped(index, entry) : [];
      for (const id of ids) named.set(id, (named.get(id) ?? new Set()).add(entry));
      if (ids.length === 0 && isSiteIdEntry(entry)) numbered.add(Number(entry));
    }
  }
  const ids = new Set([...named.keys(), ...numbered]);
  ids.delete(site.siteId);
  const others = (await batchGet([...ids].map((id) => itemKeys.item(site.tenantId, id))))
    .filter((item) => item.Kind === 'site')
    .map(toSite)
    // The index follows the sites through a stream: a site renamed a moment ago must not slip in by its
    // old name.
    .filter((other) => numbered.has(other.siteId) || stillCarries(other, named.get(other.siteId)))
    .sort((a, b) => a.siteId - b.siteId);
  return [site, ...others].filter(
    (candidate) => candidate.referenceType === site.referenceType && !candidate.deleting,
  );
}

function stillCarries(site: Site, names: ReadonlySet<string> | undefined): boolean {
  if (!names) return false;
  return (
    (site.siteName !== undefined && names.has(site.siteName)) ||
    (site.siteGroupName !== undefined && names.has(site.siteGroupName))
  );
}

/**
 * Site-level Read, asked once per permission source: integrated sites often share one (a group of tables
 * under one folder), and each check may read the source site.
 */
function readableBy(principal: Principal): (site: Site) => Promise<boolean> {
  const bySource = new Map<number, Promise<number>>();
  return async (site) => {
    let bits = bySource.get(site.inheritPermission);
    if (!bits) {
      bits = sitePermission(principal, site);
      bySource.set(site.inheritPermission, bits);
    }
    return ((await bits) & Permission.Read) !== 0;
  };
}
