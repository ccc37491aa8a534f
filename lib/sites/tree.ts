import { BadRequestError } from '../errors';
import { childSiteIds, getSite } from './repository';

/**
 * Walks of the site tree. Each one keeps a visited set and a depth bound, so that it ends even on data
 * that is not a tree (a cycle left by a bug or a hand edit): the walk stops there instead of running on.
 */

/**
 * The deepest a site may sit: a move checks every site above its new parent in one transaction
 * (lib/items/site-repository.ts), and DynamoDB takes 100 parts in one.
 */
export const MAX_TREE_DEPTH = 64;

/** Subtrees are walked level by level; a level this deep can only be corrupt data. */
const MAX_WALK_LEVELS = 1024;

export interface Ancestor {
  readonly siteId: number;
  /** Its parent as read: a move's transaction checks that it is still so. */
  readonly parentId: number;
}

/**
 * The site and every site above it, nearest first, each with its ParentId. Ends at the top, at a site that
 * is gone, or at a site seen before; a chain longer than MAX_TREE_DEPTH is a 400.
 */
export async function ancestry(tenantId: number, siteId: number): Promise<Ancestor[]> {
  const chain: Ancestor[] = [];
  const seen = new Set<number>();
  for (let id = siteId; id !== 0 && !seen.has(id); ) {
    if (chain.length >= MAX_TREE_DEPTH) {
      throw new BadRequestError(`site ${siteId} is more than ${MAX_TREE_DEPTH} levels deep`);
    }
    const site = await getSite(tenantId, id);
    if (!site) break;
    seen.add(id);
    chain.push({ siteId: id, parentId: site.parentId });
    id = site.parentId;
  }
  return chain;
}

/** The ids of a site and every site above it, nearest first. */
export async function lineage(tenantId: number, siteId: number): Promise<number[]> {
  return (await ancestry(tenantId, siteId)).map((ancestor) => ancestor.siteId);
}

/**
 * The site's subtree as levels, the site alone first. `visit` runs on each level's ids as they are found
 * (deletesite flags them, so nothing new lands in them while the walk goes on). A site reached twice is
 * taken once.
 */
export async function subtreeLevels(
  tenantId: number,
  siteId: number,
  visit: (ids: readonly number[]) => Promise<void>,
): Promise<number[][]> {
  const seen = new Set([siteId]);
  const levels: number[][] = [[siteId]];
  await visit([siteId]);
  for (let level = [siteId]; level.length > 0; ) {
    if (levels.length > MAX_WALK_LEVELS) {
      throw new BadRequestError(`the subtree of ${siteId} is more than ${MAX_WALK_LEVELS} levels deep`);
    }
    const found = (await Promise.all(level.map((id) => childSiteIds(tenantId, id)))).flat();
    const children = found.filter((id) => !seen.has(id));
    for (const id of children) seen.add(id);
    if (children.length === 0) break;
    await visit(children);
    levels.push(children);
    level = children;
  }
  return levels;
}
