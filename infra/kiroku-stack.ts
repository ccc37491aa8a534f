import {
  CfnOutput,
  type CfnResource,
  Duration,
  NestedStack,
  RemovalPolicy,
  Stack,
  type StackProps,
} from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as schedulerTargets from 'aws-cdk-lib/aws-scheduler-targets';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import * as triggers from 'aws-cdk-lib/triggers';
import type { Construct } from 'constructs';
import { fallbackHandler, pathsOf, type Route, routes } from '../lib/routes';
import { schedules } from '../lib/schedules';
import { type TableDefinition, type TableKey, tables } from '../lib/storage/tables';
import { streamSubscriptions } from '../lib/streams';
import { ApiFunction, type ApiFunctionProps } from './api-function';
import { configureStage } from './api-stage';
import { type Access, type Binding, bind, bucketBinding, tableBinding } from './bindings';
import { acknowledge, arnInFinding } from './checks';
import { type DeploySettingsInput, deploySettings } from './deploy-settings';
import { fileBucket } from './file-bucket';
import { FUNCTION_GROUPS, groupOf } from './function-groups';
import { MailSender } from './mail';
import { FunctionAlarms, Monitoring } from './monitoring';
import { defaultOperations, type Operations } from './operations';
import { addStreamSource, failedBatchQueue } from './stream-sources';

export interface KirokuStackProps extends StackProps {
  /** The deploy's settings: a file bundled into every function and KIROKU_PARAM_* overrides. */
  readonly settings?: DeploySettingsInput;
  /** How the deploy runs in its account (infra/operations.ts); the defaults otherwise. */
  readonly operations?: Operations;
  /** The route table (lib/routes); another only to measure how the stack grows (test/infra). */
  readonly routes?: readonly Route[];
}

/** What a function may touch, as the route table (and the stream table) declare it. */
type ResourceKey = TableKey | 'bucket';
interface Needs {
  readonly tables?: Route['tables'];
  readonly bucket?: Access;
  /** Sends mail: SES as the deploy's identity, where it names one (infra/mail.ts). */
  readonly mail?: boolean;
}

/** The entry module of a handler named in the route table. */
const entryOf = (handler: string) => `functions/${handler}.ts`;
const tableKeys = Object.keys(tables) as TableKey[];

/**
 * Kiroku in one stack: one function and one HTTP API route per entry of the route table (and the
 * `$default` route's fallback, which runs a route spelt in another case by its function), the DynamoDB
 * tables of the table-definition module, the binary bucket, the stream handlers, the schedules, and the
 * trigger that creates the first administrator. Every grant comes from the route table; nothing is
 * granted by hand.
 *
 * CloudFormation takes 500 resources, 200 outputs and 200 parameters a stack. Each function brings its
 * role, policy and log group, and its alarms' share: those live with the function in one of
 * FUNCTION_GROUPS nested stacks (`Functions1`…), chosen by a hash of the handler's name, so that a new
 * route never moves another's function to another stack (a named function cannot move: its name would be
 * taken while CloudFormation creates it anew). The main stack keeps the tables, the bucket, the API with
 * each route's integration, permission and route (three resources a route), the fallback and the
 * bootstrap trigger (see docs/operations.md). A nested stack reads the main stack's resources through its
 * parameters, and gives the main stack one output a route function (its ARN).
 */
export class KirokuStack extends Stack {
  readonly api: apigwv2.HttpApi;
  readonly tables: Readonly<Record<TableKey, dynamodb.Table>>;
  readonly bucket: s3.Bucket;
  /** Where stream batches go that still fail after their retries (infra/stream-sources.ts). */
  readonly failedBatches: sqs.Queue;
  /** Every function of the stack, by its handler name (`functions/<name>.ts`). */
  readonly functions = new Map<string, ApiFunction>();
  /** The nested stacks that hold the functions but the fallback and the trigger, each with its grants. */
  readonly groups: NestedStack[] = [];
  /** The SES identity mail goes out as, when the deploy names one (context `sesIdentity`). */
  readonly mail: MailSender | undefined;
  private readonly bindings: Readonly<Record<ResourceKey, Binding>>;
  private readonly functionDefaults: Partial<ApiFunctionProps>;

