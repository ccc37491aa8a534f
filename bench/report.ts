import type { BundlesResult } from './bundles';
import type { ChunkSteps } from './chunk-steps';
import type { InProcessCase } from './in-process';
import type { SessionsResult } from './sessions';
import type { SiteLookupGatewayResult } from './site-lookup-gateway';
import type { StartResult } from './start-time';
import { round } from './stats';
import type { UploadResult } from './upload';

/** The goals of the benchmark issue, each figure judged against its own, and the printed table. */

export const goals = {
  sessionsRatio: 0.8,
  /** A handler in process against its own storage calls made bare (issue 15). */
  inProcessRatio: 0.9,
  bundleKb: 600,
  importMs: 80,
  /** Spawn to the first answer to a payload 2.0 event, minus a bare Node, with source maps (issue 15). */
  firstAnswerMs: 150,
  startMs: 10_000,
  lookupSpeedup: 100,
  indexUpdateMs: 2_000,
  indexMb: 100,
  /** Chunked upload through the gateway against a direct PutObject, at 50 and 200 MiB (issue 15). */
  uploadRatio: 0.3,
  /**
   * Growth of the serving process's memory during an upload, its peak over what it held before the
   * first chunk: 3 × the chunk size + 100 MB. Growth, not absolute RSS: the gateway holds every handler
   * module and the function its SDK clients before any upload starts, which the upload does not cost.
   */
  uploadMemoryBaseMb: 100,
} as const;

export interface Verdict {
  readonly measure: string;
  readonly value: string;
  readonly goal: string;
  readonly pass: boolean;
}

export function sessionsVerdicts(result: SessionsResult): Verdict[] {
  const { kiroku, bare } = result;
  const errors = kiroku.errors + bare.errors;
  return [
    {
      measure: `Sessions set+get, ${result.concurrency} workers: Kiroku / bare SDK (pairs/s)`,
      value: `${result.ratio.toFixed(2)} (${kiroku.pairsPerSecond} / ${bare.pairsPerSecond})`,
      goal: `>= ${goals.sessionsRatio}`,
      pass: result.ratio >= goals.sessionsRatio && errors === 0,
    },
  ];
}

export function bundleVerdicts({ handlers }: BundlesResult): Verdict[] {
  const largest = Math.max(...handlers.map((result) => result.sizeKb));
  const slowest = Math.max(...handlers.map((result) => result.importMs));
  const over = (count: number) => `${count} of ${handlers.length} over`;
  const tooLarge = handlers.filter((result) => result.sizeKb >= goals.bundleKb).length;
  const tooSlow = handlers.filter((result) => result.importMs >= goals.importMs).length;
  const slowestMapped = Math.max(...handlers.map((result) => result.importWithSourceMapsMs));
  const tooSlowMapped = handlers.filter((result) => result.importWithSourceMapsMs >= goals.importMs).length;
  const slowestAnswer = Math.max(...handlers.map((result) => result.firstAnswerMs));
  const tooSlowAnswer = handlers.filter((result) => result.firstAnswerMs >= goals.firstAnswerMs).length;
  return [
    {
      measure: 'Largest handler bundle',
      value: `${largest.toFixed(1)} KB (${over(tooLarge)})`,
      goal: `< ${goals.bundleKb} KB`,
      pass: largest < goals.bundleKb,
    },
    {
      measure: 'Slowest handler import, fresh Node minus bare',
      value: `${slowest.toFixed(1)} ms (${over(tooSlow)})`,
      goal: `< ${goals.importMs} ms`,
      pass: slowest < goals.importMs,
    },
    {
      measure: 'Slowest handler import with source maps (as deployed), minus bare',
      value: `${slowestMapped.toFixed(1)} ms (${over(tooSlowMapped)})`,
      goal: `< ${goals.importMs} ms`,
      pass: slowestMapped < goals.importMs,
    },
    {
      measure: 'Slowest spawn to first answer (payload 2.0, source maps), minus bare',
      value: `${slowestAnswer.toFixed(1)} ms (${over(tooSlowAnswer)})`,
      goal: `< ${goals.firstAnswerMs} ms`,
      pass: slowestAnswer < goals.firstAnswerMs,
    },
  ];
}

export function startVerdicts(result: StartResult): Verdict[] {
  return [
    {
      measure: `npm start to listening, existing data (median of ${result.warm.length})`,
      value: `${(result.warmMedianMs / 1000).toFixed(2)} s`,
      goal: `< ${goals.startMs / 1000} s`,
      pass: result.warmMedianMs < goals.startMs,
    },
    {
      measure: 'npm start stops on SIGTERM, no JVM left',
      value: result.cleanStops ? 'yes' : 'no',
      goal: 'yes',
      pass: result.cleanStops,
    },
  ];
}

