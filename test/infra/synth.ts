import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { App } from 'aws-cdk-lib';

/** An App with cdk.json's context (the feature flags), so tests see the template `npm run synth` writes. */
export function appWithProjectContext(extra: Record<string, unknown> = {}): App {
  const cdkJson = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  return new App({ context: { ...cdkJson.context, ...extra } });
}

/** Bundling every function with esbuild takes a while (minutes on a loaded machine); a test file synthesizes once, in beforeAll. */
export const SYNTH_TIMEOUT_MS = 300_000;
