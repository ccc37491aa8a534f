import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import {
  AssetHashType,
  type CfnResource,
  DockerImage,
  Duration,
  type ILocalBundling,
  Lazy,
  RemovalPolicy,
  Stack,
} from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { projectRoot } from './bundling';
import { acknowledge } from './checks';

export interface ApiFunctionProps extends Omit<lambda.FunctionProps, 'code' | 'handler' | 'runtime'> {
  /** Path of the handler module, relative to the project root; its export `handler` is the entry point. */
  readonly entry: string;
  /** Files copied into the bundle (the deploy's settings file): name in the bundle → source path. */
  readonly extraFiles?: Readonly<Record<string, string>>;
}

/**
 * A Kiroku Lambda function with the project's defaults: Node 24 on ARM64, the ESM bundle of
 * infra/bundling.ts (built by the local esbuild, never Docker, with the AWS SDK inside), source maps on,
 * and a log group of its own with a retention, which is all its role may write logs to (no managed policy:
 * AWSLambdaBasicExecutionRole would allow every log group). Caller props override the defaults;
 * `environment` is merged.
 */
export class ApiFunction extends lambda.Function {
  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    const { entry, extraFiles = {}, environment, ...rest } = props;
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
      retention: logs.RetentionDays.ONE_MONTH,
      // Logs go with the stack; the data (tables, bucket, secret) is what the stack retains.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new iam.Role(scope, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    });
    logGroup.grant(role, 'logs:CreateLogStream', 'logs:PutLogEvents');
    super(scope, id, {
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 1024,
      // API Gateway gives up after 30 s; the function must answer (or fail) before that.
      timeout: Duration.seconds(29),
      logGroup,
      role,
      tracing: lambda.Tracing.ACTIVE,
      ...rest,
      // infra/bundling.ts writes index.mjs; Lambda calls its export `handler`.
      handler: 'index.handler',
      // The project root is only the asset's nominal source: with OUTPUT hashing CDK fingerprints the
      // bundle, never the tree (node_modules included), as NodejsFunction does.
      code: lambda.Code.fromAsset(projectRoot, {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Required by the type, never pulled: the local bundler always succeeds or throws.
          image: DockerImage.fromRegistry('scratch'),
          local: new LocalEsbuild(entry, extraFiles),
        },
      }),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'kiroku',
        ...environment,
      },
    });
    // lambda.Function makes the function depend on its role and on the role's policy. The role is already
    // read through a GetAtt, which orders it; only the policy's dependency carries information (the
    // grants exist before the function, or a stream mapping could start without them). cfn-lint (W3005)
    // reports the other as redundant, so the rendered DependsOn keeps the policy alone. A role in a
    // nested stack is read through that stack's output, which waits for the whole nested stack, policy
    // included: then nothing is left to depend on.
    const ownStack = Stack.of(this);
    (this.node.defaultChild as CfnResource).addOverride(
      'DependsOn',
      Lazy.list({
        produce: () => {
          const policy = role.node.tryFindChild('DefaultPolicy')?.node.defaultChild as
            | CfnResource
            | undefined;
          return policy && Stack.of(policy) === ownStack ? [policy.logicalId] : undefined;
        },
      }),
    );
    acknowledge(
      this,
      'Serverless-LambdaDLQ',
      'never invoked asynchronously: API Gateway waits for it, or a stream mapping with its own failure queue',
    );
    acknowledge(
      role,
      'AwsSolutions-IAM5[Resource::*]',
      "X-Ray's PutTraceSegments and PutTelemetryRecords (and a stream's ListStreams) take no resource",
    );
  }
}

const CLI = resolve(import.meta.dirname, 'bundle-cli.ts');

/**
 * Runs infra/bundle-cli.ts with this Node. Its fields are public on purpose: CDK keys its asset cache on
 * the JSON of the bundling options, so two functions must not have equal ones.
 */
class LocalEsbuild implements ILocalBundling {
  constructor(
    readonly entry: string,
    readonly extraFiles: Readonly<Record<string, string>>,
  ) {}

  tryBundle(outputDir: string): boolean {
    const files = Object.entries(this.extraFiles).map(([name, source]) => `${name}=${resolve(source)}`);
    const run = spawnSync(process.execPath, ['--import', 'tsx', CLI, this.entry, outputDir, ...files], {
      cwd: projectRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    if (run.status !== 0) {
      // esbuild's own report travels in the error, printed once by whoever catches it.
      const reason = run.error?.message ?? (run.signal ? `signal ${run.signal}` : `exit code ${run.status}`);
      throw new Error(`bundling ${this.entry} failed (${reason}): ${run.stderr}`);
    }
    if (run.stderr) process.stderr.write(run.stderr);
    return true;
  }
}
