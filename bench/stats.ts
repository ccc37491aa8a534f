/** Order statistics for the measurements: nearest-rank, so every figure is one that was observed. */

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function round(value: number, digits = 1): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** A figure's p50 and p90 in ms, to two decimals. */
export interface Timing {
  readonly p50Ms: number;
  readonly p90Ms: number;
}

export const timing = (times: readonly number[]): Timing => ({
  p50Ms: round(median(times), 2),
  p90Ms: round(percentile(times, 90), 2),
});

/** How long `work` took, in ms. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
