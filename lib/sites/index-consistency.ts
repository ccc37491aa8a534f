import { indexedName, kindOf, type NameIndex, type SiteEntry } from './name-index';
import type { SiteChange } from './name-index-updates';

/**
 * Whether a stored index can take a batch of changes: each changed site must be in the index as the
 * change's old image shows it (or already as its new one, when a rebuild read it ahead of the stream).
 * Anything else means an earlier change never reached the index, as when a stream batch was dropped,
 * and applying changes on top would keep it wrong for good: the updater rebuilds from the sites instead.
 * Only a site's first change in the batch is compared; the later ones follow from it.
 */
export function indexAgreesWith(index: NameIndex, changes: readonly SiteChange[]): boolean {
  const seen = new Set<number>();
  for (const change of changes) {
    const siteId = change.kind === 'put' ? change.site.siteId : change.siteId;
    if (seen.has(siteId)) continue;
    seen.add(siteId);
    const held = heldEntry(index, siteId);
    const after = change.kind === 'put' ? change.site : undefined;
    if (!holds(held, change.before) && !holds(held, after)) return false;
  }
  return true;
}

interface HeldEntry {
  readonly parentId: number;
  readonly kind: number;
  readonly siteName: string | undefined;
  readonly groupName: string | undefined;
}

function heldEntry(index: NameIndex, siteId: number): HeldEntry | undefined {
  const slot = index.slotOf.get(siteId);
  if (slot === undefined) return undefined;
  return {
    parentId: index.parentIds[slot] as number,
    kind: index.kinds[slot] as number,
    siteName: index.siteNames[slot],
    groupName: index.groupNames[slot],
  };
}

/** The index keeps what lookups need: the kind, not the reference type, and no empty names. */
function holds(held: HeldEntry | undefined, entry: SiteEntry | undefined): boolean {
  if (held === undefined || entry === undefined) return held === entry;
  return (
    held.parentId === entry.parentId &&
    held.kind === kindOf(entry.referenceType) &&
    held.siteName === indexedName(entry.siteName) &&
    held.groupName === indexedName(entry.siteGroupName)
  );
}
