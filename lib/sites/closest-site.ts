import { cachedSiteId, rememberSiteId } from './lookup-cache';
import { isFolder, type NameIndex } from './name-index';

/**
 * SiteNameTree.Find (pleasanter-behaviour.md 2.2) without walking the tree.
 *
 * The reference's walk visits sites in one fixed order relative to the origin S, and returns the first
 * holder of the name. That order is a total order on sites, so the answer is the least holder, and a
 * holder's rank follows from its own ancestor path alone:
 *
 * - Level. The walk searches the children of P0 = parent(S) and their subtrees, then the children of
 *   P1 = parent(P0) and theirs, and so on while the parent is a site. A holder h is searched at the
 *   first level L whose P_L is on h's chain of parent ids (its "meeting level"): at every higher level
 *   the way down to h passes through P_{L'-1}, whose subtree is skipped there. Lower level first.
 * - Path. Let a_m be h's ancestor (or h itself) that is a child of P_L, and a_m … a_1 h the way down.
 *   The walk descends into folders only, so h is found at all only if a_m … a_1 are all folders.
 * - Within a level, key the way down as [(a_m), …, (a_1), (h)] with each step (last ? 0 : 1, id), where
 *   the first step's id is -∞ for the level's first site (S at level 0, P_{L-1} above). The walk checks
 *   a group's direct children (last = 0) before descending (last = 1), the first site before the
 *   others and ascending ids otherwise, and finishes a lower-id folder's whole subtree before a higher
 *   one: that is exactly the lexicographic order of these keys.
 *
 * Cost per lookup: O(depth) for the origin's chain plus O(holders × depth), instead of O(sites).
 */

export function findClosestSiteId(index: NameIndex, originId: number, name: string): number {
  if (name === '') return -1;
  const holders = index.byName.get(name);
  if (holders === undefined) return -1;
  // The unique-name shortcut comes before the origin is even looked up: no reachability check.
  if (holders.length === 1) return index.ids[holders[0] as number] as number;
  const cached = cachedSiteId(index.cache, index.version, name, originId);
  if (cached !== undefined) return cached;
  const origin = index.slotOf.get(originId);
  // Not cached, as in the reference.
  if (origin === undefined) return -1;
  const found = closestHolder(index, origin, holders);
  const siteId = found < 0 ? -1 : (index.ids[found] as number);
  rememberSiteId(index.cache, index.version, name, originId, siteId);
  return siteId;
}

/** The slot the reference's walk would find first among `holders`, or -1. No cache. */
export function closestHolder(index: NameIndex, origin: number, holders: readonly number[]): number {
  const levels = levelsAbove(index, origin);
  let best = -1;
  let bestLevel = 0;
  let bestPath: number[] = [];
  for (const holder of holders) {
    const way = wayDown(index, levels.levelOf, holder);
    if (way === undefined) continue;
    const first = levels.firsts[way.level] as number;
    if (
      best < 0 ||
      way.level < bestLevel ||
      (way.level === bestLevel && before(index, way.path, bestPath, first))
    ) {
      best = holder;
      bestLevel = way.level;
      bestPath = way.path;
    }
  }
  return best;
}

interface Levels {
  /** Parent id searched at each level (P0, P1, …, ending with 0 or a missing id) → level. */
  readonly levelOf: Map<number, number>;
  /** The site checked first at each level: the origin, then P0, P1, … */
  readonly firsts: number[];
}

function levelsAbove(index: NameIndex, origin: number): Levels {
  const levelOf = new Map<number, number>();
  const firsts: number[] = [];
  let slot = origin;
  for (;;) {
    const parentId = index.parentIds[slot] as number;
    // A cycle (possible only transiently, from out-of-order stream records) ends the climb; the
    // reference would recurse forever.
    if (levelOf.has(parentId)) break;
    levelOf.set(parentId, firsts.length);
    firsts.push(slot);
    const parent = index.parentSlots[slot] as number;
    if (parent < 0) break;
    slot = parent;
  }
  return { levelOf, firsts };
}

/** The holder's meeting level and its way down from that level's group (top first), if reachable. */
function wayDown(
  index: NameIndex,
  levelOf: Map<number, number>,
  holder: number,
): { level: number; path: number[] } | undefined {
  const up = [holder];
  let slot = holder;
  for (;;) {
    const level = levelOf.get(index.parentIds[slot] as number);
    if (level !== undefined) return { level, path: up.reverse() };
    const parent = index.parentSlots[slot] as number;
    // Beyond the last level, under a leaf, or in a cycle: the walk never gets there.
    if (parent < 0 || !isFolder(index, parent) || up.length > index.count) return undefined;
    up.push(parent);
    slot = parent;
  }
}

/** Whether way `a` sorts before way `b` at the same level (keys as in the header comment). */
function before(index: NameIndex, a: readonly number[], b: readonly number[], first: number): boolean {
  for (let step = 0; ; step++) {
    const slotA = a[step] as number;
    const slotB = b[step] as number;
    const lastA = step === a.length - 1;
    const lastB = step === b.length - 1;
    if (lastA !== lastB) return lastA;
    if (slotA !== slotB) return rank(index, slotA, step, first) < rank(index, slotB, step, first);
    // Same site on both ways and neither ends here: go one step down. Both ending here would mean
    // the same holder twice, which a names list never holds.
    if (lastA) return false;
  }
}

function rank(index: NameIndex, slot: number, step: number, first: number): number {
  return step === 0 && slot === first ? Number.NEGATIVE_INFINITY : (index.ids[slot] as number);
}
