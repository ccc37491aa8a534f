import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../local/dynamodb-local';
import { drain, spawnNode, stop, waitForLine } from './children';
import { median, round } from './stats';

/**
 * `npm start` (scripts/start.ts under the pinned Node) from spawn to its listening line: once on an
 * empty data directory (first start: tables and the administrator are created), then `runs` times on
 * the data that start left. Each start is stopped with SIGTERM, which must end it and its JVM.
 */

export interface StartRun {
  readonly listeningMs: number;
  /** From SIGTERM to exit. */
  readonly stopMs: number;
  readonly exitCode: number | null;
  /** A DynamoDB Local JVM of this data directory was running once listening (so the check below means something). */
  readonly javaSeen: boolean;
  /** A DynamoDB Local JVM of this data directory still running after the exit. */
  readonly javaLeft: boolean;
}

export interface StartResult {
  readonly cold: StartRun;
  readonly warm: readonly StartRun[];
  readonly warmMedianMs: number;
  /** Every stop was graceful (exit code 0) and ended the JVM that start had launched. */
  readonly cleanStops: boolean;
}

export async function benchStart(runs: number, baseEnv: NodeJS.ProcessEnv): Promise<StartResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kiroku-bench-data-'));
  try {
    const env = { ...baseEnv, KIROKU_DATA_DIR: dataDir };
    const cold = await startOnce(env, dataDir);
    const warm: StartRun[] = [];
    for (let run = 0; run < runs; run++) warm.push(await startOnce(env, dataDir));
    const all = [cold, ...warm];
    return {
      cold,
      warm,
      warmMedianMs: round(median(warm.map((run) => run.listeningMs))),
      cleanStops: all.every((run) => run.exitCode === 0 && run.javaSeen && !run.javaLeft),
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function startOnce(env: NodeJS.ProcessEnv, dataDir: string): Promise<StartRun> {
  const port = await freePort();
  const began = performance.now();
  const child = spawnNode(['--import', 'tsx', 'scripts/start.ts'], { env: { ...env, PORT: String(port) } });
  try {
    await waitForLine(child, new RegExp(`^Kiroku is listening on http://127\\.0\\.0\\.1:${port}\\b`), 60_000);
  } catch (error) {
    await stop(child, 5_000);
    throw error;
  }
  const listeningMs = performance.now() - began;
  drain(child);
  const javaSeen = javaProcessesFor(dataDir).length > 0;
  const stopping = performance.now();
  const { exit } = await stop(child, 15_000);
  const stopMs = performance.now() - stopping;
  return {
    listeningMs: round(listeningMs),
    stopMs: round(stopMs),
    exitCode: exit.code,
    javaSeen,
    javaLeft: javaProcessesFor(dataDir).length > 0,
  };
}

/** Pids of java processes whose command line names the data directory (Linux /proc). */
function javaProcessesFor(dataDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args[0]?.endsWith('java') && args.some((arg) => arg.startsWith(dataDir))) pids.push(Number(entry));
    } catch {
      // the process ended while being read
    }
  }
  return pids;
}
