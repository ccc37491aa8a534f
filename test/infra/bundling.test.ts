import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_FILE, bundle } from '../../infra/bundling';
import { SYNTH_TIMEOUT_MS } from './synth';

let outdir: string;
let sources: string[];
/** KB of the sessions-get bundle by package. */
let weights: Map<string, number>;

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'kiroku-bundling-'));
  await bundle({ entry: 'test/fixtures/credentials-handler.ts', outdir });
  sources = JSON.parse(readFileSync(join(outdir, `${BUNDLE_FILE}.map`), 'utf8')).sources;
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

describe('the server-script sandbox in bundles', () => {
  /** The packages of a handler's bundle. */
  const packagesOf = async (handler: string) => {
    const built = await bundle({ entry: `functions/${handler}.ts`, outdir: join(outdir, `pkg-${handler}`) });
    const output = Object.entries(built.metafile.outputs).find(([path]) => path.endsWith('.mjs'));
    return Object.keys(output?.[1].inputs ?? {}).map(
      (path) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? 'ours',
    );
  };

  it.each(['items-create', 'items-get', 'items-update', 'items-delete'])(
    'is in %s, which runs scripts',
    async (handler) => {
      const packages = await packagesOf(handler);
      expect(packages).toContain('quickjs-emscripten-core');
      // The singlefile variant: the wasm is inside the bundle, none is read from disk.
      expect(packages).toContain('@jitl/quickjs-singlefile-cjs-release-sync');
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
