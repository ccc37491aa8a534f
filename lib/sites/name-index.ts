import { createLookupCache, type LookupCache } from './lookup-cache';

/**
 * The name index of one tenant's sites: everything `GetClosestSiteId` and the integrated-site
 * resolution need, and nothing else. Storage-free: the stream handler feeds it, S3 keeps it.
 *
 * Sites live in dense slots 0..count-1 (in no particular order once updates have run). Per-slot data is
 * in typed arrays so that 100,000 sites cost a few megabytes; the closest-site search only ever walks
 * parent links upwards from a name's holders, so no child lists are kept (see closest-site.ts).
 */

export interface SiteEntry {
  readonly siteId: number;
  /** 0 = top level. A parent that is not in the index is kept as given, as the reference does. */
  readonly parentId: number;
  /** 'Sites' (folder), 'Issues', 'Results', 'Wikis', 'Dashboards'; anything else counts as 'Issues'. */
  readonly referenceType: string;
  readonly siteName?: string | null | undefined;
  readonly siteGroupName?: string | null | undefined;
}

/** Kind codes, as the reference's SiteNameTreeItem.GetSiteType maps them: unknown types are Issues. */
export const referenceTypes = ['Issues', 'Sites', 'Results', 'Wikis', 'Dashboards'] as const;
export type ReferenceType = (typeof referenceTypes)[number];
export const FOLDER_KIND = 1;

export interface NameIndex {
  /** Given by the caller; the lookup cache belongs to one version. */
  version: number;
  count: number;
  ids: Float64Array;
  parentIds: Float64Array;
  /** Slot of the parent, or -1 when the parent id is not a site of the index (0, or missing). */
  parentSlots: Int32Array;
  kinds: Uint8Array;
  siteNames: (string | undefined)[];
  groupNames: (string | undefined)[];
  slotOf: Map<number, number>;
  /** Exact SiteName (case-sensitive, untrimmed, non-empty) → slots holding it. */
  byName: Map<string, number[]>;
  byGroupName: Map<string, number[]>;
  cache: LookupCache;
}

/** The per-site columns, in slot order: what the codec stores and what a build starts from. */
export interface SiteColumns {
  readonly ids: Float64Array;
  readonly parentIds: Float64Array;
  readonly kinds: Uint8Array;
  readonly siteNames: (string | undefined)[];
  readonly groupNames: (string | undefined)[];
}

export function kindOf(referenceType: string): number {
  return Math.max(0, referenceTypes.indexOf(referenceType as ReferenceType));
}

/** Empty names are never looked up (the endpoint answers -1 first), so they are not indexed. */
export function indexedName(name: string | null | undefined): string | undefined {
  return name === null || name === undefined || name === '' ? undefined : name;
}

export function buildNameIndex(sites: readonly SiteEntry[], version: number): NameIndex {
  const sorted = [...sites].sort((a, b) => a.siteId - b.siteId);
  const count = sorted.length;
  const columns = {
    ids: new Float64Array(count),
    parentIds: new Float64Array(count),
    kinds: new Uint8Array(count),
    siteNames: new Array<string | undefined>(count),
    groupNames: new Array<string | undefined>(count),
  };
  sorted.forEach((site, slot) => {
    columns.ids[slot] = site.siteId;
    columns.parentIds[slot] = site.parentId;
    columns.kinds[slot] = kindOf(site.referenceType);
    columns.siteNames[slot] = indexedName(site.siteName);
    columns.groupNames[slot] = indexedName(site.siteGroupName);
  });
  return indexFromColumns(columns, version);
}

/** Takes ownership of the columns: they become the index's arrays. */
export function indexFromColumns(columns: SiteColumns, version: number): NameIndex {
  const count = columns.ids.length;
  const slotOf = new Map<number, number>();
  for (let slot = 0; slot < count; slot++) {
    const id = columns.ids[slot] as number;
    if (slotOf.has(id)) throw new RangeError(`Site ${id} is listed twice`);
    slotOf.set(id, slot);
  }
  const parentSlots = new Int32Array(count);
  for (let slot = 0; slot < count; slot++) {
    parentSlots[slot] = slotOf.get(columns.parentIds[slot] as number) ?? -1;
  }
  const index: NameIndex = {
    version,
    count,
    ids: columns.ids,
    parentIds: columns.parentIds,
    parentSlots,
    kinds: columns.kinds,
    siteNames: columns.siteNames,
    groupNames: columns.groupNames,
    slotOf,
    byName: new Map(),
    byGroupName: new Map(),
    cache: createLookupCache(version),
  };
  for (let slot = 0; slot < count; slot++) {
    addHolder(index.byName, index.siteNames[slot], slot);
    addHolder(index.byGroupName, index.groupNames[slot], slot);
  }
  return index;
}

export function addHolder(names: Map<string, number[]>, name: string | undefined, slot: number): void {
  if (name === undefined) return;
  const holders = names.get(name);
  if (holders === undefined) names.set(name, [slot]);
  else holders.push(slot);
}

export function isFolder(index: NameIndex, slot: number): boolean {
  return index.kinds[slot] === FOLDER_KIND;
}

export function siteOf(index: NameIndex, siteId: number): SiteEntry | undefined {
  const slot = index.slotOf.get(siteId);
  if (slot === undefined) return undefined;
  return {
    siteId,
    parentId: index.parentIds[slot] as number,
    referenceType: referenceTypes[index.kinds[slot] as number] ?? 'Issues',
    siteName: index.siteNames[slot],
    siteGroupName: index.groupNames[slot],
  };
}

/** Every site, ascending SiteId: what a full rebuild would start from. */
export function sitesOf(index: NameIndex): SiteEntry[] {
  const ids = Array.from(index.ids.subarray(0, index.count)).sort((a, b) => a - b);
  return ids.map((id) => siteOf(index, id) as SiteEntry);
}

/** The SiteIds holding exactly this SiteName, ascending (items.GetSiteByName). */
export function siteIdsNamed(index: NameIndex, name: string): number[] {
  return idsOf(index, index.byName.get(name) ?? []);
}

/** The SiteIds holding exactly this SiteGroupName, ascending (items.GetSiteByGroupName). */
export function siteIdsGrouped(index: NameIndex, name: string): number[] {
  return idsOf(index, index.byGroupName.get(name) ?? []);
}

/**
 * Integrated sites (CONTRACT 4, reference 3): every site whose SiteName or SiteGroupName equals the
 * entry, ascending, with no nearest-site rule. Empty when none matches: the caller then reads the
 * entry as a numeric SiteId, because a name wins over a number.
 */
export function siteIdsNamedOrGrouped(index: NameIndex, entry: string): number[] {
  const slots = new Set([...(index.byName.get(entry) ?? []), ...(index.byGroupName.get(entry) ?? [])]);
  return idsOf(index, [...slots]);
}

function idsOf(index: NameIndex, slots: readonly number[]): number[] {
  return slots.map((slot) => index.ids[slot] as number).sort((a, b) => a - b);
}
