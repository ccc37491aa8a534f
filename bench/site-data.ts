import type { SiteEntry } from '../lib/sites/name-index';

/**
 * The site-lookup benchmark's tenant: 100,000 sites from a fixed seed, so every run measures the same
 * data. Folders nest at least 6 deep; 2,000 names are each shared by 2 to 50 sites; the other sites
 * are unnamed or uniquely named. Ids have gaps, as sites share the id sequence with records.
 */

export interface SiteData {
  readonly sites: SiteEntry[];
  readonly sharedNames: string[];
  readonly maxDepth: number;
}

export const SHARED_NAMES = 2_000;
const MAX_SHARE = 50;
const FOLDER_DEPTHS = 7;
const leafTypes = ['Issues', 'Results', 'Wikis', 'Dashboards'];

/** mulberry32: small, fast and deterministic; Math.random cannot be seeded. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function generateSites(count = 100_000, seed = 20_240_601): SiteData {
  const random = seededRandom(seed);
  const below = (n: number) => Math.floor(random() * n);
  const names = namePool(count, below);
  const foldersAt: number[][] = Array.from({ length: FOLDER_DEPTHS }, () => []);
  const depthOf = new Map<number, number>();
  const sites: SiteEntry[] = [];
  let siteId = 0;
  for (let at = 0; at < count; at++) {
    siteId += 1 + below(3);
    // A few top-level sites; the rest hang under a folder at a random depth that has one.
    let depth = at < 10 || random() < 0.001 ? 0 : 1 + below(FOLDER_DEPTHS);
    while (depth > 0 && (foldersAt[depth - 1] as number[]).length === 0) depth--;
    const parents = foldersAt[depth - 1];
    const parentId = parents === undefined ? 0 : (parents[below(parents.length)] as number);
    const folder = at < 200 || random() < 0.1;
    if (folder && depth < FOLDER_DEPTHS) (foldersAt[depth] as number[]).push(siteId);
    depthOf.set(siteId, depth);
    sites.push({
      siteId,
      parentId,
      referenceType: folder ? 'Sites' : (leafTypes[below(leafTypes.length)] as string),
      siteName: names[at],
      siteGroupName: random() < 0.1 ? `group-${below(500)}` : undefined,
    });
  }
  return {
    sites,
    sharedNames: Array.from({ length: SHARED_NAMES }, (_, n) => sharedName(n)),
    maxDepth: Math.max(...depthOf.values()),
  };
}

const sharedName = (n: number) => `Shared ${n}`;

/** SiteNames in a random order: every shared name 2..50 times, then half unique, half none. */
function namePool(count: number, below: (n: number) => number): (string | undefined)[] {
  const pool: (string | undefined)[] = [];
  for (let n = 0; n < SHARED_NAMES; n++) {
    const holders = 2 + below(MAX_SHARE - 1);
    for (let k = 0; k < holders && pool.length < count; k++) pool.push(sharedName(n));
  }
  for (let unique = 0; pool.length < count; unique++)
    pool.push(unique % 2 === 0 ? `Unique ${unique}` : undefined);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = below(i + 1);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool;
}
