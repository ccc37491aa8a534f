import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { build } from 'esbuild';

/**
 * The one build of the browser UI (web/app/): the local runtime (scripts/start.ts), the tests and the CDK
 * app (the web functions' bundles) all call it, so what is tested is what is served. Output: index.html
 * and the hashed script and style sheet it names, in `outdir`.
 */

const APP = resolve(import.meta.dirname, 'app');
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const BROTLI_MAX = { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } };

export interface WebBuild {
  readonly outdir: string;
  /** Every file written, by name, with its size in bytes. */
  readonly files: Readonly<Record<string, number>>;
}

export async function buildWeb(outdir: string): Promise<WebBuild> {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const result = await build({
    absWorkingDir: APP,
    entryPoints: { app: join(APP, 'main.tsx') },
    outdir,
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome120', 'firefox120', 'safari17'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
  const script = outputs.find((name) => name.endsWith('.js'));
  const style = outputs.find((name) => name.endsWith('.css'));
  if (!script || !style) throw new Error(`web build wrote ${outputs.join(', ')}`);
  const template = await readFile(join(APP, 'index.html'), 'utf8');
  const page = template.replace('%SCRIPT%', `assets/${script}`).replace('%STYLE%', `assets/${style}`);
  await writeFile(join(outdir, 'index.html'), page);
  const files: Record<string, number> = { 'index.html': Buffer.byteLength(page) };
  for (const [path, output] of Object.entries(result.metafile.outputs)) files[basename(path)] = output.bytes;
  // Compressed once here, at the highest levels, so that a function's cold start only reads them.
  for (const name of [script, style]) {
    const bytes = await readFile(join(outdir, name));
    await writeFile(join(outdir, `${name}.br`), await brotli(bytes, BROTLI_MAX));
    await writeFile(join(outdir, `${name}.gz`), await gzipped(bytes, { level: 9 }));
  }
  return { outdir, files };
}
