import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Child processes of the benchmark: the pinned Node 24 binary (the one running this script, which
 * `npm run bench` takes from node_modules/.bin), and a registry so that no child outlives the run,
 * whatever path the process leaves by.
 */

export const projectRoot = resolve(import.meta.dirname, '..');

/** node_modules/.bin/node resolves to this binary; the system Node is never used. */
export const nodeBinary = process.execPath;

const running = new Set<ChildProcess>();

process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function spawnNode(args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(nodeBinary, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  return child;
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Settles when the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((done) => {
    child.once('exit', (code, signal) => done({ code, signal }));
    child.once('error', () => done({ code: null, signal: null }));
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; reports whether the child left within the grace period. */
export async function stop(
  child: ChildProcess,
  graceMs = 15_000,
): Promise<{ graceful: boolean; exit: Exit }> {
  const done = exited(child);
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<undefined>((wake) => {
    timer = setTimeout(() => wake(undefined), graceMs);
  });
  const exit = await Promise.race([done, timedOut]);
  clearTimeout(timer);
  if (exit) return { graceful: true, exit };
  child.kill('SIGKILL');
  return { graceful: false, exit: await done };
}

/** Resolves with the first stdout line matching `pattern`; rejects on exit or after `timeoutMs`. */
export function waitForLine(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpMatchArray> {
  return new Promise((resolveLine, reject) => {
    let buffer = '';
    let tail = '';
    const timer = setTimeout(
      () => finish(new Error(`no line matching ${pattern} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const match = line.match(pattern);
        if (match) return finish(undefined, match);
      }
    };
    const onErr = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-2000);
    };
    const onExit = (code: number | null) =>
      finish(new Error(`exited (code ${code}) before ${pattern}: ${tail}`));
    function finish(error?: Error, match?: RegExpMatchArray) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onErr);
      child.off('exit', onExit);
      if (match) resolveLine(match);
      else reject(error);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onErr);
    child.once('exit', onExit);
  });
}

/** Reads and drops a child's output, so that a full pipe never blocks it. */
export function drain(child: ChildProcess): void {
  child.stdout?.resume();
  child.stderr?.resume();
}

/** bench/serve.ts (the local gateway alone) as a child, its log silenced; `env` adds settings. */
export function spawnBenchGateway(env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawnNode(['--import', 'tsx', 'bench/serve.ts'], {
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', ...env },
  });
}

/** The URL the bench gateway serves on, once it says so; its output is drained from then on. */
export async function benchGatewayUrl(gateway: ChildProcess): Promise<string> {
  const [, url] = await waitForLine(gateway, /bench gateway listening on (\S+)/, 30_000);
  drain(gateway);
  return url as string;
}
