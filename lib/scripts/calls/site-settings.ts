import type { Principal } from '../../accounts/principal';
import type { Site } from '../../sites/model';
import { sitePermission } from '../../sites/permissions';
import { getSite, sitesOfTenant } from '../../sites/repository';
import type { HostCallTable, ScriptCallContext } from '../host-calls';

/** `siteSettings.SiteId(title)` (reference/pleasanter-script-objects.md 5), a host call. */
export function siteSettingsCalls(context: ScriptCallContext): HostCallTable {
  return {
    'siteSettings.SiteId': async (title) =>
      typeof title === 'string' && title !== '' ? siteIdByTitle(context.principal, context.site, title) : 0,
  };
}

/**
 * The id of the site titled `title`: among the script's site and the sites its Links name first (the
 * reference's joined sites), else the tenant's first by id; 0 when none is, or the caller holds no
 * permission on it.
 */
export async function siteIdByTitle(
  principal: Principal,
  site: Site | undefined,
  title: string,
): Promise<number> {
  const joined = site ? [site, ...(await linkedSites(principal.tenantId, site))] : [];
  const id =
    joined.find((candidate) => candidate.title === title)?.siteId ??
    (await sitesOfTenant(principal.tenantId)).find((candidate) => candidate.title === title)?.siteId;
  const found = id === undefined ? undefined : await getSite(principal.tenantId, id);
  return found && (await sitePermission(principal, found)) !== 0 ? found.siteId : 0;
}

async function linkedSites(tenantId: number, site: Site): Promise<Site[]> {
  const links = Array.isArray(site.siteSettings.Links) ? site.siteSettings.Links : [];
  const ids = new Set<number>();
  for (const link of links) {
    const id = (link as { SiteId?: unknown } | null)?.SiteId;
    if (typeof id === 'number' && Number.isSafeInteger(id) && id !== site.siteId) ids.add(id);
  }
  const sites = await Promise.all([...ids].map((id) => getSite(tenantId, id)));
  return sites.filter((found): found is Site => found !== undefined);
}
