import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { tempDir } from '../fixtures/temp-dir';

/**
 * An App with cdk.json's context (the feature flags), so tests see the template `npm run synth` writes.
 * Its cloud assembly (about 70 MB with every bundle) goes to a directory of its own that is removed when
 * the test process exits: CDK's default, a fresh `cdk.out*` under the system's temp directory, is never
 * removed, and filled /tmp by gigabytes a day.
 */
export function appWithProjectContext(extra: Record<string, unknown> = {}): App {
  const cdkJson = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  return new App({ outdir: tempDir('kiroku-test-cdk-'), context: { ...cdkJson.context, ...extra } });
}

/**
 * CDK writes `Bundling asset <path>...` to stderr for each of the ~55 functions, unconditionally; in a
 * test run those lines look like trouble and hide what is. The test files that synthesize drop them.
 */
const writeStderr = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  if (typeof chunk === 'string' && /^Bundling asset \S+\.\.\.\n$/.test(chunk)) return true;
  return (writeStderr as (...args: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stderr.write;

/** Bundling every function with esbuild takes a while (minutes on a loaded machine); a test file synthesizes once, in beforeAll. */
export const SYNTH_TIMEOUT_MS = 300_000;
