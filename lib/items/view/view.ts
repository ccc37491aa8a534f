import type { Language } from '../../columns/definitions';
import type { Site } from '../../sites/model';
import { startOfDay } from '../../zoned-time';
import type { ItemRecord } from '../model';
import { type Column, recordColumns, searchTypeOf } from './columns';
import { refuse } from './filter-values';
import { type FilterContext, hashPredicate, type Predicate } from './filters';
import { joinedNamesOf } from './joins';
import { type Comparator, sorter } from './sorters';

/**
 * A request's `View` (reference/pleasanter-items-api.md 2.1), compiled against a site's columns into what
 * selects and orders its records. Every property is applied exactly or refused with a 400 naming it
 * (CONTRACT 5.1): nothing a caller sends is silently dropped, since a dropped filter widens the selection.
 */

/** The View properties Kiroku applies; any other one is refused. Names match without case. */
export const viewProperties = [
  'ColumnFilterHash',
  'ColumnFilterSearchTypes',
  'ColumnFilterNegatives',
  'ColumnSorterHash',
  'Incomplete',
  'Own',
  'NearCompletionTime',
  'Delay',
  'Overdue',
  'Search',
  'ApiDataType',
  'GridColumns',
  'ApiColumnKeyDisplayType',
  'ApiColumnValueDisplayType',
  'ApiColumnHash',
] as const;

export interface CompiledView {
  readonly filter: Predicate;
  readonly compare: Comparator;
  /** The View selects a part of the records (a column filter, search or boolean filter is given). */
  readonly filters: boolean;
  /** View.Search's words, when given: applied by withSearch with the search index's matcher. */
  readonly search?: string;
  /** ColumnFilterNegatives names ViewFilters_Search: the records the Search would not select. */
  readonly searchNegated?: boolean;
  /** The View's properties by their canonical names (ApiDataType, GridColumns... for the answer's shape). */
  readonly properties: Record<string, unknown>;
  /** The order is the reference's default (UpdatedTime desc, id desc), which an index keeps. */
  readonly defaultOrder: boolean;
  /** The Status values a top-level Status filter allows, when it is such a list: storage may serve it. */
  readonly statuses?: readonly number[];
  /** The View filters by that Status list and nothing else, so per-Status counts give its TotalCount. */
  readonly statusOnly: boolean;
}

export interface ViewContext {
  readonly userId: number;
  readonly zone: string;
  readonly now: number;
  readonly language?: Language;
  /** The parents' columns (`ClassA~7,ClassB`) the View names, read beforehand (joins.ts viewJoins). */
  readonly joins?: ReadonlyMap<string, Column>;
}

/** The preset filters ColumnFilterNegatives may negate, by the View flag each goes with (View.cs). */
const PRESETS: Readonly<Record<string, string>> = {
  ViewFilters_Incomplete: 'Incomplete',
  ViewFilters_Own: 'Own',
  ViewFilters_NearCompletionTime: 'NearCompletionTime',
  ViewFilters_Delay: 'Delay',
  ViewFilters_Overdue: 'Overdue',
  ViewFilters_Search: 'Search',
};

/** The reference's General.CompletionCode: a Status at or above it is complete. */
export const COMPLETION_CODE = 900;

export function compileView(site: Site, view: Record<string, unknown> | undefined, context: ViewContext) {
  const raw = canonicalView(view ?? {});
  const columns = new Map(recordColumns(site, context.language, 'item'));
  for (const [name, column] of context.joins ?? []) columns.set(name, column);
  const searchTypes = searchTypesOf(raw.ColumnFilterSearchTypes, columns);
  const negatives = negativesOf(raw.ColumnFilterNegatives);
  if (raw.Search !== undefined && raw.Search !== null && typeof raw.Search !== 'string') {
    refuse('View.Search', 'must be text');
  }
  const search = typeof raw.Search === 'string' && raw.Search.trim() !== '' ? raw.Search : undefined;
  const named = new Set<string>();
  const filterContext: FilterContext = { columns, searchTypes, ...context, negatives, named };
  const hash = objectOf('View.ColumnFilterHash', raw.ColumnFilterHash);
  const parts: Predicate[] = hashPredicate('View.ColumnFilterHash', hash, filterContext);
  parts.push(...generalFilters(site, raw, columns, context, negatives));
  for (const name of negatives) {
    const preset = PRESETS[name];
    const set =
      preset === 'Search'
        ? search !== undefined
        : preset !== undefined && (raw[preset] === true || raw[preset] === 1);
    if (named.has(name) || set) continue;
    refuse(
      'View.ColumnFilterNegatives',
      preset
        ? `${name} negates ${preset}, which the View does not set`
        : `${JSON.stringify(name)} names no filter of ColumnFilterHash`,
    );
  }
  const sorters = objectOf('View.ColumnSorterHash', raw.ColumnSorterHash);
  const compare = sorter(sorters, columns);
  const sorterKeys = Object.keys(sorters);
  // A negated Status list selects the other Status values: storage cannot serve it by those it names.
  const statuses = negatives.has('Status') ? undefined : statusList(hash.Status);
  return {
    filter: (record: ItemRecord) => parts.every((part) => part(record)),
    compare,
    filters: parts.length > 0 || search !== undefined,
    search,
    ...(negatives.has('ViewFilters_Search') && { searchNegated: true }),
    defaultOrder:
      sorterKeys.length === 0 ||
      (sorterKeys.length === 1 &&
        sorterKeys[0] === 'UpdatedTime' &&
        /^(desc|1)$/i.test(String(sorters.UpdatedTime))),
    statuses,
    properties: raw,
    statusOnly:
      statuses !== undefined &&
      parts.length === 1 &&
      search === undefined &&
      columns.get('Status')?.nullable !== true,
  } satisfies CompiledView;
}

