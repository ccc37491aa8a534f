import type { ItemRecord, Site } from './model';
import { allRecordsOf } from './record-repository';
import type { CompiledView } from './view/view';

/**
 * The records of a site and its integrated sites that a View selects, in its order, paged. The View is
 * evaluated over every record of those sites, read by key in batches: exact for every filter and sort,
 * at the cost of reading the whole site (README, "Views").
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
  const records = (await Promise.all(sites.map(allRecordsOf))).flat();
  const selected = records.filter(view.filter).sort(view.compare);
  return {
    totalCount: selected.length,
    page: selected.slice(paging.offset, paging.offset + paging.pageSize),
  };
}

/** Every record of the sites that the View selects, in its order (bulk deletes, upsert matches). */
export async function selectAll(sites: readonly Site[], view: CompiledView): Promise<ItemRecord[]> {
  const records = (await Promise.all(sites.map(allRecordsOf))).flat();
  return records.filter(view.filter).sort(view.compare);
}
