import { buildNameIndex, isFolder, type NameIndex, type SiteEntry, siteOf } from '../lib/sites/name-index';
import { applySiteChanges, type SiteChange } from '../lib/sites/name-index-updates';
import { seededRandom } from './site-data';
import { percentile, round } from './stats';

/**
 * What one site change costs the stream handler: an incremental update of the loaded index, for each
 * kind of change, against rebuilding the index from the full list of 100,000 sites. (Reading the
 * index from S3 and writing it back are the same either way, and not measured here.)
 */

const PER_KIND = 200;

type Kind = 'create' | 'rename' | 'move' | 'retype' | 'delete';

export function measureUpdates(index: NameIndex, sites: readonly SiteEntry[]): Record<string, number> {
  const random = seededRandom(11);
  const any = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const folders = sites.filter((site) => site.referenceType === 'Sites').map((site) => site.siteId);
  let nextId = Math.max(...sites.map((site) => site.siteId));
  // A site still in the index, drawn at random; leaves for moves, so that no move makes a cycle.
  const current = (leaf = false): SiteEntry => {
    for (;;) {
      const slot = Math.floor(random() * index.count);
      if (!leaf || !isFolder(index, slot)) return siteOf(index, index.ids[slot] as number) as SiteEntry;
    }
  };
  const changeOf: Record<Kind, () => SiteChange> = {
    create: () => ({
      kind: 'put',
      site: { siteId: ++nextId, parentId: any(folders), referenceType: 'Issues', siteName: 'Shared 1' },
    }),
    rename: () => ({
      kind: 'put',
      site: { ...current(), siteName: `Shared ${Math.floor(random() * 2_000)}` },
    }),
    move: () => ({ kind: 'put', site: { ...current(true), parentId: any(folders) } }),
    retype: () => ({ kind: 'put', site: { ...current(true), referenceType: 'Results' } }),
    delete: () => ({ kind: 'remove', siteId: current(true).siteId }),
  };
  const result: Record<string, number> = {};
  for (const kind of Object.keys(changeOf) as Kind[]) {
    const times: number[] = [];
    for (let run = 0; run < PER_KIND; run++) {
      const change = changeOf[kind]();
      const started = performance.now();
      applySiteChanges(index, [change], index.version + 1);
      times.push(performance.now() - started);
    }
    result[`update${kind[0]?.toUpperCase()}${kind.slice(1)}P50Ms`] = round(percentile(times, 50), 3);
    result[`update${kind[0]?.toUpperCase()}${kind.slice(1)}MaxMs`] = round(Math.max(...times), 3);
  }
  const rebuild: number[] = [];
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    buildNameIndex(sites, run);
    rebuild.push(performance.now() - started);
  }
  result.fullRebuildP50Ms = round(percentile(rebuild, 50), 1);
  return result;
}