export function printSessions(result: SessionsResult): void {
  const seconds = result.durationMs / 1000;
  console.log(
    `\nSessions set+get, ${result.concurrency} workers, ${seconds} s each after ${result.warmupMs / 1000} s warm-up, ` +
      `alternating in ${result.rounds} slices; gateway in a ${result.gateway}`,
  );
  printTable(
    ['', 'pairs/s', 'p50 ms', 'p99 ms', 'errors', 'CPU ms per pair'],
    (['kiroku', 'bare'] as const).map((name) => {
      const run = result[name];
      const cpu = Object.entries(run.cpuMsPerPair).map(([process, ms]) => `${process} ${ms.toFixed(2)}`);
      const total = Object.values(run.cpuMsPerPair).reduce((sum, ms) => sum + ms, 0);
      cpu.push(`total ${total.toFixed(2)}`);
      return [
        name,
        run.pairsPerSecond.toFixed(1),
        run.p50Ms.toFixed(1),
        run.p99Ms.toFixed(1),
        run.errors,
        cpu.join(', '),
      ];
    }),
  );
  for (const name of ['kiroku', 'bare'] as const) {
    const error = result[name].firstError;
    if (error) console.log(`  ${name}: first error: ${error}`);
  }
}

export function printBundles({ handlers, floors, bareNodeMs, bareNodeCpuMs, runs }: BundlesResult): void {
  console.log(
    `\nHandler bundles (the CDK app's esbuild settings); import = wall time of a fresh Node importing the bundle ` +
      `minus a bare \`node -e ''\` (${bareNodeMs.toFixed(1)} ms), medians of ${runs}; deployed functions run with source maps on; ` +
      'first answer = spawn to exit after the answer to a payload 2.0 event without credentials, with source maps; ' +
      `CPU = the process's user + system time with source maps, minus a bare Node's (${bareNodeCpuMs} ms)`,
  );
  printTable(
    [
      'handler',
      'size KB',
      'lazy KB',
      'import ms',
      'with source maps',
      'first answer ms',
      'status',
      'CPU ms import / answer',
      'baseline: maps / answer / CPU',
      'largest inputs',
    ],
    handlers.map((result) => [
      result.handler,
      mark(result.sizeKb, result.sizeKb < goals.bundleKb),
      (result.lazyKb ?? 0).toFixed(1),
      mark(result.importMs, result.importMs < goals.importMs),
      mark(result.importWithSourceMapsMs, result.importWithSourceMapsMs < goals.importMs),
      mark(result.firstAnswerMs, result.firstAnswerMs < goals.firstAnswerMs),
      result.firstAnswerStatus,
      `${result.importCpuMs} / ${result.firstAnswerCpuMs}`,
      result.baseline
        ? [
            result.baseline.importWithSourceMapsMs,
            result.baseline.firstAnswerMs,
            result.baseline.importCpuMs,
            result.baseline.firstAnswerCpuMs,
          ].join(' / ')
        : '-',
      result.largestInputs.map((input) => `${input.name} ${input.kb}`).join(', '),
    ]),
  );
  console.log(
    '\nFloors: what every function of a kind loads before its own code, bundled and imported alike',
  );
  printTable(
    ['floor', 'size KB', 'import ms', 'with source maps', 'CPU ms'],
    floors.map((floor) => [
      floor.floor,
      floor.sizeKb,
      floor.importMs,
      floor.importWithSourceMapsMs,
      floor.importCpuMs,
    ]),
  );
}

export function printStart(result: StartResult): void {
  console.log('\nnpm start, spawn to "Kiroku is listening"');
  const rows = [
    ['first (empty data dir)', result.cold] as const,
    ...result.warm.map((run, index) => [`existing data #${index + 1}`, run] as const),
  ];
  printTable(
    ['start', 'listening s', 'stop s', 'exit code', 'JVM left'],
    rows.map(([name, run]) => [
      name,
      (run.listeningMs / 1000).toFixed(2),
      (run.stopMs / 1000).toFixed(2),
      String(run.exitCode),
      run.javaLeft ? 'yes' : 'no',
    ]),
  );
}

/** benchSiteLookup's figures (bench/site-lookup.ts), in process. */
export type SiteLookupResult = Record<string, unknown> & {
  readonly coldCacheP50Us: number;
  readonly coldCacheP99Us: number;
  readonly warmCacheP50Us: number;
  readonly warmCacheP99Us: number;
  readonly referenceP50Ms: number;
  readonly referenceP99Ms: number;
  readonly speedupP50: number;
  readonly indexMemoryMb: number;
};

