import { execSync, spawn } from 'node:child_process';
import { mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_FILE, bundleOptions } from '../infra/bundling';
import { routes } from '../lib/routes';
import { nodeBinary, projectRoot } from './children';
import { median, round } from './stats';

/**
 * Server scripts (issue 13), the bundles: every HTTP handler built by the deploy's esbuild step from this
 * tree and from the baseline (default: where this branch leaves main, `git merge-base HEAD main`), in the
 * same run. The handlers that carry the sandbox are imported in fresh Node processes (the time of the
 * `import()` itself: what a cold start adds to bare Node), as are a few that must not carry it, on both
 * trees.
 *
 * Run alone: node --import tsx bench/script-bundles.ts [baseline-ref]
 */

export const scriptBundleGoals = { importOverBareMs: 150 } as const;

/** The handlers that run server scripts (functions/items-{create,get,update,delete}.ts). */
const scripted = ['items-create', 'items-get', 'items-update', 'items-delete'];
const timedOthers = ['items-getsite', 'items-updatesite', 'sessions-get'];

export interface ScriptBundlesResult {
  readonly baseline: string;
  /** The sandbox alone (lib/scripts/sandbox.ts bundled): its import, then its first script (wasm compiled). */
  readonly sandboxAlone: { readonly sizeKb: number; readonly importMs: number; readonly firstRunMs: number };
  readonly runs: number;
  readonly handlers: readonly {
    readonly handler: string;
    readonly scripted: boolean;
    readonly sizeKb: number;
    readonly baselineSizeKb?: number;
    readonly carriesQuickJs: boolean;
    readonly importMs?: number;
    readonly baselineImportMs?: number;
  }[];
}

export async function benchScriptBundles(ref?: string, runs = 9): Promise<ScriptBundlesResult> {
  const baseline = ref ?? execSync('git merge-base HEAD main', { cwd: projectRoot }).toString().trim();
  const work = await mkdtemp(join(tmpdir(), 'kiroku-script-bundles-'));
  try {
    const baseRoot = join(work, 'baseline');
    execSync(`mkdir -p ${baseRoot} && git archive ${baseline} | tar -x -C ${baseRoot}`, { cwd: projectRoot });
    await symlink(join(projectRoot, 'node_modules'), join(baseRoot, 'node_modules'));
    const handlers = [...new Set(routes.map((route) => route.handler))].sort();
    const built = await Promise.all(
      handlers.map(async (handler) => ({
        handler,
        ours: await bundleIn(projectRoot, handler, join(work, 'ours', handler)),
        theirs: await bundleIn(baseRoot, handler, join(work, 'theirs', handler)).catch(() => undefined),
      })),
    );
    const sandbox = await bundleSandbox(join(work, 'sandbox'));
    const sandboxTimes = { importMs: [] as number[], firstRunMs: [] as number[] };
    const timed = [...scripted, ...timedOthers];
    const times = new Map<string, { ours: number[]; theirs: number[] }>(
      timed.map((handler) => [handler, { ours: [], theirs: [] }]),
    );
    for (let run = 0; run < runs; run++) {
      const alone = await sandboxRun(sandbox.file);
      sandboxTimes.importMs.push(alone.importMs);
      sandboxTimes.firstRunMs.push(alone.firstRunMs);
      for (const handler of timed) {
        const entry = built.find((one) => one.handler === handler);
        const slot = times.get(handler);
        if (!entry || !slot) continue;
        slot.ours.push(await importTime(entry.ours.file));
        if (entry.theirs) slot.theirs.push(await importTime(entry.theirs.file));
      }
    }
    return {
      baseline,
      sandboxAlone: {
        sizeKb: round(sandbox.size / 1024),
        importMs: round(median(sandboxTimes.importMs)),
        firstRunMs: round(median(sandboxTimes.firstRunMs)),
      },
      runs,
      handlers: built.map(({ handler, ours, theirs }) => {
        const slot = times.get(handler);
        return {
          handler,
          scripted: scripted.includes(handler),
          sizeKb: round(ours.size / 1024),
          baselineSizeKb: theirs && round(theirs.size / 1024),
          carriesQuickJs: ours.quickjs,
          importMs: slot && round(median(slot.ours)),
          baselineImportMs: slot?.theirs.length ? round(median(slot.theirs)) : undefined,
        };
      }),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function bundleIn(root: string, handler: string, outdir: string) {
  const entry = join('functions', `${handler}.ts`);
  const options = bundleOptions(entry, outdir);
  const result = await build({
    ...options,
    absWorkingDir: root,
    // Named as the deploy names it (index.mjs): an array entry would be named after the handler's file.
    entryPoints: { [BUNDLE_FILE.replace(/\.mjs$/, '')]: resolve(root, entry) },
    // A handler the baseline does not have yet is skipped, not reported.
    logLevel: 'silent',
  });
  const file = join(outdir, BUNDLE_FILE);
  const output = Object.entries(result.metafile.outputs).find(([path]) => path.endsWith('.mjs'));
  const inputs = Object.keys(output?.[1].inputs ?? {});
  return {
    file,
    size: (await stat(file)).size,
    quickjs: inputs.some((input) => /quickjs/.test(input)),
  };
}

async function bundleSandbox(outdir: string) {
  const result = await build(bundleOptions('test/fixtures/sandbox-handler.ts', outdir));
  const file = join(outdir, BUNDLE_FILE);
  if (result.errors.length > 0) throw new Error('the sandbox did not bundle');
  return { file, size: (await stat(file)).size };
}

/** In a fresh Node: the sandbox bundle's import, then its first script, which compiles the wasm. */
async function sandboxRun(file: string): Promise<{ importMs: number; firstRunMs: number }> {
  const url = JSON.stringify(pathToFileURL(file).href);
  const script = `let t = performance.now(); const { handler } = await import(${url});
    const importMs = performance.now() - t; t = performance.now(); await handler();
    console.log(JSON.stringify({ importMs, firstRunMs: performance.now() - t }));`;
  return JSON.parse(await nodeOutput(script));
}

const deployedEnv = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  POWERTOOLS_SERVICE_NAME: 'kiroku',
  KIROKU_TABLE_ITEMS: 'Items',
  KIROKU_TABLE_ACCOUNTS: 'Accounts',
  KIROKU_BUCKET: 'kiroku',
};

/**
 * The import measured inside a fresh Node, from before `import()` to after it: what a cold start adds to
 * Node's own start, without the spawn's noise on a shared machine.
 */
async function importTime(file: string): Promise<number> {
  const url = JSON.stringify(pathToFileURL(file).href);
  return Number(
    await nodeOutput(
      `const t = performance.now(); await import(${url}); console.log(performance.now() - t);`,
    ),
  );
}

function nodeOutput(script: string): Promise<string> {
  return new Promise((done, reject) => {
    const child = spawn(nodeBinary, ['--input-type=module', '-e', script], {
      env: deployedEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? done(stdout.trim()) : reject(new Error(`node failed (${code}): ${stderr}`)),
    );
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await benchScriptBundles(process.argv[2]), null, 2));
}
