import { copyFile, mkdir, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { type BuildOptions, type BuildResult, build, type Plugin } from 'esbuild';
import { buildWeb } from '../web/build';

/**
 * The one esbuild step of Kiroku: the CDK app (infra/api-function.ts, through infra/bundle-cli.ts) and the
 * benchmark (bench/bundles.ts) both call `bundle`, so what is measured is what is deployed. It uses
 * esbuild's async API because NodejsFunction cannot take plugins and plugins need the async API.
 */

/** The project root, so that bundling does not depend on the directory it is started from. */
export const projectRoot = resolve(import.meta.dirname, '..');

const WEB_ASSETS_MODULE = 'lib/http/web-assets.ts';

/**
 * A bundle that runs server scripts starts their worker thread (lib/scripts/worker-pool.ts) from a file of
 * its own: the worker's module is a second entry point, written as script-worker.mjs beside index.mjs.
 */
const SCRIPT_WORKER = {
  host: 'lib/scripts/worker-pool.ts',
  entry: 'lib/scripts/script-worker.ts',
  name: 'script-worker',
} as const;

/** The file Lambda loads: `index.handler` names its export `handler`. */
export const BUNDLE_FILE = 'index.mjs';

/**
 * zod's entries do `export * as locales from '../locales/index.js'`, which esbuild cannot tree-shake:
 * every language (~250 KB) would land in each bundle. Only English is used (zod configures it itself, in
 * classic/external.js), so the index is replaced by one that re-exports English alone.
 */
export const englishOnlyZodLocales: Plugin = {
  name: 'english-only-zod-locales',
  setup(pluginBuild) {
    const namespace = 'english-only-zod-locales';
    pluginBuild.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, ({ path, importer }) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(importer) ? { path, namespace } : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: projectRoot,
      loader: 'js',
    }));
  },
};

const builtins = new Set(builtinModules.map((name) => name.replace(/^node:/, '')));

/**
 * In ESM output esbuild turns a dependency's `import … from 'node:http'` into a static import, and Node
 * then builds the builtin's ESM namespace at load, running its lazy getters (`http.WebSocket` loads
 * undici: ~20 ms of cold start). Each builtin becomes a CommonJS module that `require`s it, through the
 * banner's createRequire; esbuild's __toESM interop keeps default and named imports working.
 */
export const builtinsThroughRequire: Plugin = {
  name: 'builtins-through-require',
  setup(pluginBuild) {
    const namespace = 'builtins-through-require';
    pluginBuild.onResolve({ filter: /^[a-z_:/]+$/ }, ({ path, namespace: from }) => {
      const name = path.replace(/^node:/, '');
      // The require() inside our own module must stay external, or it would resolve to itself.
      return from !== namespace && builtins.has(name) ? { path: name, namespace } : undefined;
    });
    pluginBuild.onLoad({ filter: /.*/, namespace }, ({ path }) => ({
      contents: `module.exports = require(${JSON.stringify(`node:${path}`)});`,
      loader: 'js',
    }));
  },
};

/**
 * Lambda gives a function its role's credentials in the environment (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), where the SDK's default chain looks first. The rest of that
 * chain (ini files, SSO, login, process, web identity, ECS and EC2 metadata, with the STS and SSO clients
 * they carry) is never reached in Lambda, yet it is ~110 KB of every bundle and ~10 ms of every cold start.
 * So the bundles' default provider reads the environment alone. The local runtime runs the sources, with
 * the whole chain; its clients have static credentials for the emulators anyway (lib/storage/clients.ts).
 */
export const lambdaCredentialsFromEnv: Plugin = {
  name: 'lambda-credentials-from-env',
  setup(pluginBuild) {
    const namespace = 'lambda-credentials-from-env';
    pluginBuild.onResolve({ filter: /^@aws-sdk\/credential-provider-node$/ }, ({ path }) => ({
      path,
      namespace,
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace }, () => ({
      contents: "export { fromEnv as defaultProvider } from '@aws-sdk/credential-provider-env';",
      resolveDir: projectRoot,
      loader: 'js',
    }));
  },
};

/**
 * The build of one handler module (path relative to the project root) into `outdir`/index.mjs, with the
 * script worker's entry when the handler runs server scripts.
 */
export function bundleOptions(
  entry: string,
  outdir: string,
  withScriptWorker = false,
): BuildOptions & { metafile: true } {
  const worker: Record<string, string> = withScriptWorker
    ? { [SCRIPT_WORKER.name]: resolve(projectRoot, SCRIPT_WORKER.entry) }
    : {};
  return {
    absWorkingDir: projectRoot,
    entryPoints: { [BUNDLE_FILE.replace(/\.mjs$/, '')]: resolve(projectRoot, entry), ...worker },
    outdir: resolve(outdir),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // What a handler imports dynamically (the S3 SDK: lib/files/s3-sdk.ts) goes into a chunk of its own,
    // which Node reads and runs only when the first request needs it, not at every cold start.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // Everything inside, the AWS SDK too: we pin its version rather than take the runtime's.
    external: [],
    platform: 'node',
    format: 'esm',
    target: 'node24',
    mainFields: ['module', 'main'],
    minify: true,
    // A linked map next to the bundle, for NODE_OPTIONS=--enable-source-maps; the sources stay out of it.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    // CommonJS dependencies (and the builtins above) still call require() inside an ESM bundle.
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    metafile: true,
    plugins: [englishOnlyZodLocales, builtinsThroughRequire, lambdaCredentialsFromEnv],
  };
}

export interface BundleRequest {
  /** The handler module, relative to the project root. */
  readonly entry: string;
  readonly outdir: string;
  /** Files copied next to the bundle (the deploy's settings file): name in the bundle → source path. */
  readonly extraFiles?: Readonly<Record<string, string>>;
}

/** Bundles one handler and copies its extra files; the result carries the metafile. */
export async function bundle({
  entry,
  outdir,
  extraFiles = {},
}: BundleRequest): Promise<BuildResult<{ metafile: true }>> {
  let result = await build(bundleOptions(entry, outdir));
  if (Object.keys(result.metafile.inputs).includes(SCRIPT_WORKER.host)) {
    // Known only once the handler's imports are; the first build's files go, none is left in the asset.
    for (const file of Object.keys(result.metafile.outputs))
      await rm(resolve(projectRoot, file), { force: true });
    result = await build(bundleOptions(entry, outdir, true));
  }
  await mkdir(outdir, { recursive: true });
  for (const [name, source] of Object.entries(extraFiles)) await copyFile(source, join(outdir, name));
  // A function that serves the browser UI (lib/http/web-assets.ts) carries its files in web/ beside it.
  if (Object.keys(result.metafile.inputs).includes(WEB_ASSETS_MODULE)) await buildWeb(join(outdir, 'web'));
  return result;
}

type Metafile = BuildResult<{ metafile: true }>['metafile'];

/**
 * The output files a cold start loads: the entry and the chunks it imports statically, transitively. The
 * other chunks (dynamic imports: the S3 SDK, the SDK's own lazy parts) are read when first needed.
 */
export function loadedAtStart(metafile: Metafile): string[] {
  // The bundle's own file: a dynamically imported module's chunk names an entryPoint too.
  const entry = Object.keys(metafile.outputs).find(
    (path) => path.endsWith(`/${BUNDLE_FILE}`) || path === BUNDLE_FILE,
  );
  const loaded = new Set<string>();
  const visit = (path: string | undefined) => {
    if (path === undefined || loaded.has(path)) return;
    loaded.add(path);
    for (const imported of metafile.outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
  };
  visit(entry);
  return [...loaded];
}
