import type { Site } from '../sites/model';
import type { ItemRecord } from './model';
import { walkRecent } from './record-index-walk';
import { recordCount, statusCountOf } from './record-repository';
import type { CompiledView } from './view/view';

/**
 * The records of a site and its integrated sites that a View selects, in its order, paged (docs/api.md,
 * "Views"). In the default order the walk stops once the page is full, and TotalCount comes from the
 * stored counts when the View filters by nothing or by a Status list only; any other filter is
 * evaluated on every candidate record, and any other order sorts every candidate. Candidates are the
 * records of the Status values a Status list allows, else every record of the sites.
 */
export interface Selection {
  readonly totalCount: number;
  readonly page: readonly ItemRecord[];
}

export async function selectRecords(
  sites: readonly Site[],
  view: CompiledView,
  paging: { offset: number; pageSize: number },
): Promise<Selection> {
  const end = paging.offset + paging.pageSize;
  const counted = view.defaultOrder && (!view.filters || view.statusOnly);
  if (!counted) {
    const all = await selectAll(sites, view);
    return { totalCount: all.length, page: all.slice(paging.offset, end) };
  }
  const [walk, totalCount] = await Promise.all([
    walkRecent(sites, view.statuses, view.filter, end),
    countOf(sites, view.statusOnly ? view.statuses : undefined),
  ]);
  return { totalCount, page: walk.matches.slice(paging.offset, end) };
}

/**
 * As selectRecords, with `granted` records (of sites the caller may not read whole, that their own rows
 * let them read) among the candidates: then every candidate is filtered and sorted, which reads the
 * readable sites whole; a caller who reads only by record rows reads only those records.
 */
export async function selectVisible(
  readable: readonly Site[],
  granted: readonly ItemRecord[],
  view: CompiledView,
  paging: { offset: number; pageSize: number },
): Promise<Selection> {
  if (granted.length === 0) return selectRecords(readable, view, paging);
  const all = [
    ...(readable.length > 0 ? await selectAll(readable, view) : []),
    ...granted.filter(view.filter),
  ];
  all.sort(view.compare);
  return { totalCount: all.length, page: all.slice(paging.offset, paging.offset + paging.pageSize) };
}

/** Every record of the sites that the View selects, in its order (bulk deletes, upsert matches). */
export async function selectAll(sites: readonly Site[], view: CompiledView): Promise<ItemRecord[]> {
  const walk = await walkRecent(sites, view.statuses, view.filter, Number.POSITIVE_INFINITY);
  return view.defaultOrder ? walk.matches : walk.matches.sort(view.compare);
}

async function countOf(sites: readonly Site[], statuses: readonly number[] | undefined): Promise<number> {
  const counts = await Promise.all(
    sites.map((site) => (statuses ? statusCountOf(site, statuses) : recordCount(site))),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}
