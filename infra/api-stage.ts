import { RemovalPolicy } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** Requests per second (steady) and burst, as API Gateway's throttling takes them. */
export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

export interface StageSettings {
  /** Every route, unless it has its own below. */
  readonly throttle: Throttle;
  /** Routes by route key ('POST /users/authenticate') with a limit of their own. */
  readonly routeThrottles: Readonly<Record<string, Throttle>>;
  readonly logRetention: logs.RetentionDays;
}

/**
 * One JSON line per request: who called (request id, source IP), what (route key, path), how it went
 * (status, latency, the integration's status, latency and error, API Gateway's own error).
 */
export const ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  sourceIp: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  routeKey: '$context.routeKey',
  method: '$context.httpMethod',
  path: '$context.path',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationStatus: '$context.integrationStatus',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
};

/**
 * The HTTP API's $default stage, production-ready: throttled by default and tighter on the routes that
 * need it (the login), and access-logged as JSON to a log group with a retention. Set on the stage that
 * HttpApi creates, rather than on a new one, so that a deployed stack keeps its stage.
 */
export function configureStage(
  scope: Construct,
  api: apigwv2.HttpApi,
  routes: ReadonlyMap<string, apigwv2.HttpRoute>,
  settings: StageSettings,
): logs.LogGroup {
  const stage = api.defaultStage?.node.defaultChild as apigwv2.CfnStage | undefined;
  if (!stage) throw new Error('the HTTP API has no default stage');
  const accessLogs = new logs.LogGroup(scope, 'ApiAccessLogs', {
    retention: settings.logRetention,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  stage.accessLogSettings = {
    destinationArn: accessLogs.logGroupArn,
    format: JSON.stringify(ACCESS_LOG_FORMAT),
  };
  stage.defaultRouteSettings = {
    throttlingRateLimit: settings.throttle.rateLimit,
    throttlingBurstLimit: settings.throttle.burstLimit,
  };
  stage.routeSettings = Object.fromEntries(
    Object.entries(settings.routeThrottles).map(([routeKey, throttle]) => {
      const route = routes.get(routeKey);
      if (!route) throw new Error(`a throttle is set for ${routeKey}, which is not a route`);
      // A route setting names a route key that must exist before the stage refers to it.
      stage.node.addDependency(route);
      return [
        routeKey,
        // RouteSettings is plain JSON to CloudFormation: keys as CloudFormation spells them.
        { ThrottlingRateLimit: throttle.rateLimit, ThrottlingBurstLimit: throttle.burstLimit },
      ];
    }),
  );
  return accessLogs;
}
