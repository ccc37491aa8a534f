import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_FILE, bundle, loadedAtStart } from '../../infra/bundling';
import { SYNTH_TIMEOUT_MS } from './synth';

let outdir: string;
let sources: string[];
/** KB of the sessions-get bundle by package. */
let weights: Map<string, number>;

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'kiroku-bundling-'));
  await bundle({ entry: 'test/fixtures/credentials-handler.ts', outdir });
  // The entry's map and its chunks' (infra/bundling.ts splits what is imported dynamically).
  sources = readdirSync(outdir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.mjs.map'))
    .flatMap((name) => JSON.parse(readFileSync(join(outdir, name), 'utf8')).sources as string[]);
  const built = await bundle({ entry: 'functions/sessions-get.ts', outdir: join(outdir, 'sessions-get') });
  weights = new Map();
  for (const output of Object.values(built.metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? 'ours';
      weights.set(name, (weights.get(name) ?? 0) + bytesInOutput / 1024);
    }
  }
}, SYNTH_TIMEOUT_MS);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** Runs the bundled handler in a fresh Node with only `env` (and PATH): its answer, or its error. */
function run(env: Record<string, string>): { answer?: unknown; error?: string } {
  const script = `
    const { handler } = await import(${JSON.stringify(pathToFileURL(join(outdir, BUNDLE_FILE)).href)});
    try { console.log(JSON.stringify({ answer: await handler() })); }
    catch (error) { console.log(JSON.stringify({ error: String(error) })); }`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', ...env },
  });
  if (child.status !== 0) throw new Error(`the bundle failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout);
}

describe('the bundles’ AWS credentials', () => {
  it("are Lambda's, from the environment", () => {
    const credentials = {
      accessKeyId: 'ASIAKIROKUTEST',
      secretAccessKey: 'secret',
      sessionToken: 'token',
    };
    const { answer } = run({
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_SESSION_TOKEN: credentials.sessionToken,
    });
    expect(answer).toEqual([credentials, credentials]);
  });

  it('are looked for nowhere else: no profile file, SSO or metadata service', () => {
    const { error } = run({ AWS_PROFILE: 'kiroku', HOME: outdir });
    expect(error).toMatch(/environment variable credentials/i);
  });

  it('leave the rest of the default chain out of the bundle', () => {
    for (const left of ['credential-provider-node', 'credential-provider-ini', 'credential-provider-sso']) {
      expect(sources.filter((source) => source.includes(`/@aws-sdk/${left}/`))).toEqual([]);
    }
    expect(sources.filter((source) => source.includes('/@aws-sdk/nested-clients/'))).toEqual([]);
    expect(sources).toContainEqual(expect.stringContaining('/@aws-sdk/credential-provider-env/'));
  });
});

describe('what a bundle carries', () => {
  it('keeps zod to what the schemas use', () => {
    // `import { z } from 'zod'` takes zod's whole namespace object (~190 KB); `import * as z from 'zod'`
    // lets esbuild keep only what the schemas reach (~90 KB).
    expect(weights.get('zod')).toBeLessThan(120);
  });
});

/** The packages in the files a cold start loads, and in those loaded later, of one handler's bundle. */
async function packagesByLoad(handler: string): Promise<{ atStart: Set<string>; later: Set<string> }> {
  const { metafile } = await bundle({ entry: `functions/${handler}.ts`, outdir: join(outdir, handler) });
  const start = new Set(loadedAtStart(metafile));
  const atStart = new Set<string>();
  const later = new Set<string>();
  for (const [file, output] of Object.entries(metafile.outputs)) {
    for (const path of Object.keys(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? 'ours';
      (start.has(file) ? atStart : later).add(name);
    }
  }
  return { atStart, later };
}

describe('the server-script sandbox in bundles', () => {
  /** The packages of a handler's bundle: its entry and every chunk. */
  const packagesOf = async (handler: string) => {
    const { atStart, later } = await packagesByLoad(handler);
    return [...atStart, ...later];
  };

  it.each(['items-create', 'items-get', 'items-update', 'items-delete'])(
    'is in %s, which runs scripts',
    async (handler) => {
      const packages = await packagesOf(handler);
      expect(packages).toContain('quickjs-emscripten-core');
      // The singlefile variant: the wasm is inside the bundle, none is read from disk.
      expect(packages).toContain('@jitl/quickjs-singlefile-cjs-release-sync');
      // ~800 KB and the library around it: in chunks read by the first request that runs a script, not by
      // every cold start.
      const { atStart } = await packagesByLoad(handler);
      expect([...atStart].filter((name) => name.includes('quickjs'))).toEqual([]);
    },
    SYNTH_TIMEOUT_MS,
  );

  it.each([
    'items-getsite',
    'items-updatesite',
    'items-updatesitesettings',
    'sessions-get',
    'binaries-upload',
  ])(
    'is not in %s',
    async (handler) => {
      const packages = await packagesOf(handler);
      expect(packages.filter((name) => name.includes('quickjs'))).toEqual([]);
    },
    SYNTH_TIMEOUT_MS,
  );
});

describe('the script worker in bundles', () => {
  it.each(['items-create', 'items-get', 'items-update', 'items-delete'])(
    'ships beside %s as script-worker.mjs',
    async (handler) => {
      await bundle({ entry: `functions/${handler}.ts`, outdir: join(outdir, `worker-${handler}`) });
      expect(readdirSync(join(outdir, `worker-${handler}`))).toContain('script-worker.mjs');
    },
    SYNTH_TIMEOUT_MS,
  );

  it(
    'runs scripts from the bundle, answers lookups, and stops a stuck built-in at the deadline',
    async () => {
      const dir = join(outdir, 'script-worker');
      await bundle({ entry: 'test/fixtures/script-worker-handler.ts', outdir: dir });
      const script = `
        const { handler } = await import(${JSON.stringify(pathToFileURL(join(dir, BUNDLE_FILE)).href)});
        console.log(JSON.stringify(await handler()));`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH },
      });
      expect(child.stderr).toBe('');
      const { looked, stuck, stuckMs } = JSON.parse(child.stdout);
      expect(looked.kind).toBe('done');
      expect(JSON.parse(looked.result).model).toEqual({ Title: 'looked up' });
      expect(stuck).toMatchObject({ kind: 'failed', what: expect.stringMatching(/ran out of time/) });
      // 13 s when nothing stops the built-in.
      expect(stuckMs).toBeLessThan(3000);
    },
    SYNTH_TIMEOUT_MS,
  );
});

describe('the S3 client', () => {
  // ~20 ms of a cold start: a function pays for it with its first S3 call, not with every start.
  it.each(['binaries-upload', 'binaries-guid-upload', 'binaries-get', 'binaries-download', 'binaries-show'])(
    'is in a chunk of %s loaded by the first call that needs it',
    async (handler) => {
      const { atStart, later } = await packagesByLoad(handler);
      expect(atStart).not.toContain('@aws-sdk/client-s3');
      expect(atStart).not.toContain('@aws-sdk/s3-request-presigner');
      expect(later).toContain('@aws-sdk/client-s3');
    },
    SYNTH_TIMEOUT_MS,
  );

  it(
    'is nowhere in a function that never touches the bucket',
    async () => {
      const { atStart, later } = await packagesByLoad('sessions-get');
      expect([...atStart, ...later].filter((name) => name.includes('s3'))).toEqual([]);
    },
    SYNTH_TIMEOUT_MS,
  );
});

describe('the browser UI in bundles', () => {
  it(
    "carries the UI's files beside the functions that serve them, and no one else's",
    async () => {
      const page = join(outdir, 'web-page');
      await bundle({ entry: 'functions/web-page.ts', outdir: page });
      const files = readdirSync(join(page, 'web'));
      expect(files).toContain('index.html');
      expect(files.filter((name) => /^app-\w+\.js(\.br|\.gz)?$/.test(name))).toHaveLength(3);
      expect(files.filter((name) => /^app-\w+\.css(\.br|\.gz)?$/.test(name))).toHaveLength(3);
      const html = readFileSync(join(page, 'web', 'index.html'), 'utf8');
      for (const [, asset] of html.matchAll(/(?:src|href)="assets\/([^"]+)"/g))
        expect(files).toContain(asset);
      expect(readdirSync(join(outdir, 'sessions-get'))).not.toContain('web');
    },
    SYNTH_TIMEOUT_MS,
  );
});
