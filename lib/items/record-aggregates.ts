import { callerLanguage } from '../accounts/caller-language';
import type { Principal } from '../accounts/principal';
import { UnsupportedInputError } from '../errors';
import type { Site } from '../sites/model';
import { compileViewFor, type RecordGetInput } from './record-get';
import { readableInSite } from './record-permissions';
import { type Selection, selectVisible } from './record-select';
import { recordColumns } from './view/columns';
import { numberOf } from './view/filters';
import { viewJoins } from './view/joins';
import { joinedNamesIn, type RecordSearch, sorterNamesIn, withSearch } from './view/view';

/**
 * Aggregates over a table's records (the reference's items.Sum/Average/Max/Min/MaxDate/MinDate/Count of
 * server scripts): the records are those `items/{id}/get` would page through for the same View and
 * caller (the table and its integrated sites, the caller's read permissions, the View compiled and
 * searched alike), all of them, not one page. What the View cannot apply is refused as on the API.
 */

export type Aggregate = 'Sum' | 'Average' | 'Max' | 'Min';

/** Issues and Results only, as the reference aggregates: Wikis and folders have nothing to count. */
const AGGREGATED: ReadonlySet<string> = new Set(['Issues', 'Results']);

/**
 * How many records the View selects among those the caller may read; undefined when they may read no
 * record of the table. A View by a Status list alone is counted from the stored per-Status counts, as
 * the API's TotalCount is; any other filter reads every candidate record.
 */
export async function countRecords(
  principal: Principal,
  site: Site,
  view: RecordGetInput['View'],
  search?: RecordSearch,
): Promise<number | undefined> {
  const selection = await selectFor(principal, site, view, search, 0);
  return selection?.totalCount;
}

/**
 * The aggregate of a column over every record the View selects; undefined when there is nothing to
 * aggregate (no value, or no record the caller may read). `kind` is the column kind the aggregate takes
 * (the reference's decimal columns for Sum/Average/Max/Min, datetime columns for MaxDate/MinDate): a
 * column of another kind, or none of that name, is refused, naming it. Dates are epoch ms.
 */
export async function aggregateColumn(
  principal: Principal,
  site: Site,
  columnName: string,
  aggregate: Aggregate,
  kind: 'number' | 'date',
  view: RecordGetInput['View'],
  search?: RecordSearch,
): Promise<number | undefined> {
  const column = recordColumns(site, callerLanguage(principal), 'item').get(columnName);
  if (!column || column.model?.kind !== kind) {
    throw new UnsupportedInputError(
      `${JSON.stringify(columnName)} is not a ${kind === 'number' ? 'numeric' : 'date'} column of site ${site.siteId}`,
    );
  }
  const selection = await selectFor(principal, site, view, search, Number.POSITIVE_INFINITY);
  const values: number[] = [];
  for (const record of selection?.page ?? []) {
    const value = kind === 'number' ? numberOf(column, record) : column.read(record);
    if (typeof value === 'number') values.push(value);
  }
  return aggregateOf(aggregate, values);
}

function aggregateOf(aggregate: Aggregate, values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  switch (aggregate) {
    case 'Sum':
      return values.reduce((sum, value) => sum + value, 0);
    case 'Average':
      return values.reduce((sum, value) => sum + value, 0) / values.length;
    case 'Max':
      return values.reduce((max, value) => Math.max(max, value));
    case 'Min':
      return values.reduce((min, value) => Math.min(min, value));
  }
}

/** The View's selection as items/{id}/get makes it, the first `pageSize` records of it (Infinity: all). */
async function selectFor(
  principal: Principal,
  site: Site,
  view: RecordGetInput['View'],
  search: RecordSearch | undefined,
  pageSize: number,
): Promise<Selection | undefined> {
  if (!AGGREGATED.has(site.referenceType)) return undefined;
  const access = await readableInSite(principal, site);
  if (!access) return undefined;
  const joins = await viewJoins(
    principal,
    site,
    joinedNamesIn(view ?? undefined),
    callerLanguage(principal),
    sorterNamesIn(view ?? undefined),
  );
  const compiled = compileViewFor(principal, site, view, true, joins);
  const selected = await withSearch(compiled, principal.tenantId, access.siteIds, search);
  return selectVisible(access.readable, access.granted, selected, { offset: 0, pageSize });
}
