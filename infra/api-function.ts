import { resolve } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** The project root, so that synth does not depend on the directory it is started from. */
const projectRoot = resolve(import.meta.dirname, '..');

export interface ApiFunctionProps extends Omit<nodejs.NodejsFunctionProps, 'entry'> {
  /** Path of the handler module, relative to the project root; its export `handler` is the entry point. */
  readonly entry: string;
  /** Files copied into the bundle (the deploy's settings file): name in the bundle → source path. */
  readonly extraFiles?: Readonly<Record<string, string>>;
}

/**
 * A Kiroku Lambda function with the project's defaults: Node 24 on ARM64, an ESM bundle built by the
 * local esbuild (never Docker) with the AWS SDK inside (we pin its version), source maps on, and a log
 * group of its own with a retention. Caller props override the defaults; `environment` is merged.
 */
export class ApiFunction extends nodejs.NodejsFunction {
  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    const { entry, extraFiles = {}, environment, bundling, ...rest } = props;
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
      retention: logs.RetentionDays.ONE_MONTH,
      // Logs go with the stack; the data (tables, bucket, secret) is what the stack retains.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 1024,
      // API Gateway gives up after 30 s; the function must answer (or fail) before that.
      timeout: Duration.seconds(29),
      logGroup,
      projectRoot,
      depsLockFilePath: resolve(projectRoot, 'package-lock.json'),
      ...rest,
      entry: resolve(projectRoot, entry),
      bundling: {
        format: nodejs.OutputFormat.ESM,
        target: 'node24',
        mainFields: ['module', 'main'],
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        logLevel: nodejs.LogLevel.WARNING,
        bundleAwsSDK: true,
        externalModules: [],
        forceDockerBundling: false,
        // CommonJS dependencies inside an ESM bundle still call require().
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        commandHooks: copyAfterBundling(extraFiles),
        ...bundling,
      },
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'kiroku',
        ...environment,
      },
    });
  }
}

function copyAfterBundling(files: Readonly<Record<string, string>>): nodejs.ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir, outputDir) =>
      Object.entries(files).map(([name, source]) => `cp ${quote(source)} ${quote(`${outputDir}/${name}`)}`),
  };
}

function quote(path: string): string {
  return `'${path.replaceAll("'", "'\\''")}'`;
}
