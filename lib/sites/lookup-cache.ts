/**
 * The (name, origin) → SiteId cache of SiteNameTree.Find. Eviction is by insertion order, not LRU: the
 * reference tries to refresh an entry's time on a hit but writes to a copy, so the oldest inserted goes
 * first. (It removes one entry only once it holds more than 1,024, so it can hold 1,025; the contract
 * says 1,024, and the difference is never observable.) -1 results are cached too.
 *
 * A cache belongs to one index version: asked on behalf of another version it empties itself first,
 * so it can never answer from a stale index.
 */

export const CACHE_CAPACITY = 1024;

export interface LookupCache {
  version: number;
  /** A Map iterates in insertion order, which is exactly the eviction order. */
  readonly entries: Map<string, number>;
}

export function createLookupCache(version: number): LookupCache {
  return { version, entries: new Map() };
}

// The origin is a number, so the first ':' ends it whatever the name holds.
function keyOf(name: string, originId: number): string {
  return `${originId}:${name}`;
}

function forVersion(cache: LookupCache, version: number): Map<string, number> {
  if (cache.version !== version) {
    cache.entries.clear();
    cache.version = version;
  }
  return cache.entries;
}

export function cachedSiteId(
  cache: LookupCache,
  version: number,
  name: string,
  originId: number,
): number | undefined {
  return forVersion(cache, version).get(keyOf(name, originId));
}

export function rememberSiteId(
  cache: LookupCache,
  version: number,
  name: string,
  originId: number,
  siteId: number,
): void {
  const entries = forVersion(cache, version);
  if (entries.size >= CACHE_CAPACITY) {
    const oldest = entries.keys().next();
    if (!oldest.done) entries.delete(oldest.value);
  }
  entries.set(keyOf(name, originId), siteId);
}

export function clearLookupCache(cache: LookupCache): void {
  cache.entries.clear();
}
