import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiFunction } from '../../infra/api-function';
import { tempDir } from '../fixtures/temp-dir';
import { appWithProjectContext, SYNTH_TIMEOUT_MS } from './synth';

const settings = '{"Session": {"RetentionPeriod": 5}}';
let template: Template;
let bundleDir: string;
let bundle: string;
let sourceMap: { sources: string[] };
/** The entry and its chunks (infra/bundling.ts splits what is imported dynamically): file → code. */
let files: Map<string, string>;
/** The sources of every file's map. */
let sources: string[];

beforeAll(() => {
  const file = join(tempDir('kiroku-api-function-'), 'settings.json');
  writeFileSync(file, settings);
  // As the CLI does: record where each asset was staged, so the test can open the bundle.
  const app = appWithProjectContext({ 'aws:cdk:enable-asset-metadata': true });
  const stack = new Stack(app, 'Test');
  // The fallback handler: small, but with what every handler has (zod, middy, Powertools, the SDK).
  new ApiFunction(stack, 'NotFound', {
    entry: 'functions/route-fallback.ts',
    extraFiles: { 'parameters.json': file },
    timeout: Duration.seconds(10),
    environment: { EXTRA: 'yes' },
  });
  const assembly = app.synth();
  template = Template.fromStack(stack);
  const [fn] = Object.values(template.findResources('AWS::Lambda::Function'));
  bundleDir = join(assembly.directory, fn?.Metadata['aws:asset:path']);
  bundle = readFileSync(join(bundleDir, 'index.mjs'), 'utf8');
  sourceMap = JSON.parse(readFileSync(join(bundleDir, 'index.mjs.map'), 'utf8'));
  const names = readdirSync(bundleDir, { recursive: true, encoding: 'utf8' }).filter((name) =>
    name.endsWith('.mjs'),
  );
  files = new Map(names.map((name) => [name, readFileSync(join(bundleDir, name), 'utf8')]));
  sources = names.flatMap(
    (name) => JSON.parse(readFileSync(join(bundleDir, `${name}.map`), 'utf8')).sources as string[],
  );
}, SYNTH_TIMEOUT_MS);

/** The specifiers of the bundle's static imports (`import … from "x"`, `import "x"`). */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:^|[;}\s])(?:import|from)\s*["']([^"']+)["']/g)].map((match) => match[1] ?? '');
}

/** The places (with a little context) where `pattern` occurs: a failure shows them, not 500 KB of bundle. */
function occurrences(code: string, pattern: RegExp): string[] {
  return [...code.matchAll(new RegExp(pattern.source, 'g'))].map((match) =>
    code.slice(Math.max(0, match.index - 40), match.index + match[0].length + 40),
  );
}

/**
 * Copies the bundle where no node_modules can be found, imports it in a fresh Node as Lambda would, and
 * calls its handler with one event.
 */
function invoke(event: object): { node: string; result: { statusCode: number; body: string } } {
  const task = mkdtempSync(join(tmpdir(), 'kiroku-task-'));
  cpSync(bundleDir, task, { recursive: true });
  const script = `
    const { handler } = await import(${JSON.stringify(pathToFileURL(join(task, 'index.mjs')).href)});
    const result = await handler(${JSON.stringify(event)}, { awsRequestId: 'test', functionName: 'NotFound' });
    console.log(JSON.stringify({ node: process.version, result }));`;
  const run = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
    cwd: task,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      KIROKU_PARAMETERS: join(task, 'parameters.json'),
    },
  });
  rmSync(task, { recursive: true, force: true });
  if (run.status !== 0) throw new Error(`the bundle failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe('ApiFunction', () => {
  it('lets caller props override the defaults and merges the environment', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: 1024,
      Timeout: 10,
      Environment: {
        Variables: { NODE_OPTIONS: '--enable-source-maps', POWERTOOLS_SERVICE_NAME: 'kiroku', EXTRA: 'yes' },
      },
    });
  });

  it('fails the synth when the bundle cannot be built, never falling back to Docker', () => {
    const stack = new Stack(appWithProjectContext(), 'Broken');
    expect(() => new ApiFunction(stack, 'Missing', { entry: 'functions/no-such-handler.ts' })).toThrow(
      /bundling functions\/no-such-handler\.ts failed/,
    );
  });

  describe('bundle', () => {
    it('is ESM whose only static imports are the require banner and its own chunks', () => {
      expect(files.size).toBeGreaterThan(0);
      for (const [name, code] of files) {
        expect(code.startsWith("import { createRequire } from 'module';"), name).toBe(true);
        // Builtins are reached through require(): no ESM namespace of node:http and the like at load.
        const outside = staticImports(code).filter((specifier) => !/^\.\.?\/.*\.mjs$/.test(specifier));
        expect(outside, name).toEqual(['module']);
        expect(occurrences(code, /from\s*["']node:/), name).toEqual([]);
      }
    });

    it('has the AWS SDK inside', () => {
      // That nothing is left outside is shown by running the bundle away from node_modules, below.
      expect(sources).toContainEqual(expect.stringContaining('node_modules/@aws-sdk/client-dynamodb/'));
    });

    it('keeps only the English zod locale', () => {
      for (const [name, code] of files) {
        // A message of zod/v4/locales/ja.js, and of de.js.
        expect(occurrences(code, /無効な入力/), name).toEqual([]);
        expect(occurrences(code, /Ungültige Eingabe/), name).toEqual([]);
      }
      expect(sources.filter((source) => source.includes('/zod/v4/locales/'))).toEqual([
        expect.stringMatching(/\/zod\/v4\/locales\/en\.js$/),
      ]);
    });

    it('links its source maps, without the sources', () => {
      expect(bundle.trimEnd().endsWith('//# sourceMappingURL=index.mjs.map')).toBe(true);
      expect(sourceMap).not.toHaveProperty('sourcesContent');
      for (const [name, code] of files) {
        const map = name.split('/').at(-1);
        expect(code.trimEnd().endsWith(`//# sourceMappingURL=${map}.map`), name).toBe(true);
      }
    });

    it('copies the extra files', () => {
      expect(readFileSync(join(bundleDir, 'parameters.json'), 'utf8')).toBe(settings);
      expect(existsSync(join(bundleDir, 'index.mjs'))).toBe(true);
    });

    it('runs on Node 24: the fallback answers an unknown path with the JSON 404', () => {
      const { node, result } = invoke({
        version: '2.0',
        routeKey: '$default',
        rawPath: '/nowhere',
        rawQueryString: '',
        headers: {},
        isBase64Encoded: false,
        requestContext: { http: { method: 'GET', path: '/nowhere', sourceIp: '127.0.0.1' } },
      });
      expect(node).toMatch(/^v24\./);
      expect(result.statusCode).toBe(404);
      expect(JSON.parse(result.body)).toMatchObject({ StatusCode: 404 });
    });
  });
});
