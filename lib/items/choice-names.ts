import { accountKeys } from '../accounts/keys';
import type { Principal } from '../accounts/principal';
import { toDept, toGroup, toUser } from '../accounts/repository';
import { type ChoiceSource, choiceSources, parseChoicesText, staticChoices } from '../columns/choices';
import type { ChoiceResolver } from '../columns/display';
import type { Column } from '../columns/model';
import { itemKeys } from '../sites/keys';
import type { Site } from '../sites/model';
import { Permission, rowsPermission, sitePermission } from '../sites/permissions';
import { getSite } from '../sites/repository';
import { batchGet } from '../storage/batch';
import { tableName } from '../storage/tables';
import { type ItemRecord, itemTitleOf } from './model';
import { recordPage, recordsByKeys } from './record-repository';

/**
 * The names behind dynamic choices, for display.ts's `ChoiceResolver`: users', depts' and groups' names,
 * linked records' titles and a wiki's lines (reference/pleasanter-columns.md 3 and 8). A request first
 * tells what it will show (`need`), then `load` reads everything in batches, once (a page of 200 records
 * makes one BatchGetItem per kind of account and per linked site, not 200 reads), and `resolve` answers
 * from what was read. A linked record the caller may not read is unknown, and so shown as `? id`.
 */
export interface ChoiceNames {
  /** Notes that `value` of `column` will be shown (a multi-select value: each of its choices). */
  need(column: Column, value: unknown): void;
  /** Starts reading the sites the column links to, before its values are known. */
  prepare(column: Column): void;
  /** Reads every name noted since the last load. */
  load(): Promise<void>;
  readonly resolve: ChoiceResolver;
}

/** The site a Class column links to, read once per request. */
export interface LinkedSite {
  readonly site: Site | undefined;
  readonly canRead: boolean;
  /** A wiki's lines as choices: value → text. */
  readonly wiki?: ReadonlyMap<string, string>;
}

const PERSON_SOURCE: ChoiceSource = { kind: 'users', scope: 'site', showDeptName: false };

/** Linked sites being read or read in a request, by id. */
export type SiteCache = Map<number, Promise<LinkedSite>>;

export function choiceNames(principal: Principal, sites: SiteCache = new Map()): ChoiceNames {
  const wanted = { users: new Set<number>(), depts: new Set<number>(), groups: new Set<number>() };
  const wantedLinks = new Map<number, Set<number>>();
  const names = { users: new Map<number, string>(), depts: new Map<number, string>(), groups: new Map() };
  const read = new Map<number, LinkedSite>();
  const titles = new Map<number, string>();

  const noteId = (source: ChoiceSource, text: string) => {
    const id = /^\d+$/.test(text) ? Number(text) : undefined;
    const kind = accountKind(source);
    if (kind) {
      if (id !== undefined && !names[kind].has(id)) wanted[kind].add(id);
    } else if (source.kind === 'link' && source.siteId !== undefined) {
      // A wiki's values need not be ids: the site is read either way.
      const ids = wantedLinks.get(source.siteId) ?? new Set<number>();
      if (id !== undefined && !titles.has(id)) ids.add(id);
      if (!read.has(source.siteId) || ids.size > 0) wantedLinks.set(source.siteId, ids);
    }
  };

  return {
    prepare(column) {
      for (const source of choiceSources(column.choices))
        if (source.kind === 'link' && source.siteId !== undefined)
          void linkedSite(principal, source.siteId, sites);
    },
    need(column, value) {
      if (value === undefined || value === null || value === '') return;
      const sources =
        column.kind === 'user'
          ? [PERSON_SOURCE, ...choiceSources(column.choices)]
          : choiceSources(column.choices);
      if (sources.length === 0) return;
      const parts = column.multipleSelections ? (listOf(String(value)) ?? [String(value)]) : [String(value)];
      for (const source of sources) for (const part of parts) noteId(source, part);
    },
    async load() {
      await Promise.all([
        ...(['users', 'depts', 'groups'] as const).map(async (kind) => {
          const ids = [...wanted[kind]];
          wanted[kind].clear();
          for (const [id, name] of await accountNames(principal.tenantId, kind, ids))
            names[kind].set(id, name);
        }),
        ...[...wantedLinks].map(async ([siteId, ids]) => {
          wantedLinks.delete(siteId);
          // The site (for its Read, and whether it is a wiki) and the records, in one round trip.
          const [linked, records] = await Promise.all([
            linkedSite(principal, siteId, sites),
            ids.size === 0 ? [] : recordsByKeys([...ids].map((id) => itemKeys.item(principal.tenantId, id))),
          ]);
          read.set(siteId, linked);
          if (!linked.site || linked.wiki) return;
          for (const record of await readableOf(principal, linked, records))
            titles.set(record.recordId, itemTitleOf(record));
        }),
      ]);
    },
    resolve(source, value) {
      const kind = accountKind(source);
      if (kind) return /^\d+$/.test(value) ? names[kind].get(Number(value)) : undefined;
      if (source.kind === 'timeZones') return value;
      if (source.kind !== 'link' || source.siteId === undefined) return undefined;
      const linked = read.get(source.siteId);
      if (linked?.wiki) return linked.wiki.get(value);
      return /^\d+$/.test(value) ? titles.get(Number(value)) : undefined;
    },
  };
}

