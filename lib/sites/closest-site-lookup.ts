import type { Principal } from '../accounts/principal';
import { findClosestSiteId } from './closest-site';
import { loadIndex } from './index-store';
import type { Site } from './model';
import { canReadOrCreateSite } from './permissions';
import { getSite } from './repository';

/**
 * GetClosestSiteId (web-api.txt 4.3, reference 2.1): for each name, the nearest site of that name seen
 * from `originId`, or -1. The caller needs read or create on the origin (site level) for any answer, and on
 * the site found; without it that name is -1, with no second search among its namesakes. The server-script
 * wrapper `items.GetClosestSite` is `closestSiteId` for one name.
 */
export async function closestSiteIds(
  principal: Principal,
  originId: number,
  names: readonly (string | null)[],
): Promise<{ SiteName?: string; SiteId: number }[]> {
  const lookup = await siteLookup(principal, originId);
  const answers = [];
  for (const name of names) answers.push({ SiteName: name ?? undefined, SiteId: await lookup(name) });
  return answers;
}

export async function closestSiteId(
  principal: Principal,
  originId: number,
  name: string | null,
): Promise<number> {
  return (await siteLookup(principal, originId))(name);
}

async function siteLookup(
  principal: Principal,
  originId: number,
): Promise<(name: string | null) => Promise<number>> {
  // The index's pointer is read beside the origin rather than after it: one round trip less per request.
  const [origin, index] = await Promise.all([
    getSite(principal.tenantId, originId),
    loadIndex(principal.tenantId),
  ]);
  if (!(await canReadOrCreateSite(principal, origin))) return async () => -1;
  const allowed = new Map<number, Promise<boolean>>();
  const mayUse = (siteId: number) => {
    let answer = allowed.get(siteId);
    if (!answer) {
      answer = getSite(principal.tenantId, siteId).then((site: Site | undefined) =>
        site ? canReadOrCreateSite(principal, site) : false,
      );
      allowed.set(siteId, answer);
    }
    return answer;
  };
  return async (name) => {
    if (!name || !index) return -1;
    const found = findClosestSiteId(index, originId, name);
    return found !== -1 && (await mayUse(found)) ? found : -1;
  };
}
