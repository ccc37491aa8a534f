import { Duration } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface MonitoringProps {
  readonly api: apigwv2.HttpApi;
  readonly failedBatches: sqs.IQueue;
  /** Notified of every alarm and of its recovery, when given. */
  readonly alarmTopicArn?: string | undefined;
}

export interface FunctionAlarmsProps {
  /** The functions of one stack, by handler name. */
  readonly functions: ReadonlyMap<string, lambda.Function>;
  /** The stream handlers among them. */
  readonly streamHandlers: readonly string[];
  /** Notified of every alarm and of its recovery, when given. */
  readonly alarmTopicArn?: string | undefined;
}

/** The API's 5xx answers as a share of its requests, over a window with at least this many requests. */
export const API_5XX_PERCENT = 1;
export const API_5XX_MIN_REQUESTS = 20;
/** Functions per alarm: CloudWatch's metric math takes at most 10 metrics. */
export const ALARM_GROUP_SIZE = 10;
/** A stream handler this far behind is failing or too slow: records expire after 24 h (6 h of retries). */
export const ITERATOR_AGE_MS = 15 * 60_000;

const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };

/**
 * CloudWatch alarms for what needs a person, for the API as a whole: its 5xx rate, and failed stream
 * batches waiting in their queue (infra/stream-sources.ts). The functions' own are FunctionAlarms.
 */
export class Monitoring extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const alarm = alarmMaker(this, props.alarmTopicArn, this.alarms);
    const rate = new cloudwatch.MathExpression({
      expression: `IF(requests >= ${API_5XX_MIN_REQUESTS}, 100 * errors / requests, 0)`,
      usingMetrics: {
        errors: props.api.metricServerError(fiveMinutes),
        requests: props.api.metricCount(fiveMinutes),
      },
      period: Duration.minutes(5),
      label: 'API 5xx %',
    });
    alarm('Api5xxRate', rate, API_5XX_PERCENT, `over ${API_5XX_PERCENT}% of the API's answers are 5xx`);
    alarm(
      'FailedStreamBatches',
      props.failedBatches.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      1,
      'a stream batch failed for good: see "Failed stream batches" in docs/operations.md',
    );
  }
}

/**
 * The alarms of one stack's functions: errors and throttles, and stream handlers falling behind. In the
 * functions' own stack, so that no alarm reads a function across stacks (each such read is an output).
 */
export class FunctionAlarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: FunctionAlarmsProps) {
    super(scope, id);
    const alarm = alarmMaker(this, props.alarmTopicArn, this.alarms);
    // One alarm per metric for each group of functions (metric math takes 10 metrics at most): an alarm
    // per function would take two of CloudFormation's 500 resources a stack for each function.
    const groups = chunks([...props.functions], ALARM_GROUP_SIZE);
    groups.forEach((group, index) => {
      const names = group.map(([handler]) => handler).join(', ');
      const sum = (label: string, metricOf: (fn: lambda.Function) => cloudwatch.IMetric) =>
        new cloudwatch.MathExpression({
          expression: group.map((_, at) => `m${at}`).join(' + '),
          usingMetrics: Object.fromEntries(group.map(([, fn], at) => [`m${at}`, metricOf(fn)])),
          period: Duration.minutes(5),
          label,
        });
      alarm(
        `FunctionErrors${index + 1}`,
        sum('Errors', (fn) => fn.metricErrors(fiveMinutes)),
        1,
        `one of these functions failed: ${names}`,
      );
      alarm(
        `FunctionThrottles${index + 1}`,
        sum('Throttles', (fn) => fn.metricThrottles(fiveMinutes)),
        1,
        `one of these functions was throttled: ${names}`,
      );
    });
    for (const handler of props.streamHandlers) {
      const fn = props.functions.get(handler);
      if (!fn) throw new Error(`no function for the stream handler ${handler}`);
      const age = fn.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' });
      alarm(`${fn.node.id}IteratorAge`, age, ITERATOR_AGE_MS, `functions/${handler}.ts is behind its stream`);
    }
  }
}

type AlarmMaker = (name: string, metric: cloudwatch.IMetric, threshold: number, description: string) => void;

/** Makes alarms in `scope`, notifying the topic when there is one, and keeps them in `made`. */
function alarmMaker(scope: Construct, topicArn: string | undefined, made: cloudwatch.Alarm[]): AlarmMaker {
  const topic = topicArn ? sns.Topic.fromTopicArn(scope, 'AlarmTopic', topicArn) : undefined;
  return (name, metric, threshold, description) => {
    const created = new cloudwatch.Alarm(scope, name, {
      metric,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    if (topic) {
      created.addAlarmAction(new SnsAction(topic));
      created.addOkAction(new SnsAction(topic));
    }
    made.push(created);
  };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}
