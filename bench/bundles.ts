import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_FILE, bundle as bundleHandler, loadedAtStart } from '../infra/bundling';
import { fallbackHandler, routes } from '../lib/routes';
import { nodeBinary } from './children';
import { median, round } from './stats';

/**
 * Every HTTP handler bundled by the CDK app's own esbuild step (infra/bundling.ts, the very function
 * ApiFunction runs), then imported in fresh Node processes: the cold-start cost a Lambda pays before its
 * first request, minus Node's own start.
 */

export interface BundleResult extends Timings {
  readonly handler: string;
  /** The same figures for the baseline's bundle (BENCH_BASELINE_ROOT), measured in the same run. */
  readonly baseline?: Timings;
  /** The entry and the chunks it imports statically: what a cold start reads. */
  readonly sizeKb: number;
  /** The chunks imported dynamically (the S3 SDK, the SDK's lazy parts): read by the first call needing them. */
  readonly lazyKb: number;
  /** The packages (or `lib`, `functions`) that weigh most in the minified output, KB. */
  readonly largestInputs: readonly { readonly name: string; readonly kb: number }[];
}

export interface Timings {
  /** Median wall time of `node -e "await import(bundle)"` minus the median of `node -e ''`. */
  readonly importMs: number;
  /** The same with --enable-source-maps, which the deployed functions run with (NODE_OPTIONS). */
  readonly importWithSourceMapsMs: number;
  /**
   * Median wall time from spawn to the exit right after the handler's first answer to a payload 2.0 event
   * (its route, no credentials: the whole middleware stack, logger and envelope, no storage call), minus
   * the median of `node -e ''`; with --enable-source-maps, as deployed.
   */
  readonly firstAnswerMs: number;
  /** CPU time (user + system) of the import with source maps, minus a bare Node's. */
  readonly importCpuMs: number;
  /** CPU time to the first answer, minus a bare Node's. */
  readonly firstAnswerCpuMs: number;
  /** The status of that first answer: the 401 of an authenticated route, the 200 of the open ones… */
  readonly firstAnswerStatus: number;
}

/**
 * What every function of a kind loads before any code of its own (bench/floors/): bundled and imported
 * the same way, so that a handler's import time can be read against the parts it cannot shed.
 */
export interface FloorResult {
  readonly floor: string;
  readonly sizeKb: number;
  readonly importMs: number;
  readonly importWithSourceMapsMs: number;
  readonly importCpuMs: number;
}

const FLOORS = {
  'DynamoDB document client': 'bench/floors/dynamodb-client.ts',
  'zod and the shared schema pieces': 'bench/floors/schemas.ts',
  'the middleware stack, no route': 'bench/floors/stack.ts',
} as const;

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
  /** Median CPU time of a bare Node (the same, printing its CPU time), the baseline of the CPU figures. */
  readonly bareNodeCpuMs: number;
  readonly runs: number;
  readonly handlers: readonly BundleResult[];
  readonly floors: readonly FloorResult[];
}

