import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_FILE, bundle as bundleHandler } from '../infra/bundling';
import { fallbackHandler, routes } from '../lib/routes';
import { nodeBinary } from './children';
import { median, round } from './stats';

/**
 * Every HTTP handler bundled by the CDK app's own esbuild step (infra/bundling.ts, the very function
 * ApiFunction runs), then imported in fresh Node processes: the cold-start cost a Lambda pays before its
 * first request, minus Node's own start.
 */

export interface BundleResult {
  readonly handler: string;
  readonly sizeKb: number;
  /** Median wall time of `node -e "await import(bundle)"` minus the median of `node -e ''`. */
  readonly importMs: number;
  /** The same with --enable-source-maps, which the deployed functions run with (NODE_OPTIONS). */
  readonly importWithSourceMapsMs: number;
  /** The packages (or `lib`, `functions`) that weigh most in the minified output, KB. */
  readonly largestInputs: readonly { readonly name: string; readonly kb: number }[];
}

export interface BundleOptions {
  readonly outDir: string;
  readonly runs: number;
}

/** The handler modules behind the API: one per route plus the `$default` fallback. */
export function httpHandlers(): string[] {
  return [...new Set([...routes.map((route) => route.handler), fallbackHandler])];
}

/** What a deployed function has in its environment; handlers read settings at module load. */
const deployedEnv = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  POWERTOOLS_SERVICE_NAME: 'kiroku',
  KIROKU_TABLE_SESSIONS: 'Sessions',
  KIROKU_TABLE_ACCOUNTS: 'Accounts',
  KIROKU_BUCKET: 'kiroku',
};

export interface BundlesResult {
  /** Median wall time of a bare `node -e ''`, the baseline subtracted. */
  readonly bareNodeMs: number;
  readonly runs: number;
  readonly handlers: readonly BundleResult[];
}

export async function benchBundles(options: BundleOptions): Promise<BundlesResult> {
  const handlers = httpHandlers();
  const built = await Promise.all(handlers.map((handler) => bundle(handler, options.outDir)));
  const bundles = built.map((result) => result.outfile);
  const sizes = await Promise.all(bundles.map(async (file) => (await stat(file)).size));

  // Runs are interleaved (bare, each handler, bare, …) so that a slow moment weighs on all alike.
  const bare: number[] = [];
  const plain = bundles.map((): number[] => []);
  const mapped = bundles.map((): number[] => []);
  for (let run = 0; run < options.runs; run++) {
    bare.push(await wallTime(['-e', '']));
    for (const [index, file] of bundles.entries()) {
      const script = `await import(${JSON.stringify(pathToFileURL(file).href)})`;
      plain[index]?.push(await wallTime(['--input-type=module', '-e', script]));
      mapped[index]?.push(await wallTime(['--enable-source-maps', '--input-type=module', '-e', script]));
    }
  }
  const baseline = median(bare);
  const results = handlers.map((handler, index) => ({
    handler,
    sizeKb: round((sizes[index] ?? 0) / 1024),
    importMs: round(median(plain[index] ?? []) - baseline),
    importWithSourceMapsMs: round(median(mapped[index] ?? []) - baseline),
    largestInputs: built[index]?.largestInputs ?? [],
  }));
  return { bareNodeMs: round(baseline), runs: options.runs, handlers: results };
}

async function bundle(
  handler: string,
  outDir: string,
): Promise<{ outfile: string; largestInputs: BundleResult['largestInputs'] }> {
  const outdir = join(outDir, handler);
  const result = await bundleHandler({ entry: join('functions', `${handler}.ts`), outdir });
  const output = Object.entries(result.metafile.outputs).find(([path]) => path.endsWith('.mjs'));
  const inputs = output?.[1].inputs ?? {};
  const byPackage = new Map<string, number>();
  for (const [path, input] of Object.entries(inputs)) {
    const name = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? path.split('/')[0] ?? path;
    byPackage.set(name, (byPackage.get(name) ?? 0) + input.bytesInOutput);
  }
  const largestInputs = [...byPackage]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, bytes]) => ({ name, kb: round(bytes / 1024) }));
  return { outfile: join(outdir, BUNDLE_FILE), largestInputs };
}

/** Milliseconds from spawn to exit of a fresh Node process; a failure (non-zero exit) throws. */
function wallTime(args: readonly string[]): Promise<number> {
  return new Promise((resolveTime, reject) => {
    const began = performance.now();
    const child = spawn(nodeBinary, args, { env: deployedEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const elapsed = performance.now() - began;
      if (code === 0) resolveTime(elapsed);
      else reject(new Error(`node ${args.join(' ')} failed (${code ?? signal}): ${stderr.trim()}`));
    });
  });
}
