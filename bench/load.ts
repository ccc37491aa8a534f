import { cpuMeter } from './cpu';
import { percentile, round } from './stats';

/**
 * A closed-loop load generator: `concurrency` workers each run one pair at a time, back to back.
 * Contenders are measured in alternating slices (A B A B …) after a warm-up of each, so that a drift
 * of the machine (JIT, a noisy neighbour on a shared VM) weighs on both alike rather than on one.
 */

export type Pair = (worker: number, iteration: number) => Promise<void>;

export interface Contender {
  readonly pair: Pair;
  /** Processes whose CPU the pairs cost, by name. */
  readonly pids: Readonly<Record<string, number>>;
}

export interface LoadOptions {
  readonly concurrency: number;
  readonly warmupMs: number;
  /** Measured time per contender, split over `rounds` slices. */
  readonly durationMs: number;
  readonly rounds: number;
}

export interface LoadResult {
  /** Completed pairs per second over the measured slices. */
  readonly pairsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly pairs: number;
  readonly errors: number;
  readonly firstError?: string;
  /** CPU milliseconds each process spent per measured pair: where the time goes on a small machine. */
  readonly cpuMsPerPair: Record<string, number>;
}

interface Tally {
  readonly latencies: number[];
  errors: number;
  firstError?: string;
  readonly cpu: Record<string, number>;
}

/** A broken endpoint fails fast: a slice stops rather than spin on errors. */
const MAX_ERRORS = 50;

export async function compare<K extends string>(
  options: LoadOptions,
  contenders: Readonly<Record<K, Contender>>,
): Promise<Record<K, LoadResult>> {
  const entries = Object.entries(contenders) as [K, Contender][];
  const tallies = new Map(entries.map(([name]) => [name, { latencies: [], errors: 0, cpu: {} } as Tally]));
  for (const [, contender] of entries) {
    await slice(options.concurrency, options.warmupMs, contender, { latencies: [], errors: 0, cpu: {} });
  }
  const sliceMs = options.durationMs / options.rounds;
  for (let round = 0; round < options.rounds; round++) {
    for (const [name, contender] of entries) {
      await slice(options.concurrency, sliceMs, contender, tallies.get(name) as Tally);
    }
  }
  const results = entries.map(([name]) => [name, summarize(tallies.get(name) as Tally, options.durationMs)]);
  return Object.fromEntries(results) as Record<K, LoadResult>;
}

/** Pairs that begin and end inside the slice count; CPU is read from the first start to the first stop. */
async function slice(concurrency: number, ms: number, contender: Contender, tally: Tally): Promise<void> {
  const end = performance.now() + ms;
  const meter = cpuMeter(contender.pids);
  let spent: Record<string, number> | undefined;
  const worker = async (index: number) => {
    for (let iteration = 0; performance.now() < end && tally.errors < MAX_ERRORS; iteration++) {
      const began = performance.now();
      try {
        await contender.pair(index, iteration);
      } catch (error) {
        tally.errors++;
        tally.firstError ??= (error as Error).message;
        continue;
      }
      const ended = performance.now();
      if (ended <= end) tally.latencies.push(ended - began);
    }
    spent ??= meter();
  };
  await Promise.all(Array.from({ length: concurrency }, (_, index) => worker(index)));
  for (const [name, value] of Object.entries(spent ?? {})) tally.cpu[name] = (tally.cpu[name] ?? 0) + value;
}

function summarize(tally: Tally, durationMs: number): LoadResult {
  const pairs = tally.latencies.length;
  const perPair = (ms: number) => round(ms / Math.max(1, pairs), 3);
  return {
    pairsPerSecond: round(pairs / (durationMs / 1000)),
    p50Ms: round(percentile(tally.latencies, 50), 2),
    p99Ms: round(percentile(tally.latencies, 99), 2),
    pairs,
    errors: tally.errors,
    ...(tally.firstError !== undefined && { firstError: tally.firstError }),
    cpuMsPerPair: Object.fromEntries(Object.entries(tally.cpu).map(([name, ms]) => [name, perPair(ms)])),
  };
}