export async function benchBundles(options: BundleOptions): Promise<BundlesResult> {
  // BENCH_HANDLERS=a,b: only those (a quicker look on a busy machine); the figures reported take all.
  const only = process.env.BENCH_HANDLERS?.split(',');
  const handlers = httpHandlers().filter((handler) => !only || only.includes(handler));
  const built = await Promise.all(
    handlers.map((handler) => bundle(join('functions', `${handler}.ts`), join(options.outDir, handler))),
  );
  const floors = Object.entries(FLOORS);
  const floorsBuilt = await Promise.all(
    floors.map(([, entry], index) => bundle(entry, join(options.outDir, `floor-${index}`))),
  );
  const floorSamples = floors.map(() => new Samples());
  // BENCH_BASELINE_ROOT=<a checkout of the baseline commit>: its bundles, built by its own bundling
  // step, are measured in the same run, interleaved with these.
  const baseRoot = process.env.BENCH_BASELINE_ROOT;
  const baseBundle = baseRoot
    ? (
        (await import(pathToFileURL(join(baseRoot, 'infra', 'bundling.ts')).href)) as {
          bundle: typeof bundleHandler;
        }
      ).bundle
    : undefined;
  const baseFiles = baseBundle
    ? await Promise.all(
        handlers.map(async (handler) => {
          const outdir = join(options.outDir, 'baseline', handler);
          await baseBundle({ entry: join('functions', `${handler}.ts`), outdir });
          return join(outdir, BUNDLE_FILE);
        }),
      )
    : undefined;

  // Runs are interleaved (bare, each handler, bare, …) so that a slow moment weighs on all alike.
  const bare: number[] = [];
  // CPU time (user + system, all threads) as well: on a loaded machine, wall time also counts the waits
  // for a core, CPU time does not.
  const bareCpu: number[] = [];
  const ours = handlers.map(() => new Samples());
  const base = handlers.map(() => new Samples());
  for (let run = 0; run < options.runs; run++) {
    bare.push(await wallTime(['-e', '']));
    bareCpu.push(await cpuTime(['-e', CPU_USED]));
    for (const [index, handler] of handlers.entries()) {
      await ours[index]?.take(built[index]?.outfile as string, handler);
      const baseFile = baseFiles?.[index];
      if (baseFile) await base[index]?.take(baseFile, handler);
    }
    for (const [index, floor] of floorsBuilt.entries()) await floorSamples[index]?.takeImport(floor.outfile);
  }
  const wall = median(bare);
  const cpu = median(bareCpu);
  const results = handlers.map((handler, index) => ({
    handler,
    sizeKb: built[index]?.sizeKb ?? 0,
    lazyKb: built[index]?.lazyKb ?? 0,
    ...(ours[index] as Samples).figures(wall, cpu),
    ...(baseFiles && { baseline: (base[index] as Samples).figures(wall, cpu) }),
    largestInputs: built[index]?.largestInputs ?? [],
  }));
  return {
    bareNodeMs: round(wall),
    bareNodeCpuMs: round(cpu),
    runs: options.runs,
    handlers: results,
    floors: floors.map(([floor], index) => {
      const { importMs, importWithSourceMapsMs, importCpuMs } = (floorSamples[index] as Samples).figures(
        wall,
        cpu,
      );
      return {
        floor,
        sizeKb: floorsBuilt[index]?.sizeKb ?? 0,
        importMs,
        importWithSourceMapsMs,
        importCpuMs,
      };
    }),
  };
}

/** The times of one bundle's processes, run after run. */
class Samples {
  private readonly plain: number[] = [];
  private readonly mapped: number[] = [];
  private readonly mappedCpu: number[] = [];
  private readonly answered: number[] = [];
  private readonly answeredCpu: number[] = [];
  private status = 0;

  async take(file: string, handler: string): Promise<void> {
    await this.takeImport(file);
    const answer = firstAnswerScript(file, handler);
    this.answered.push(await wallTime(['--enable-source-maps', '--input-type=module', '-e', answer]));
    this.status = lastStatus;
    this.answeredCpu.push(lastCpuMs);
  }

  async takeImport(file: string): Promise<void> {
    const script = `await import(${JSON.stringify(pathToFileURL(file).href)})`;
    this.plain.push(await wallTime(['--input-type=module', '-e', script]));
    this.mapped.push(await wallTime(['--enable-source-maps', '--input-type=module', '-e', script]));
    this.mappedCpu.push(
      await cpuTime(['--enable-source-maps', '--input-type=module', '-e', script + CPU_USED]),
    );
  }

  figures(bareWall: number, bareCpu: number): Timings {
    return {
      importMs: round(median(this.plain) - bareWall),
      importWithSourceMapsMs: round(median(this.mapped) - bareWall),
      firstAnswerMs: round(median(this.answered) - bareWall),
      importCpuMs: round(median(this.mappedCpu) - bareCpu),
      firstAnswerCpuMs: round(median(this.answeredCpu) - bareCpu),
      firstAnswerStatus: this.status,
    };
  }
}

/**
 * A script that imports the bundle, hands its handler a payload 2.0 event for the handler's route (path
 * parameters 1, an empty JSON body, no credentials) and exits as soon as the answer is there, printing its
 * status; anything but an answer below 500 fails the run.
 */