/** The parents' columns (`ClassA~7,ClassB`) a View's filters and sorters name, to read beforehand. */
export function joinedNamesIn(view: Record<string, unknown> | undefined): string[] {
  const raw = canonicalView(view ?? {});
  return joinedNamesOf(raw.ColumnFilterHash, raw.ColumnSorterHash);
}

/** The columns a View sorts by (the link columns among them sort by their parents' titles). */
export function sorterNamesIn(view: Record<string, unknown> | undefined): string[] {
  const sorters = canonicalView(view ?? {}).ColumnSorterHash;
  return typeof sorters === 'object' && sorters !== null && !Array.isArray(sorters)
    ? Object.keys(sorters)
    : [];
}

/**
 * ColumnFilterNegatives: a list of filter names. Applied whenever it is sent (CONTRACT 11: the reference
 * applies it only on sites with negative filters enabled, and otherwise drops a condition asked for).
 */
function negativesOf(value: unknown): ReadonlySet<string> {
  if (value === undefined || value === null) return new Set();
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string'))
    refuse('View.ColumnFilterNegatives', 'expected a JSON list of filter names');
  return new Set(value as string[]);
}

/**
 * The View properties a condition (a formula's, a notification's) is matched by: a site's Views also carry
 * its screens' settings, which match nothing.
 */
export const CONDITION_PROPERTIES: readonly string[] = [
  'ColumnFilterHash',
  'ColumnFilterSearchTypes',
  'ColumnFilterNegatives',
  'Incomplete',
  'Own',
  'NearCompletionTime',
  'Delay',
  'Overdue',
  'Search',
];

/**
 * View.Search's matcher (lib/search, above this layer; the endpoint hands it in): the ids of the records of
 * `siteIds` whose full text holds every word of `text`.
 */
export type RecordSearch = (tenantId: number, siteIds: readonly number[], text: string) => Promise<number[]>;

/**
 * The view with its Search applied: only the records the matcher found pass its filter. Without a
 * matcher a Search is refused, never ignored (CONTRACT 5.1).
 */
export async function withSearch(
  view: CompiledView,
  tenantId: number,
  siteIds: readonly number[],
  search: RecordSearch | undefined,
): Promise<CompiledView> {
  if (view.search === undefined) return view;
  if (!search) refuse('View.Search', 'full-text search is not available on this operation');
  const found = new Set(await search(tenantId, siteIds, view.search));
  const wanted = view.searchNegated !== true;
  return { ...view, filter: (record) => found.has(record.recordId) === wanted && view.filter(record) };
}

/** The View with its property names in their canonical case; an unsupported property is refused. */
function canonicalView(view: Record<string, unknown>): Record<string, unknown> {
  const byLowerCase = new Map<string, string>(viewProperties.map((name) => [name.toLowerCase(), name]));
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(view)) {
    const name = byLowerCase.get(key.toLowerCase());
    if (!name) refuse(`View.${key}`, 'this View property is not supported');
    if (!(name in result) || key === name) result[name] = value;
  }
  return result;
}

export function objectOf(path: string, value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) refuse(path, 'expected a JSON object');
  return value as Record<string, unknown>;
}