export function siteLookupVerdicts(
  inProcess?: SiteLookupResult,
  gateway?: SiteLookupGatewayResult,
): Verdict[] {
  const verdicts: Verdict[] = [];
  if (inProcess) {
    verdicts.push({
      measure: 'Site lookup in process: reference p50 / Kiroku p50 (cache emptied)',
      value: `${inProcess.speedupP50}x (${inProcess.referenceP50Ms} ms / ${inProcess.coldCacheP50Us} µs)`,
      goal: `>= ${goals.lookupSpeedup}x`,
      pass: inProcess.speedupP50 >= goals.lookupSpeedup,
    });
    verdicts.push({
      measure: 'Site-name index memory, 100,000 sites',
      value: `${inProcess.indexMemoryMb} MB`,
      goal: `< ${goals.indexMb} MB`,
      pass: inProcess.indexMemoryMb < goals.indexMb,
    });
  }
  if (inProcess && gateway) {
    // The reference rebuilds its tree from the sites it holds in memory; through a gateway it would pay
    // the same HTTP and DynamoDB costs as Kiroku on top, so its in-process time is a lower bound.
    const speedup = Math.round(inProcess.referenceP50Ms / gateway.gatewayP50Ms);
    verdicts.push({
      measure: 'Site lookup through the gateway: reference p50 (in process, a lower bound) / Kiroku p50',
      value: `${speedup}x (${inProcess.referenceP50Ms} ms / ${gateway.gatewayP50Ms} ms)`,
      goal: `>= ${goals.lookupSpeedup}x`,
      pass: speedup >= goals.lookupSpeedup,
    });
  }
  if (gateway) {
    verdicts.push({
      measure: 'Site rename to updated index, seen by lookups (median / max)',
      value: `${gateway.changeToIndexMs.median} / ${gateway.changeToIndexMs.max} ms`,
      goal: `< ${goals.indexUpdateMs} ms`,
      pass: gateway.changeToIndexMs.max < goals.indexUpdateMs,
    });
  }
  return verdicts;
}

export function printSiteLookup(inProcess?: SiteLookupResult, gateway?: SiteLookupGatewayResult): void {
  console.log('\nSite lookup on 100,000 sites (2,000 names shared by up to 50 sites each)');
  const rows: (string | number)[][] = [];
  if (inProcess) {
    rows.push([
      'Kiroku in process, cache emptied',
      `${inProcess.coldCacheP50Us} µs`,
      `${inProcess.coldCacheP99Us} µs`,
    ]);
    rows.push([
      'Kiroku in process, cache hit',
      `${inProcess.warmCacheP50Us} µs`,
      `${inProcess.warmCacheP99Us} µs`,
    ]);
    rows.push([
      'reference (rebuild + walk per request)',
      `${inProcess.referenceP50Ms} ms`,
      `${inProcess.referenceP99Ms} ms`,
    ]);
  }
  if (gateway) {
    rows.push([
      `Kiroku through the gateway (${gateway.lookups} warm)`,
      `${gateway.gatewayP50Ms} ms`,
      `${gateway.gatewayP99Ms} ms`,
    ]);
    rows.push([
      "the gateway's floor: a 404 from the fallback, no authentication or storage (interleaved)",
      `${gateway.floorP50Ms} ms`,
      `${gateway.floorP99Ms} ms`,
    ]);
    if (gateway.baseline) {
      rows.push([
        'baseline checkout through its gateway (same lookups)',
        `${gateway.baseline.gatewayP50Ms} ms`,
        `${gateway.baseline.gatewayP99Ms} ms`,
      ]);
    }
  }
  printTable(['', 'p50', 'p99'], rows);
  if (gateway) {
    console.log(
      `  loading the sites: ${gateway.loadS} s; first index from the table: ${gateway.initialIndexMs} ms; ` +
        `rename to lookup: median ${gateway.changeToIndexMs.median} ms, max ${gateway.changeToIndexMs.max} ms (${gateway.changeToIndexMs.runs} runs)`,
    );
  }
}

export function printVerdicts(verdicts: readonly Verdict[]): void {
  console.log('\nGoals');
  printTable(
    ['measure', 'value', 'goal', ''],
    verdicts.map((verdict) => [verdict.measure, verdict.value, verdict.goal, verdict.pass ? 'PASS' : 'FAIL']),
  );
}

function mark(value: number, pass: boolean): string {
  return `${value.toFixed(1)}${pass ? '  ' : ' ✗'}`;
}

function printTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): void {
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: readonly string[]) =>
    `  ${row.map((cell, column) => (column > 0 && /^-?[\d.]+( ✗| {2})?$/.test(cell) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0))).join('  ')}`.trimEnd();
  console.log(line(cells[0] ?? []));
  console.log(`  ${widths.map((width) => '-'.repeat(width)).join('  ')}`);
  for (const row of cells.slice(1)) console.log(line(row));
}

