import type { Principal } from '../accounts/principal';
import { findClosestSiteId } from './closest-site';
import { heldIndex, loadIndex } from './index-store';
import { MAX_SITES_PER_READ, readPointerAndSites } from './lookup-reads';
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
  const found = await lookUp(principal, originId, names);
  return names.map((name, at) => ({ SiteName: name ?? undefined, SiteId: found[at] as number }));
}

export async function closestSiteId(
  principal: Principal,
  originId: number,
  name: string | null,
): Promise<number> {
  return (await lookUp(principal, originId, [name]))[0] as number;
}

/**
 * A warm instance answers with one storage call: it finds each name in the index it holds, then reads
 * the index pointer, the origin and the sites found in one consistent BatchGetItem. If the pointer names
 * the version it used, the answers stand (the same check as before, in the same request); if not, or cold,
 * it loads the current index and reads the sites it finds then, so it never answers from a stale index.
 */
async function lookUp(principal: Principal, originId: number, names: readonly (string | null)[]) {
  const { tenantId } = principal;
  const held = heldIndex(tenantId);
  const guesses = names.map((name) => (held && name ? findClosestSiteId(held, originId, name) : -1));
  const wanted = [...new Set([originId, ...guesses.filter((id) => id !== -1)])];
  if (held && wanted.length <= MAX_SITES_PER_READ) {
    const read = await readPointerAndSites(tenantId, wanted);
    if (read.pointer?.version === held.version) {
      return answers(principal, read.sites.get(originId), guesses, (siteId) => read.sites.get(siteId));
    }
  }
  // Cold, or the index has changed: the pointer's current version, then the sites it finds.
  const [origin, index] = await Promise.all([getSite(tenantId, originId), loadIndex(tenantId)]);
  const found = names.map((name) => (index && name ? findClosestSiteId(index, originId, name) : -1));
  return answers(principal, origin, found, (siteId) => getSite(tenantId, siteId));
}

/** Each site found, if the caller may read or create on the origin and on it; -1 otherwise. */
async function answers(
  principal: Principal,
  origin: Site | undefined,
  found: readonly number[],
  siteOf: (siteId: number) => Site | undefined | Promise<Site | undefined>,
): Promise<number[]> {
  if (!(await canReadOrCreateSite(principal, origin))) return found.map(() => -1);
  const allowed = new Map<number, Promise<boolean>>();
  const mayUse = (siteId: number) => {
    let answer = allowed.get(siteId);
    if (!answer) {
      answer = Promise.resolve(siteOf(siteId)).then((site) =>
        site ? canReadOrCreateSite(principal, site) : false,
      );
      allowed.set(siteId, answer);
    }
    return answer;
  };
  const result: number[] = [];
  for (const siteId of found) result.push(siteId !== -1 && (await mayUse(siteId)) ? siteId : -1);
  return result;
}