function accountKind(source: ChoiceSource): 'users' | 'depts' | 'groups' | undefined {
  if (source.kind === 'users' || source.kind === 'depts' || source.kind === 'groups') return source.kind;
  if (source.kind === 'link' && source.tableName) {
    return source.tableName === 'Users' ? 'users' : source.tableName === 'Depts' ? 'depts' : 'groups';
  }
  return undefined;
}

function listOf(text: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : undefined;
  } catch {
    return undefined;
  }
}

/** The tenant's accounts of `ids` by name, in one batch read; another tenant's ids are unknown. */
async function accountNames(
  tenantId: number,
  kind: 'users' | 'depts' | 'groups',
  ids: readonly number[],
): Promise<[number, string][]> {
  if (ids.length === 0) return [];
  const key = kind === 'users' ? accountKeys.user : kind === 'depts' ? accountKeys.dept : accountKeys.group;
  const items = await batchGet(tableName('accounts'), ids.map(key));
  if (kind === 'users')
    return items.map(toUser).flatMap((u) => (u.tenantId === tenantId ? [[u.userId, u.name]] : []));
  if (kind === 'depts')
    return items.map(toDept).flatMap((d) => (d.tenantId === tenantId ? [[d.deptId, d.deptName]] : []));
  return items.map(toGroup).flatMap((g) => (g.tenantId === tenantId ? [[g.groupId, g.groupName]] : []));
}

/** A linked site, its Read for the caller, and a wiki's lines (each line of its Body a `value,text` choice). */
export function linkedSite(
  principal: Principal,
  siteId: number,
  cache: SiteCache = new Map(),
): Promise<LinkedSite> {
  let linked = cache.get(siteId);
  if (!linked) {
    linked = readLinkedSite(principal, siteId);
    cache.set(siteId, linked);
  }
  return linked;
}

async function readLinkedSite(principal: Principal, siteId: number): Promise<LinkedSite> {
  const site = await getSite(principal.tenantId, siteId);
  const canRead = site !== undefined && ((await sitePermission(principal, site)) & Permission.Read) !== 0;
  let wiki: Map<string, string> | undefined;
  if (site?.referenceType === 'Wikis') {
    wiki = new Map();
    if (canRead) {
      const [page] = await recordPage(site, 0, 1);
      for (const choice of staticChoices(parseChoicesText(page?.body ?? '')))
        if (!wiki.has(choice.value)) wiki.set(choice.value, choice.text);
    }
  }
  return { site, canRead, ...(wiki && { wiki }) };
}

/**
 * The records of `ids` in the linked site that the caller may read (the site's Read, or the record's own
 * rows), in one batch read.
 */
export async function readableRecords(
  principal: Principal,
  linked: LinkedSite,
  ids: readonly number[],
): Promise<ItemRecord[]> {
  if (!linked.site || ids.length === 0) return [];
  return readableOf(
    principal,
    linked,
    await recordsByKeys(ids.map((id) => itemKeys.item(principal.tenantId, id))),
  );
}

/** Those of `candidates` that are records of the linked site the caller may read. */
async function readableOf(
  principal: Principal,
  linked: LinkedSite,
  candidates: readonly ItemRecord[],
): Promise<ItemRecord[]> {
  const site = linked.site;
  const records = candidates.filter((record) => record.siteId === site?.siteId);
  if (linked.canRead) return records;
  const kept: ItemRecord[] = [];
  for (const record of records)
    if ((await rowsPermission(principal, record.permissions ?? [])) & Permission.Read) kept.push(record);
  return kept;
}
