import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { findClosestSiteId } from '../lib/sites/closest-site';
import { clearLookupCache } from '../lib/sites/lookup-cache';
import { buildNameIndex, type NameIndex } from '../lib/sites/name-index';
import { deserializeNameIndex, serializeNameIndex } from '../lib/sites/name-index-codec';
import { ReferenceSiteTree } from '../test/fixtures/reference-site-tree';
import { generateSites, seededRandom } from './site-data';
import { measureUpdates } from './site-updates';
import { percentile, round } from './stats';

/**
 * In-process site lookup (issue 3): the name index against the reference's approach (a SiteNameTree
 * rebuilt from every site on each request, then its walk) on the same 100,000 sites. Every lookup
 * asks for a shared name (2 to 50 holders), so none takes the unique-name shortcut. Memory is
 * measured in a child started with --expose-gc, so that nothing else of this run is on its heap.
 *
 * Run alone: node --import tsx bench/site-lookup.ts
 */

export const siteLookupGoals = { speedup: 100, indexMb: 100, updateMs: 2_000 } as const;

export interface SiteLookupOptions {
  readonly lookups?: number;
  readonly referenceRequests?: number;
}

type Pair = readonly [originId: number, name: string];

export async function benchSiteLookup(options: SiteLookupOptions = {}): Promise<Record<string, unknown>> {
  const { lookups = 20_000, referenceRequests = 20 } = options;
  const { sites, sharedNames, maxDepth } = generateSites();
  const random = seededRandom(7);
  const pairs: Pair[] = Array.from({ length: lookups }, () => [
    (sites[Math.floor(random() * sites.length)] as { siteId: number }).siteId,
    sharedNames[Math.floor(random() * sharedNames.length)] as string,
  ]);

  const buildMs = repeat(5, () => buildNameIndex(sites, 1));
  const index = buildNameIndex(sites, 1);
  const cold = timeEach(pairs, ([origin, name]) => {
    clearLookupCache(index.cache);
    findClosestSiteId(index, origin, name);
  });
  const warm = warmCacheTimes(index, pairs);
  // The reference's cost per request: the tree built from all sites, then one walk.
  const reference = timeEach(pairs.slice(0, referenceRequests), ([origin, name]) => {
    new ReferenceSiteTree(sites).find(origin, name);
  });
  const prebuilt = new ReferenceSiteTree(sites);
  const referenceWalk = timeEach(pairs.slice(0, referenceRequests), ([origin, name]) => {
    prebuilt.caches.length = 0;
    prebuilt.find(origin, name);
  });
  const mismatches = pairs
    .slice(0, 200)
    .filter(
      ([origin, name]) => findClosestSiteId(index, origin, name) !== prebuilt.find(origin, name),
    ).length;

  const stored = serializeNameIndex(index);
  const serializeMs = repeat(5, () => serializeNameIndex(index));
  const deserializeMs = repeat(5, () => deserializeNameIndex(stored));
  const updates = measureUpdates(deserializeNameIndex(stored), sites);
  const memory = await measureMemoryInChild();

  const us = (ms: number) => round(ms * 1000, 2);
  const coldP50 = percentile(cold, 50);
  return {
    sites: sites.length,
    sharedNames: sharedNames.length,
    treeLevels: maxDepth + 1,
    lookups,
    coldCacheP50Us: us(coldP50),
    coldCacheP99Us: us(percentile(cold, 99)),
    warmCacheP50Us: us(percentile(warm, 50)),
    warmCacheP99Us: us(percentile(warm, 99)),
    referenceRequests,
    referenceP50Ms: round(percentile(reference, 50), 2),
    referenceP99Ms: round(percentile(reference, 99), 2),
    referenceWalkOnlyP50Ms: round(percentile(referenceWalk, 50), 2),
    speedupP50: Math.round(percentile(reference, 50) / coldP50),
    mismatchesWithReference: mismatches,
    buildMs: round(percentile(buildMs, 50), 1),
    serializeMs: round(percentile(serializeMs, 50), 1),
    deserializeMs: round(percentile(deserializeMs, 50), 1),
    storedKb: round(stored.length / 1024, 0),
    storedGzipKb: round(gzipSync(stored).length / 1024, 0),
    ...updates,
    ...memory,
  };
}

function timeEach<T>(items: readonly T[], run: (item: T) => void): number[] {
  // A first pass lets the JIT settle, so the figures are those of a warm Lambda.
  for (const item of items.slice(0, Math.min(items.length, 2_000))) run(item);
  return items.map((item) => {
    const started = performance.now();
    run(item);
    return performance.now() - started;
  });
}

function repeat(times: number, run: () => unknown): number[] {
  return timeEach(
    Array.from({ length: times }, (_, at) => at),
    run,
  );
}

/** Cache hits: a working set smaller than the cache, asked once to fill it, then timed. */
function warmCacheTimes(index: NameIndex, pairs: readonly Pair[]): number[] {
  const working = pairs.slice(0, 1_000);
  clearLookupCache(index.cache);
  for (const [origin, name] of working) findClosestSiteId(index, origin, name);
  return timeEach(
    Array.from({ length: pairs.length }, (_, at) => working[at % working.length] as Pair),
    ([origin, name]) => findClosestSiteId(index, origin, name),
  );
}

/** Heap plus typed-array memory of an index loaded from its stored bytes, as the lookup Lambda holds it. */
async function measureMemoryInChild(): Promise<Record<string, number>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--memory'],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, number>;
}

function usedMb(): number {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('Run with --expose-gc');
  for (let pass = 0; pass < 3; pass++) collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 2 ** 20;
}

function memoryReport(): Record<string, number> {
  const stored = serializeNameIndex(buildNameIndex(generateSites().sites, 1));
  const before = usedMb();
  const loaded = deserializeNameIndex(stored);
  const after = usedMb();
  // Both figures hold the stored bytes; only the loaded index differs.
  return { indexMemoryMb: round(after - before, 1), indexSites: loaded.count, storedBytes: stored.length };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--memory')) {
    console.log(JSON.stringify(memoryReport()));
  } else {
    const result = await benchSiteLookup();
    console.table(Object.entries(result).map(([measure, value]) => ({ measure, value })));
    const goals = siteLookupGoals;
    console.log(
      `goals: speedup >= ${goals.speedup}x, index < ${goals.indexMb} MB, one change < ${goals.updateMs} ms`,
    );
  }
}