/** ColumnFilterSearchTypes against any table's columns: each names a column and a search type. */
export function searchTypesOf<R>(
  value: unknown,
  columns: ReadonlyMap<string, Column<R>>,
): Map<string, number> {
  const types = new Map<string, number>();
  for (const [name, type] of Object.entries(objectOf('View.ColumnFilterSearchTypes', value))) {
    const path = `View.ColumnFilterSearchTypes.${name}`;
    const column = columns.get(name);
    if (!column) refuse(path, `this table has no column ${name}`);
    const searchType = searchTypeOf(type);
    if (searchType === undefined) refuse(path, `${JSON.stringify(type)} is not a search type`);
    types.set(name, searchType);
  }
  return types;
}

/**
 * Incomplete, Own, NearCompletionTime, Delay, Overdue (View.cs SetGeneralsWhere), each negated as the
 * reference negates it when ColumnFilterNegatives names `ViewFilters_<flag>`.
 */
function generalFilters(
  site: Site,
  raw: Record<string, unknown>,
  columns: ReadonlyMap<string, Column>,
  context: ViewContext,
  negatives: ReadonlySet<string>,
): Predicate[] {
  const parts: Predicate[] = [];
  const flag = (name: string, needs: readonly string[]) => {
    const value = raw[name];
    if (value === undefined || value === null || value === false || value === 0) return false;
    if (value !== true && value !== 1) refuse(`View.${name}`, 'expected true or false');
    const missing = needs.find((column) => !columns.has(column));
    if (missing) refuse(`View.${name}`, `a ${site.referenceType} site has no ${missing}`);
    return true;
  };
  const negated = (name: string) => negatives.has(`ViewFilters_${name}`);
  const status = (r: ItemRecord) => r.status ?? 0;
  const incomplete = (r: ItemRecord) => status(r) < COMPLETION_CODE;
  if (flag('Incomplete', ['Status'])) parts.push(negated('Incomplete') ? (r) => !incomplete(r) : incomplete);
  if (flag('Own', ['Manager', 'Owner'])) {
    const own = (r: ItemRecord) => r.manager === context.userId || r.owner === context.userId;
    parts.push(negated('Own') ? (r) => !own(r) : own);
  }
  if (flag('NearCompletionTime', ['CompletionTime'])) {
    const before = numberSetting(site.siteSettings.NearCompletionTimeBeforeDays, 7);
    const after = numberSetting(site.siteSettings.NearCompletionTimeAfterDays, 3);
    const from = startOfDay(context.now, context.zone, -before);
    const to = startOfDay(context.now, context.zone, after + 1) - 1;
    // NOT BETWEEN: a record without a CompletionTime matches neither way.
    const inside = !negated('NearCompletionTime');
    parts.push(
      (r) =>
        r.completionTime !== undefined && (from <= r.completionTime && r.completionTime <= to) === inside,
    );
  }
  if (flag('Delay', ['Status', 'ProgressRate', 'CompletionTime'])) {
    const delayed = (r: ItemRecord) => incomplete(r) && (r.progressRate ?? 0) < plannedRate(r, context.now);
    parts.push(negated('Delay') ? (r) => !delayed(r) : delayed);
  }
  if (flag('Overdue', ['Status', 'CompletionTime'])) {
    // Negated: complete, or due now or later (a record without a CompletionTime is neither).
    parts.push(
      negated('Overdue')
        ? (r) => !incomplete(r) || (r.completionTime !== undefined && r.completionTime >= context.now)
        : (r) => incomplete(r) && r.completionTime !== undefined && r.completionTime < context.now,
    );
  }
  return parts;
}

function numberSetting(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) ? value : fallback;
}

/** The progress a record should have made by now: the share of StartTime → CompletionTime elapsed. */
function plannedRate(record: ItemRecord, now: number): number {
  const start = record.startTime ?? record.createdAt;
  const end = record.completionTime;
  if (end === undefined || now <= start) return 0;
  if (now >= end || end <= start) return 100;
  return ((now - start) / (end - start)) * 100;
}

/** `"910"`, `"[\"100\",\"910\"]"`, `[100, 910]`: whole numbers only (no range, no empty), else undefined. */
function statusList(value: unknown): number[] | undefined {
  let items: unknown[];
  if (typeof value === 'number') items = [value];
  else if (Array.isArray(value)) items = value;
  else if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) items = [value];
  else if (typeof value === 'string' && value.trimStart().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (!Array.isArray(parsed)) return undefined;
      items = parsed;
    } catch {
      return undefined;
    }
  } else return undefined;
  const numbers = items.map((item) =>
    typeof item === 'number' || typeof item === 'string' ? String(item) : '',
  );
  if (numbers.length === 0 || !numbers.every((text) => /^\s*[+-]?\d+\s*$/.test(text))) return undefined;
  return [...new Set(numbers.map(Number))];
}
