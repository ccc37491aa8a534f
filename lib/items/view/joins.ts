import type { Principal } from '../../accounts/principal';
import type { Language } from '../../columns/definitions';
import { recordHolders, type Site } from '../../sites/model';
import { Permission } from '../../sites/permissions';
import { type LinkedSite, linkedSite, readableRecords, type SiteCache } from '../choice-names';
import { type ItemRecord, itemTitleOf } from '../model';
import { grantedRecords } from '../record-permissions';
import { selectAll } from '../record-select';
import { type Column, recordColumns } from './columns';
import { refuse } from './filter-values';
import type { CompiledView } from './view';

/**
 * A parent's column named through a link column, `ClassA~7,ClassB` (reference/pleasanter-columns.md 6;
 * SiteSettings.GetColumn → AddJoinedColumn): the ClassB of the record of site 7 whose id the record's
 * ClassA holds. It filters, sorts and shows as the parent's column. A parent the caller may not read
 * (neither its site's Read nor its own rows) is as if unreadable: the record never matches a filter on
 * the column (negated or not), sorts it as empty, and KeyValues shows "". An empty link, or one to a
 * record that no longer exists in a site the caller reads, is an empty value (the reference's LEFT JOIN).
 */

const JOINED = /^([A-Za-z0-9_]+)~(\d+),([A-Za-z0-9_]+)$/;

export interface JoinedName {
  readonly name: string;
  readonly link: string;
  readonly siteId: number;
  readonly target: string;
}

export function parseJoined(name: string): JoinedName | undefined {
  const match = JOINED.exec(name);
  if (!match) return undefined;
  const [, link = '', siteId = '', target = ''] = match;
  return { name, link, siteId: Number(siteId), target };
}

/** Whether a column name has the `~` form (well formed or not). */
export const isJoinedName = (name: string) => name.includes('~');

/** The link column and the parent site a joined name goes through, or a 400 naming it. */
export async function joinTarget(
  principal: Principal,
  columns: ReadonlyMap<string, Column>,
  path: string,
  name: string,
  language: Language,
  sites: SiteCache = new Map(),
): Promise<{ joined: JoinedName; link: Column; target: Column; linked: LinkedSite }> {
  const joined = parseJoined(name);
  if (!joined) refuse(path, `${JSON.stringify(name)} is not of the form LinkColumn~SiteId,ColumnName`);
  const link = columns.get(joined.link);
  if (!link?.linkSiteIds?.includes(joined.siteId))
    refuse(path, `${joined.link} is not a link to site ${joined.siteId}`);
  if (link.multiple) refuse(path, `${joined.link} holds several links; a parent's column needs one`);
  const linked = await linkedSite(principal, joined.siteId, sites);
  const parent = linked.site;
  if (!parent || !recordHolders.has(parent.referenceType) || parent.referenceType === 'Wikis')
    refuse(path, `site ${joined.siteId} is not a table of records`);
  const target = recordColumns(parent, language, 'item').get(joined.target);
  if (!target) refuse(path, `site ${joined.siteId} has no column ${joined.target}`);
  return { joined, link, target, linked };
}

/** The parent id a record's link column holds, if it holds one. */
export function linkedId(link: Column, record: ItemRecord): number | undefined {
  const value = link.read(record);
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** A record column that reads the parent's `target` through `link`, from the parents read. */
export function joinedColumn(
  name: string,
  link: Column,
  target: Column,
  parents: ReadonlyMap<number, ItemRecord>,
  siteReadable: boolean,
): Column {
  const parentOf = (record: ItemRecord) => {
    const id = linkedId(link, record);
    return id === undefined ? undefined : parents.get(id);
  };
  return {
    ...target,
    name,
    read: (record) => {
      const parent = parentOf(record);
      return parent ? target.read(parent) : undefined;
    },
    ...(target.thenBy && {
      thenBy: (record: ItemRecord) => {
        const parent = parentOf(record);
        return parent ? target.thenBy?.(parent) : undefined;
      },
    }),
    readable: (record) => {
      const id = linkedId(link, record);
      return id === undefined || siteReadable || parents.has(id);
    },
  };
}

/** The `~` names of a ColumnFilterHash (its groups' too) and a ColumnSorterHash. */
export function joinedNamesOf(filterHash: unknown, sorterHash: unknown): string[] {
  const names = new Set<string>();
  const walk = (hash: unknown) => {
    let value = hash;
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        return;
      }
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const [key, raw] of Object.entries(value)) {
      if (key.startsWith('or_') || key.startsWith('and_')) walk(raw);
      else if (isJoinedName(key)) names.add(key);
    }
  };
  walk(filterHash);
  if (typeof sorterHash === 'object' && sorterHash !== null && !Array.isArray(sorterHash))
    for (const key of Object.keys(sorterHash)) if (isJoinedName(key)) names.add(key);
  return [...names];
}