  constructor(scope: Construct, id: string, props: KirokuStackProps = {}) {
    super(scope, id, props);
    const settings = deploySettings(props.settings ?? {});
    const operations = props.operations ?? defaultOperations;
    this.functionDefaults = {
      environment: { ...settings.environment },
      extraFiles: settings.extraFiles,
    };

    this.mail = operations.mail && new MailSender(this, 'MailIdentity', operations.mail);
    this.tables = mapTables((_key, def) => this.createTable(def));
    this.bucket = fileBucket(this, operations.fileAccessLogging);
    this.bindings = {
      ...mapTables((key, def) =>
        tableBinding(this.tables[key], def.envVar, (def.globalIndexes?.length ?? 0) > 0),
      ),
      bucket: bucketBinding(this.bucket, 'KIROKU_BUCKET'),
    };

    const api = { reservedConcurrentExecutions: operations.reservedConcurrency };
    const routeTable = props.routes ?? (routes as readonly Route[]);
    const prefix = routeFunctionPrefix(this.stackName, routeTable);
    // Its policy names the route functions, which live in the nested stacks: there, it would make the
    // stacks depend on each other.
    const fallback = this.createFunction(
      fallbackHandler,
      {},
      { ...api, environment: { KIROKU_FUNCTION_PREFIX: prefix } },
      this,
    );
    this.api = new apigwv2.HttpApi(this, 'Api', {
      apiName: this.stackName,
      description: 'Kiroku Web API',
      defaultIntegration: this.integration(fallback),
    });
    acknowledge(
      this.api,
      'AwsSolutions-APIG4',
      'Pleasanter-compatible auth: the function checks the API key in the body or the login cookie',
    );
    const routeKeys = new Map<string, apigwv2.HttpRoute>();
    const routeFunctions: lambda.IFunction[] = [];
    for (const route of routeTable) {
      const memory = route.memoryMb ? { memorySize: route.memoryMb } : {};
      // Named, so that the fallback can invoke a route's function knowing only its handler's name.
      const fn = this.createFunction(route.handler, route, {
        ...api,
        ...memory,
        functionName: `${prefix}${route.handler}`,
      });
      routeFunctions.push(fn);
      const integration = this.integration(fn);
      for (const path of pathsOf(route)) {
        const [added] = this.api.addRoutes({
          path,
          methods: [apigwv2.HttpMethod[route.method]],
          integration,
        });
        if (added) routeKeys.set(`${route.method} ${path}`, added);
      }
    }
    // The fallback runs a route spelt in another case (functions/route-fallback.ts): it may invoke exactly
    // the route functions, each named, and nothing else (no table, no bucket, no wildcard).
    fallback.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: routeFunctions.map((fn) => fn.functionArn),
      }),
    );
    configureStage(this, this.api, routeKeys, operations.stage);
    this.failedBatches = failedBatchQueue(this);
    for (const subscription of streamSubscriptions) {
      const fn = this.createFunction(subscription.handler, subscription, {
        ...api,
        ...(subscription.timeoutSeconds && { timeout: Duration.seconds(subscription.timeoutSeconds) }),
        ...(subscription.memoryMb && { memorySize: subscription.memoryMb }),
      });
      addStreamSource(fn, this.tables[subscription.table], this.failedBatches, {
        batchSize: subscription.batchSize,
        parallelization: subscription.parallelization,
      });
    }
    for (const schedule of schedules) this.schedule(schedule);
    const adminSecret = this.bootstrapAdministrator();
    // Each stack watches its own functions: an alarm in another stack would cost an output a function.
    for (const home of [this, ...this.groups]) {
      const functions = new Map([...this.functions].filter(([, fn]) => Stack.of(fn) === home));
      // Ids that differ between stacks, so that no two alarms share a logical id anywhere.
      new FunctionAlarms(home, home === this ? 'FunctionAlarms' : `${home.node.id}Alarms`, {
        functions,
        streamHandlers: streamSubscriptions
          .map((subscription) => subscription.handler)
          .filter((handler) => functions.has(handler)),
        alarmTopicArn: operations.alarmTopicArn,
      });
    }
    new Monitoring(this, 'Alarms', {
      api: this.api,
      failedBatches: this.failedBatches,
      alarmTopicArn: operations.alarmTopicArn,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint });
    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'AdministratorSecretArn', { value: adminSecret.secretArn });
    for (const key of tableKeys) {
      new CfnOutput(this, `${tables[key].id}TableName`, { value: this.tables[key].tableName });
    }
  }

  private createTable(def: TableDefinition): dynamodb.Table {
    const table = new dynamodb.Table(this, def.id, {
      partitionKey: { name: def.partitionKey, type: dynamodb.AttributeType.STRING },
      ...(def.sortKey && { sortKey: { name: def.sortKey, type: dynamodb.AttributeType.STRING } }),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      ...(def.ttlAttribute && { timeToLiveAttribute: def.ttlAttribute }),
      ...(def.stream && { stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES }),
      // Neither a stack update nor a console click deletes the data; the stack retains tables anyway.
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of def.globalIndexes ?? []) {
      const projection = index.projection ?? 'ALL';
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        ...(typeof projection === 'string'
          ? { projectionType: dynamodb.ProjectionType[projection] }
          : { projectionType: dynamodb.ProjectionType.INCLUDE, nonKeyAttributes: [...projection.include] }),
      });
    }
    return table;
  }

  /**
   * A function for `functions/<handler>.ts`, bound to exactly the resources `needs` lists, with its role,
   * policy and log group: in its group's nested stack, or in `home`.
   */
  private createFunction(
    handler: string,
    needs: Needs,
    props: Partial<ApiFunctionProps> = {},
    home?: Construct,
  ): ApiFunction {
    const fn = new ApiFunction(home ?? this.groupOf(handler), `${pascalCase(handler)}Function`, {
      ...this.functionDefaults,
      ...props,
      environment: { ...this.functionDefaults.environment, ...props.environment },
      entry: entryOf(handler),
    });
    for (const [key, access] of accessList(needs)) bind(fn, this.bindings[key], access);
    if (needs.mail) this.mail?.allowSending(fn);
    this.functions.set(handler, fn);
    return fn;
  }

  /** The nested stack of a handler's function (infra/function-groups.ts), made when first needed. */
  private groupOf(handler: string): NestedStack {
    const index = groupOf(handler);
    const id = `Functions${index + 1}`;
    const found = this.node.tryFindChild(id) as NestedStack | undefined;
    if (found) return found;
    const group = new NestedStack(this, id, {
      description: `Kiroku: functions, group ${index + 1} of ${FUNCTION_GROUPS}, with their grants and alarms`,
    });
    this.groups.push(group);
    return group;
  }

  /**
   * A function's one integration, for its route and aliases alike, with one permission for API Gateway to
   * invoke it from this API (rather than one a route key: only the routes that integrate the function can
   * reach it, and each permission is a resource of the stack's 500).
   */
  private integration(fn: lambda.IFunction): HttpLambdaIntegration {
    return new HttpLambdaIntegration(`${fn.node.id}Integration`, fn, {
      payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_2_0,
      scopePermissionToRoute: false,
    });
  }

  /**
   * A function of lib/schedules.ts and the EventBridge Scheduler schedule that runs it: not retried by
   * the scheduler (the next run comes within minutes and each run takes up what the last left). Runs that
   * overlap (a slow one) must be harmless: the handler's writes are conditional.
   */
  private schedule(schedule: (typeof schedules)[number]): void {
    const fn = this.createFunction(schedule.handler, schedule, {
      ...(schedule.timeoutSeconds && { timeout: Duration.seconds(schedule.timeoutSeconds) }),
      ...(schedule.memoryMb && { memorySize: schedule.memoryMb }),
    });
    // Beside its function, so that the schedule's target and role are no reference across stacks.
    const home = Stack.of(fn);
    const name = pascalCase(schedule.handler);
    const role = new iam.Role(home, `${name}ScheduleRole`, {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': home.account } },
      }),
    });
    acknowledge(
      role,
      `AwsSolutions-IAM5[Resource::${arnInFinding(fn)}:*]`,
      "grantInvoke's own pattern: this one function, its versions and aliases",
    );
    const target = new schedulerTargets.LambdaInvoke(fn, {
      role,
      retryAttempts: 0,
      maxEventAge: Duration.minutes(2),
    });
    new scheduler.Schedule(home, `${name}Schedule`, {
      description: `Kiroku: functions/${schedule.handler}.ts every ${schedule.everyMinutes} minute(s)`,
      schedule: scheduler.ScheduleExpression.rate(Duration.minutes(schedule.everyMinutes)),
      target,
    });
  }

  /**
   * CONTRACT section 7's first start, in AWS: after the tables exist, a trigger runs
   * functions/bootstrap-trigger.ts, which creates tenant 1 and `Administrator` and keeps the
   * credentials in a secret (LoginId and a generated Password to start with; the trigger adds the key).
   */
  private bootstrapAdministrator(): secretsmanager.Secret {
    const secret = new secretsmanager.Secret(this, 'AdministratorCredentials', {
      description: 'Kiroku: login id, password and API key of the first administrator',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ LoginId: 'Administrator' }),
        generateStringKey: 'Password',
        passwordLength: 32,
        excludePunctuation: true,
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      secret,
      'AwsSolutions-SMG4',
      'a one-time hand-over, cleared after the first login (docs/operations.md); the password is then changed in Kiroku',
    );
    const fn = this.createFunction(
      'bootstrap-trigger',
      { tables: { accounts: 'write' } },
      { environment: { KIROKU_ADMIN_SECRET_ARN: secret.secretArn }, timeout: Duration.minutes(1) },
      this,
    );
    // The only grant on the secret: no other function can read the administrator's credentials.
    secret.grantRead(fn);
    secret.grantWrite(fn);
    new triggers.Trigger(this, 'BootstrapTrigger', {
      handler: fn,
      executeAfter: Object.values(this.tables),
      timeout: Duration.minutes(2),
    });
    // CDK's provider function for triggers reads its role by GetAtt and also lists it in DependsOn,
    // which cfn-lint (W3005) reports as redundant: the GetAtt alone orders them.
    const provider = this.node.tryFindChild('AWSCDK.TriggerCustomResourceProviderCustomResourceProvider');
    const handler = provider?.node.tryFindChild('Handler') as CfnResource | undefined;
    const providerRole = provider?.node.tryFindChild('Role') as CfnResource | undefined;
    if (handler && providerRole) handler.removeResourceDependency(providerRole);
    return secret;
  }
}