function firstAnswerScript(file: string, handler: string): string {
  const route = routes.find((entry) => entry.handler === handler);
  const method = route?.method ?? 'GET';
  const rawPath = (route?.path ?? '/nowhere').replace(/\{[^}]+\}/g, '1');
  const pathParameters = Object.fromEntries(
    [...(route?.path ?? '').matchAll(/\{([^}]+)\}/g)].map((match) => [match[1], '1']),
  );
  const routeKey = route ? `${method} ${route.path}` : '$default';
  const now = Date.now();
  const event = {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString: '',
    headers: {
      'content-type': 'application/json',
      host: 'api.example.com',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'https',
    },
    ...(Object.keys(pathParameters).length > 0 && { pathParameters }),
    requestContext: {
      accountId: '000000000000',
      apiId: 'bench',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench-request',
      routeKey,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    ...(method === 'POST' && { body: '{}' }),
    isBase64Encoded: false,
  };
  const context = {
    awsRequestId: 'bench-request',
    functionName: handler,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${handler}`,
    memoryLimitInMB: '1024',
    logGroupName: `/aws/lambda/${handler}`,
    logStreamName: 'bench',
    callbackWaitsForEmptyEventLoop: true,
  };
  return `
    const { handler } = await import(${JSON.stringify(pathToFileURL(file).href)});
    const context = { ...${JSON.stringify(context)}, getRemainingTimeInMillis: () => 30000 };
    const answer = await handler(${JSON.stringify(event)}, context);
    const status = answer?.statusCode ?? 0;
    process.stdout.write('\\nfirst-answer-status=' + status + '\\n');
    ${CPU_USED}
    process.exit(status > 0 && status < 500 ? 0 : 1);`;
}

/** Bundles `entry` (relative to the project root) into `outdir` as the CDK app does. */
async function bundle(
  entry: string,
  outdir: string,
): Promise<Pick<BundleResult, 'sizeKb' | 'lazyKb' | 'largestInputs'> & { outfile: string }> {
  const { metafile } = await bundleHandler({ entry, outdir });
  const atStart = new Set(loadedAtStart(metafile));
  const byPackage = new Map<string, number>();
  let startBytes = 0;
  let lazyBytes = 0;
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!file.endsWith('.mjs')) continue;
    if (!atStart.has(file)) {
      lazyBytes += output.bytes;
      continue;
    }
    startBytes += output.bytes;
    for (const [path, input] of Object.entries(output.inputs)) {
      const name = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? path.split('/')[0] ?? path;
      byPackage.set(name, (byPackage.get(name) ?? 0) + input.bytesInOutput);
    }
  }
  const largestInputs = [...byPackage]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, bytes]) => ({ name, kb: round(bytes / 1024) }));
  return {
    outfile: join(outdir, BUNDLE_FILE),
    sizeKb: round(startBytes / 1024),
    lazyKb: round(lazyBytes / 1024),
    largestInputs,
  };
}

/** Appended to a script: prints the process's CPU time so far (user + system, ms). */
const CPU_USED =
  ";{ const used = process.cpuUsage(); process.stdout.write('\\ncpu-ms=' + (used.user + used.system) / 1000 + '\\n'); }";

/** What the last process wrote to stdout: firstAnswerScript's status, CPU_USED's milliseconds. */
let lastStatus = 0;
let lastCpuMs = 0;

async function cpuTime(args: readonly string[]): Promise<number> {
  await wallTime(args);
  return lastCpuMs;
}

/** Milliseconds from spawn to exit of a fresh Node process; a failure (non-zero exit) throws. */
function wallTime(args: readonly string[]): Promise<number> {
  return new Promise((resolveTime, reject) => {
    const began = performance.now();
    const child = spawn(nodeBinary, args, { env: deployedEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const elapsed = performance.now() - began;
      lastStatus = Number(/first-answer-status=(\d+)/.exec(stdout)?.[1] ?? 0);
      lastCpuMs = Number(/cpu-ms=([\d.]+)/.exec(stdout)?.[1] ?? 0);
      if (code === 0) resolveTime(elapsed);
      else
        reject(
          new Error(
            `node ${args.join(' ').slice(0, 200)} failed (${code ?? signal}): ${stdout} ${stderr.trim()}`,
          ),
        );
    });
  });
}
