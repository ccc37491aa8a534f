import { createLookupCache } from './lookup-cache';
import { addHolder, indexedName, kindOf, type NameIndex, type SiteEntry } from './name-index';

/**
 * Incremental updates: the stream handler gets one changed site per record, and rebuilding 100,000
 * sites for each would cost far more than the change. A put (created, renamed, moved, re-typed) or a
 * removal costs O(holders of its names) plus one pass over the parent links, which is needed anyway
 * because records can arrive out of order: a child may come before its parent, and a parent's
 * removal leaves its children pointing at a missing id, exactly as the reference sees them.
 *
 * The index is changed in place and becomes `version`; its cache starts empty.
 */

/** `before`: the site as the stream record's old image shows it, for the consistency check of index-consistency.ts. */
export type SiteChange =
  | { readonly kind: 'put'; readonly site: SiteEntry; readonly before?: SiteEntry | undefined }
  | { readonly kind: 'remove'; readonly siteId: number; readonly before?: SiteEntry | undefined };

export function applySiteChanges(index: NameIndex, changes: readonly SiteChange[], version: number): void {
  if (!(version > index.version)) {
    throw new RangeError(`Index version ${version} does not follow ${index.version}`);
  }
  for (const change of changes) {
    if (change.kind === 'put') putSite(index, change.site);
    else removeSite(index, change.siteId);
  }
  index.version = version;
  index.cache = createLookupCache(version);
}

function putSite(index: NameIndex, site: SiteEntry): void {
  const existing = index.slotOf.get(site.siteId);
  const slot = existing ?? appendSlot(index, site.siteId);
  if (existing !== undefined) {
    dropHolder(index.byName, index.siteNames[slot], slot);
    dropHolder(index.byGroupName, index.groupNames[slot], slot);
  }
  index.parentIds[slot] = site.parentId;
  index.parentSlots[slot] = index.slotOf.get(site.parentId) ?? -1;
  index.kinds[slot] = kindOf(site.referenceType);
  index.siteNames[slot] = indexedName(site.siteName);
  index.groupNames[slot] = indexedName(site.siteGroupName);
  addHolder(index.byName, index.siteNames[slot], slot);
  addHolder(index.byGroupName, index.groupNames[slot], slot);
}

function appendSlot(index: NameIndex, siteId: number): number {
  const slot = index.count;
  if (slot === index.ids.length) grow(index, Math.max(16, slot * 2));
  // Children that arrived before their parent now have one.
  relink(index, siteId, slot);
  index.count = slot + 1;
  index.ids[slot] = siteId;
  index.slotOf.set(siteId, slot);
  return slot;
}

function removeSite(index: NameIndex, siteId: number): void {
  const slot = index.slotOf.get(siteId);
  if (slot === undefined) return;
  dropHolder(index.byName, index.siteNames[slot], slot);
  dropHolder(index.byGroupName, index.groupNames[slot], slot);
  index.slotOf.delete(siteId);
  relink(index, siteId, -1);
  const last = index.count - 1;
  if (slot !== last) moveSlot(index, last, slot);
  index.siteNames[last] = undefined;
  index.groupNames[last] = undefined;
  index.count = last;
}

/** Keeps the slots dense: the last site takes the freed slot, and everything pointing at it follows. */
function moveSlot(index: NameIndex, from: number, to: number): void {
  const id = index.ids[from] as number;
  index.ids[to] = id;
  index.parentIds[to] = index.parentIds[from] as number;
  index.parentSlots[to] = index.parentSlots[from] as number;
  index.kinds[to] = index.kinds[from] as number;
  index.siteNames[to] = index.siteNames[from];
  index.groupNames[to] = index.groupNames[from];
  index.slotOf.set(id, to);
  renameHolder(index.byName, index.siteNames[to], from, to);
  renameHolder(index.byGroupName, index.groupNames[to], from, to);
  relink(index, id, to);
}

/** Points every site whose parent id is `parentId` at `slot` (-1: the parent is gone). */
function relink(index: NameIndex, parentId: number, slot: number): void {
  const { parentIds, parentSlots, count } = index;
  for (let child = 0; child < count; child++) {
    if (parentIds[child] === parentId) parentSlots[child] = slot;
  }
}

function grow(index: NameIndex, capacity: number): void {
  const widen = <T extends Float64Array | Int32Array | Uint8Array>(array: T, next: T): T => {
    next.set(array);
    return next;
  };
  index.ids = widen(index.ids, new Float64Array(capacity));
  index.parentIds = widen(index.parentIds, new Float64Array(capacity));
  index.parentSlots = widen(index.parentSlots, new Int32Array(capacity));
  index.kinds = widen(index.kinds, new Uint8Array(capacity));
}

function dropHolder(names: Map<string, number[]>, name: string | undefined, slot: number): void {
  if (name === undefined) return;
  const holders = names.get(name);
  if (holders === undefined) return;
  const at = holders.indexOf(slot);
  if (at >= 0) holders.splice(at, 1);
  if (holders.length === 0) names.delete(name);
}

function renameHolder(
  names: Map<string, number[]>,
  name: string | undefined,
  from: number,
  to: number,
): void {
  if (name === undefined) return;
  const holders = names.get(name);
  const at = holders?.indexOf(from) ?? -1;
  if (holders !== undefined && at >= 0) holders[at] = to;
}