/** The (resource, access) pairs a function is granted. Binary upload adds `bucket` here in one line. */
function accessList(needs: Needs): [ResourceKey, Access][] {
  const list = Object.entries(needs.tables ?? {}) as [ResourceKey, Access][];
  return needs.bucket ? [...list, ['bucket', needs.bucket]] : list;
}

/**
 * What the route functions' names start with: the stack's name, so that two stacks in one account and
 * region never share one. Lambda takes at most 64 characters; a stack name that leaves no room for the
 * longest handler's name is refused at synth rather than at deploy.
 */
export function routeFunctionPrefix(
  stackName: string,
  routeTable: readonly Route[] = routes as readonly Route[],
): string {
  // `-r-`: the route functions moved into nested stacks under new names (a named function cannot move).
  const prefix = `${stackName}-r-`;
  const longest = Math.max(...routeTable.map((route) => route.handler.length));
  if (prefix.length + longest > 64) {
    throw new Error(
      `the stack name ${stackName} is too long: at most ${63 - longest} characters name its functions`,
    );
  }
  return prefix;
}

function mapTables<T>(fn: (key: TableKey, def: TableDefinition) => T): Record<TableKey, T> {
  return Object.fromEntries(tableKeys.map((key) => [key, fn(key, tables[key])])) as Record<TableKey, T>;
}

function pascalCase(name: string): string {
  return name.replace(/(^|-)([a-z0-9])/g, (_match, _dash, letter: string) => letter.toUpperCase());
}
