import type { Site } from '../sites/model';
import type { ItemRecord } from './model';
import { recordCount, recordKeys, recordPage, recordsByKeys } from './record-repository';

/**
 * The records of a site and its integrated sites (lib/sites/integrated-sites.ts) read as one list in id
 * order, paged as one site's records are. With one site this is that site's page.
 */

export async function recordCountOf(sites: readonly Site[]): Promise<number> {
  const counts = await Promise.all(sites.map(recordCount));
  return counts.reduce((sum, count) => sum + count, 0);
}

/**
 * One page of the merged list. Every record of the page is among the first `offset + pageSize` of its own
 * site, so those keys of each site, merged by id, hold the page: a deep page costs its offset in keys per
 * site, as the single-site read skips its offset in keys.
 */
export async function recordPageOf(
  sites: readonly Site[],
  offset: number,
  pageSize: number,
): Promise<ItemRecord[]> {
  const [only] = sites;
  if (sites.length === 1 && only) return recordPage(only, offset, pageSize);
  const perSite = await Promise.all(sites.map((site) => recordKeys(site, offset + pageSize)));
  const keys = perSite
    .flat()
    .map((key) => ({ key, id: Number(key.pk.slice(key.pk.lastIndexOf('#') + 1)) }))
    .sort((a, b) => a.id - b.id)
    .slice(offset, offset + pageSize);
  return recordsByKeys(keys.map(({ key }) => key));
}
