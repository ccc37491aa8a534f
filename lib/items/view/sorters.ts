import type { ItemRecord } from '../model';
import type { Column, ColumnValue } from './columns';
import { refuse } from './filter-values';

export type Comparator<R = ItemRecord> = (a: R, b: R) => number;

/** The reference's SqlOrderBy.Types: asc 0, desc 1, by name in any case or by number. */
function directionOf(path: string, value: unknown): 1 | -1 {
  const text = String(value).toLowerCase();
  if (text === 'asc' || text === '0') return 1;
  if (text === 'desc' || text === '1') return -1;
  return refuse(path, `${JSON.stringify(value)} is not "asc" or "desc"`);
}

/**
 * ColumnSorterHash in its key order, then the reference's default order: UpdatedTime descending, then
 * the id descending. An empty value sorts first going up (SQL Server's NULL order). TitleBody sorts by
 * the title, then the body (View.cs OrderBy).
 */
export function sorter(hash: Record<string, unknown>, columns: ReadonlyMap<string, Column>): Comparator {
  return columnSorter(hash, columns, (a, b) => b.updatedAt - a.updatedAt || b.recordId - a.recordId);
}

/** ColumnSorterHash in its key order over any table's columns, then that table's default order. */
export function columnSorter<R>(
  hash: Record<string, unknown>,
  columns: ReadonlyMap<string, Column<R>>,
  fallback: Comparator<R>,
): Comparator<R> {
  const keys = Object.entries(hash).map(([name, value]) => {
    const path = `View.ColumnSorterHash.${name}`;
    const column = columns.get(name);
    if (!column) refuse(path, `this table has no column ${name}`);
    return { column, direction: directionOf(path, value) };
  });
  return (a, b) => {
    for (const { column, direction } of keys) {
      const order =
        compareValues(sortValue(column, a), sortValue(column, b)) ||
        (column.thenBy ? compareValues(column.thenBy(a) ?? '', column.thenBy(b) ?? '') : 0);
      if (order !== 0) return order * direction;
    }
    return fallback(a, b);
  };
}

/** Title and text sort an empty value as ''; numbers that are not nullable as 0. */
function sortValue<R>(column: Column<R>, record: R): ColumnValue {
  const value = (column.sortRead ?? column.read)(record);
  if (value !== undefined) return value;
  if (column.kind === 'text' || column.kind === 'choices') return '';
  if ((column.kind === 'numeric' || column.kind === 'user') && !column.nullable) return 0;
  if (column.kind === 'bool') return false;
  return undefined;
}

function compareValues(a: ColumnValue, b: ColumnValue): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : 1;
  return Number(a) < Number(b) ? -1 : 1;
}
