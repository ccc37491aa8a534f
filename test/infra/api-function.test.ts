import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiFunction } from '../../infra/api-function';
import { appWithProjectContext, SYNTH_TIMEOUT_MS } from './synth';

const settings = '{"Session": {"RetentionPeriod": 5}}';
let template: Template;
let bundleDir: string;

beforeAll(() => {
  const file = join(mkdtempSync(join(tmpdir(), 'kiroku-api-function-')), 'settings.json');
  writeFileSync(file, settings);
  // As the CLI does: record where each asset was staged, so the test can open the bundle.
  const app = appWithProjectContext({ 'aws:cdk:enable-asset-metadata': true });
  const stack = new Stack(app, 'Test');
  new ApiFunction(stack, 'Hello', {
    entry: 'test/infra/fixtures/hello-handler.ts',
    extraFiles: { 'parameters.json': file },
    timeout: Duration.seconds(10),
    environment: { EXTRA: 'yes' },
  });
  const assembly = app.synth();
  template = Template.fromStack(stack);
  const [fn] = Object.values(template.findResources('AWS::Lambda::Function'));
  bundleDir = join(assembly.directory, fn?.Metadata['aws:asset:path']);
}, SYNTH_TIMEOUT_MS);

describe('ApiFunction', () => {
  it('lets caller props override the defaults and merges the environment', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Timeout: 10,
      Environment: {
        Variables: { NODE_OPTIONS: '--enable-source-maps', POWERTOOLS_SERVICE_NAME: 'kiroku', EXTRA: 'yes' },
      },
    });
  });

  it('bundles an ESM module with its source map, the require banner and the AWS SDK inside', () => {
    const bundle = readFileSync(join(bundleDir, 'index.mjs'), 'utf8');
    expect(bundle.startsWith("import { createRequire } from 'module';")).toBe(true);
    expect(bundle).not.toMatch(/from\s*["']@aws-sdk\//);
    expect(existsSync(join(bundleDir, 'index.mjs.map'))).toBe(true);
  });

  it('copies the extra files into the bundle', () => {
    expect(readFileSync(join(bundleDir, 'parameters.json'), 'utf8')).toBe(settings);
  });
});