const EVERYTHING: CompiledView = {
  filter: () => true,
  compare: () => 0,
  filters: false,
  properties: {},
  defaultOrder: true,
  statusOnly: false,
};

/**
 * The joined columns a View's filters and sorters name, each over the parent records the caller may
 * read. A filter must know every parent that may match, so the parent site's readable records are read
 * once per parent site (the records granted by their own rows, when the caller cannot read the site).
 */
export async function viewJoins(
  principal: Principal,
  site: Site,
  names: readonly string[],
  language: Language,
  sorted: readonly string[] = [],
): Promise<ReadonlyMap<string, Column>> {
  const joins = new Map<string, Column>();
  const columns = recordColumns(site, language, 'item');
  // Link columns the View sorts by sort by their parents' titles (View.cs OrderBy on a linked column).
  const links = sorted.flatMap((name) => {
    const column = columns.get(name);
    const siteId = column?.linkSiteIds?.[0];
    return column && siteId !== undefined && !column.multiple ? [{ column, siteId }] : [];
  });
  if (names.length === 0 && links.length === 0) return joins;
  const sites: SiteCache = new Map();
  const parentsOf = new Map<number, Promise<ReadonlyMap<number, ItemRecord>>>();
  const parentsIn = (siteId: number, linked: LinkedSite) => {
    let parents = parentsOf.get(siteId);
    if (!parents) {
      parents = parentRecords(principal, linked);
      parentsOf.set(siteId, parents);
    }
    return parents;
  };
  for (const { column, siteId } of links) {
    const linked = await linkedSite(principal, siteId, sites);
    if (
      !linked.site ||
      !recordHolders.has(linked.site.referenceType) ||
      linked.site.referenceType === 'Wikis'
    )
      continue;
    const parents = await parentsIn(siteId, linked);
    joins.set(column.name, {
      ...column,
      sortRead: (record) => {
        const id = linkedId(column, record);
        const parent = id === undefined ? undefined : parents.get(id);
        return parent ? itemTitleOf(parent) : undefined;
      },
    });
  }
  for (const name of names) {
    const { joined, link, target, linked } = await joinTarget(
      principal,
      columns,
      `View: ${name}`,
      name,
      language,
      sites,
    );
    const parents = await parentsIn(joined.siteId, linked);
    joins.set(name, joinedColumn(name, link, target, parents, linked.canRead));
  }
  return joins;
}

async function parentRecords(
  principal: Principal,
  linked: LinkedSite,
): Promise<ReadonlyMap<number, ItemRecord>> {
  const site = linked.site as Site;
  const records = linked.canRead
    ? await selectAll([site], EVERYTHING)
    : await grantedRecords(principal, site, Permission.Read);
  return new Map(records.map((record) => [record.recordId, record]));
}

/** The parents of the records' links, read by key in one batch: what KeyValues shows for a page. */
export async function pageParents(
  principal: Principal,
  link: Column,
  linked: LinkedSite,
  records: readonly ItemRecord[],
): Promise<ReadonlyMap<number, ItemRecord>> {
  const ids = new Set<number>();
  for (const record of records) {
    const id = linkedId(link, record);
    if (id !== undefined) ids.add(id);
  }
  const parents = await readableRecords(principal, linked, [...ids]);
  return new Map(parents.map((record) => [record.recordId, record]));
}