export function uploadVerdicts({ runs }: UploadResult): Verdict[] {
  return runs.flatMap((run) => {
    const limitMb = (3 * run.chunkMiB * 1024 * 1024) / 1e6 + goals.uploadMemoryBaseMb;
    const verdicts: Verdict[] = [
      {
        measure: `Peak memory of the serving process (npm start's gateway), ${run.fileMiB} MiB upload`,
        value: `${round(run.peakRssMb - run.rssBeforeMb, 1)} MB growth (${run.rssBeforeMb} MB before, ${run.peakRssMb} MB peak)`,
        goal: `growth < ${limitMb.toFixed(1)} MB`,
        pass: run.peakRssMb - run.rssBeforeMb < limitMb,
      },
      {
        measure: `Peak memory of the upload function as deployed (bundle), ${run.fileMiB} MiB upload`,
        value:
          `${round(run.lambdaPeakRssMb - run.lambdaRssBeforeMb, 1)} MB growth (${run.lambdaRssBeforeMb} MB before, ` +
          `${run.lambdaPeakRssMb} MB peak; ${run.lambdaPeakRssCollectedMb} MB peak with a GC after each chunk)`,
        goal: `growth < ${limitMb.toFixed(1)} MB`,
        pass: run.lambdaPeakRssMb - run.lambdaRssBeforeMb < limitMb,
      },
    ];
    verdicts.unshift({
      measure: `Upload of ${run.fileMiB} MiB in ${run.chunkMiB} MiB chunks / direct PutObject (MB/s)`,
      value: `${run.ratio} (${run.uploadMBps} / ${run.directMBps})`,
      goal: `>= ${goals.uploadRatio}`,
      pass: run.ratio >= goals.uploadRatio,
    });
    return verdicts;
  });
}

export function printUpload({ runs }: UploadResult): void {
  console.log('\nBinary upload through the local gateway (chunks with Content-Range) vs a direct PutObject');
  console.log(
    '  file MiB  chunk MiB  upload MB/s  direct MB/s  ratio  gateway RSS before/peak MB  function RSS before/peak MB',
  );
  for (const run of runs) {
    console.log(
      `  ${String(run.fileMiB).padStart(8)}  ${String(run.chunkMiB).padStart(9)}  ${String(run.uploadMBps).padStart(11)}` +
        `  ${String(run.directMBps).padStart(11)}  ${String(run.ratio).padStart(5)}` +
        `  ${`${run.rssBeforeMb} / ${run.peakRssMb}`.padStart(26)}` +
        `  ${`${run.lambdaRssBeforeMb} / ${run.lambdaPeakRssMb}`.padStart(27)}`,
    );
  }
}

export function inProcessVerdicts(cases: readonly InProcessCase[]): Verdict[] {
  return cases.map((result) => ({
    measure: `${result.name} in process, ${result.concurrency} callers: handler / its calls bare (per s)`,
    value: `${result.ratio.toFixed(2)} (${result.kiroku.pairsPerSecond} / ${result.bare.pairsPerSecond})`,
    goal: `>= ${goals.inProcessRatio}`,
    pass: result.ratio >= goals.inProcessRatio && result.kiroku.errors + result.bare.errors === 0,
  }));
}

export function printInProcess(cases: readonly InProcessCase[]): void {
  console.log(
    '\nHandlers in process (payload 2.0 event, no HTTP) vs the same DynamoDB calls sent by a bare client, ' +
      'alternating slices on one DynamoDB Local',
  );
  printTable(
    ['case', 'callers', 'calls', 'handler /s', 'bare /s', 'ratio', 'p50 ms h / b', 'CPU ms per op h / b'],
    cases.map((result) => [
      result.name,
      result.concurrency,
      result.calls.join(' '),
      result.kiroku.pairsPerSecond.toFixed(1),
      result.bare.pairsPerSecond.toFixed(1),
      result.ratio.toFixed(2),
      `${result.kiroku.p50Ms} / ${result.bare.p50Ms}`,
      `${result.kiroku.cpuMsPerPair.bench ?? 0} / ${result.bare.cpuMsPerPair.bench ?? 0}`,
    ]),
  );
  for (const result of cases) {
    for (const name of ['kiroku', 'bare'] as const) {
      const error = result[name].firstError;
      if (error) console.log(`  ${result.name} ${name}: first error: ${error}`);
    }
  }
}

export function printChunkSteps(result: ChunkSteps): void {
  console.log(
    `\nWhere a ${result.chunkMiB} MiB chunk's time goes (${result.fileMiB} MiB file, ${result.chunks} chunks, ` +
      `gateway in process, calls timed on the service's clients): ${result.requestMs} ms per chunk`,
  );
  printTable(
    ['step', 'calls per chunk', 'ms per chunk'],
    [
      ...Object.entries(result.perChunk).map(([command, entry]) => [
        command,
        entry.calls,
        entry.ms.toFixed(1),
      ]),
      ['rest: HTTP, event, multipart, MD5, stack', '', result.otherMs.toFixed(1)],
    ],
  );
}
