import type { Site } from '../../sites/model';
import { startOfDay } from '../../zoned-time';
import type { ItemRecord } from '../model';
import { type Column, columnsOf, searchTypeOf } from './columns';
import { refuse } from './filter-values';
import { type FilterContext, hashPredicate, type Predicate } from './filters';
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
}

/** The reference's General.CompletionCode: a Status at or above it is complete. */
export const COMPLETION_CODE = 900;

export function compileView(site: Site, view: Record<string, unknown> | undefined, context: ViewContext) {
  const raw = canonicalView(view ?? {});
  const columns = columnsOf(site);
  const searchTypes = searchTypesOf(raw.ColumnFilterSearchTypes, columns);
  const negatives = raw.ColumnFilterNegatives;
  if (
    negatives !== undefined &&
    negatives !== null &&
    !(Array.isArray(negatives) && negatives.length === 0)
  ) {
    refuse('View.ColumnFilterNegatives', 'negative filters are not supported');
  }
  if (raw.Search !== undefined && raw.Search !== null && typeof raw.Search !== 'string') {
    refuse('View.Search', 'must be text');
  }
  const search = typeof raw.Search === 'string' && raw.Search.trim() !== '' ? raw.Search : undefined;
  const filterContext: FilterContext = { columns, searchTypes, ...context };
  const hash = objectOf('View.ColumnFilterHash', raw.ColumnFilterHash);
  const parts: Predicate[] = hashPredicate('View.ColumnFilterHash', hash, filterContext);
  parts.push(...generalFilters(site, raw, columns, context));
  const sorters = objectOf('View.ColumnSorterHash', raw.ColumnSorterHash);
  const compare = sorter(sorters, columns);
  const sorterKeys = Object.keys(sorters);
  const statuses = statusList(hash.Status);
  return {
    filter: (record: ItemRecord) => parts.every((part) => part(record)),
    compare,
    filters: parts.length > 0 || search !== undefined,
    search,
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
  return { ...view, filter: (record) => found.has(record.recordId) && view.filter(record) };
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

/** Incomplete, Own, NearCompletionTime, Delay, Overdue (View.cs SetGeneralsWhere). */
function generalFilters(
  site: Site,
  raw: Record<string, unknown>,
  columns: ReadonlyMap<string, Column>,
  context: ViewContext,
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
  const status = (r: ItemRecord) => r.status ?? 0;
  const incomplete = (r: ItemRecord) => status(r) < COMPLETION_CODE;
  if (flag('Incomplete', ['Status'])) parts.push(incomplete);
  if (flag('Own', ['Manager', 'Owner'])) {
    parts.push((r) => r.manager === context.userId || r.owner === context.userId);
  }
  if (flag('NearCompletionTime', ['CompletionTime'])) {
    const before = numberSetting(site.siteSettings.NearCompletionTimeBeforeDays, 7);
    const after = numberSetting(site.siteSettings.NearCompletionTimeAfterDays, 3);
    const from = startOfDay(context.now, context.zone, -before);
    const to = startOfDay(context.now, context.zone, after + 1) - 1;
    parts.push((r) => r.completionTime !== undefined && from <= r.completionTime && r.completionTime <= to);
  }
  if (flag('Delay', ['Status', 'ProgressRate', 'CompletionTime'])) {
    parts.push((r) => incomplete(r) && (r.progressRate ?? 0) < plannedRate(r, context.now));
  }
  if (flag('Overdue', ['Status', 'CompletionTime'])) {
    parts.push((r) => incomplete(r) && r.completionTime !== undefined && r.completionTime < context.now);
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
