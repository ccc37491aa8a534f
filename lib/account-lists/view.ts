import type { Column } from '../items/view/columns';
import { refuse } from '../items/view/filter-values';
import { type FilterContext, hashPredicate, type Predicate } from '../items/view/filters';
import { type Comparator, columnSorter } from '../items/view/sorters';
import { objectOf, searchTypesOf } from '../items/view/view';

/**
 * A `View` on users/get, groups/get and depts/get, compiled against the accounts' columns with the items
 * API's filter and sorter syntax. Only ColumnFilterHash, ColumnFilterSearchTypes and ColumnSorterHash mean
 * something here; any other property is refused with a 400 naming it, never ignored (CONTRACT 5.1).
 */

const properties = ['ColumnFilterHash', 'ColumnFilterSearchTypes', 'ColumnSorterHash'] as const;

export interface ListView<R> {
  readonly filter: Predicate<R>;
  readonly compare: Comparator<R>;
}

export interface ListViewContext {
  readonly userId: number;
  readonly zone: string;
  readonly now: number;
  /** The column the path's `{id}` fills on `{id}/get`: the View may not name it again. */
  readonly pathColumn?: string;
}

export function compileListView<R extends { readonly updatedAt: number }>(
  view: Record<string, unknown> | null | undefined,
  columns: ReadonlyMap<string, Column<R>>,
  context: ListViewContext,
  id: (account: R) => number,
): ListView<R> {
  const raw = canonical(view ?? {});
  const hash = objectOf('View.ColumnFilterHash', raw.ColumnFilterHash);
  if (context.pathColumn !== undefined && context.pathColumn in hash) {
    refuse(`View.ColumnFilterHash.${context.pathColumn}`, 'the path already names the one to read');
  }
  const filterContext: FilterContext<R> = {
    columns,
    searchTypes: searchTypesOf(raw.ColumnFilterSearchTypes, columns),
    userId: context.userId,
    zone: context.zone,
    now: context.now,
  };
  const parts = hashPredicate<R>('View.ColumnFilterHash', hash, filterContext);
  // The reference's default order (View.OrderBy): UpdatedTime descending; the id keeps pages stable.
  const compare = columnSorter<R>(
    objectOf('View.ColumnSorterHash', raw.ColumnSorterHash),
    columns,
    (a, b) => b.updatedAt - a.updatedAt || id(b) - id(a),
  );
  return { filter: (account) => parts.every((part) => part(account)), compare };
}

/** Property names in their canonical case (they match without case); an unsupported one is refused. */
function canonical(view: Record<string, unknown>): Record<string, unknown> {
  const byLowerCase = new Map<string, string>(properties.map((name) => [name.toLowerCase(), name]));
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(view)) {
    const name = byLowerCase.get(key.toLowerCase());
    if (!name) {
      refuse(`View.${key}`, `users, groups and depts apply only ${properties.join(', ')}`);
    }
    if (!(name in result) || key === name) result[name] = value;
  }
  return result;
}
