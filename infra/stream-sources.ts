import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { acknowledge } from './checks';

/**
 * How the stream handlers read their tables, so that no batch is ever dropped silently: a failing batch
 * is split (bisect) and the handlers answer which records failed (ReportBatchItemFailures, see
 * lib/storage/stream-batch.ts), so only those and what follows them are retried; what still fails after
 * the retries, or outlives the record age, goes to the failed-batch queue (its shard and sequence range)
 * for an operator, with an alarm on it (infra/monitoring.ts). See docs/operations.md on repairing from there.
 */
export const STREAM_RETRY_ATTEMPTS = 10;
/** Below the stream's 24 h retention, so that a failure is reported while its records can still be read. */
export const STREAM_MAX_RECORD_AGE = Duration.hours(6);
export const FAILED_BATCH_RETENTION = Duration.days(14);

export function failedBatchQueue(scope: Construct): sqs.Queue {
  const queue = new sqs.Queue(scope, 'FailedStreamBatches', {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: FAILED_BATCH_RETENTION,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  acknowledge(
    queue,
    'AwsSolutions-SQS3',
    'it is the dead-letter queue of the stream mappings; nothing consumes it',
  );
  acknowledge(
    queue,
    'Serverless-SQSRedrivePolicy',
    'it is the dead-letter queue of the stream mappings; nothing consumes it',
  );
  return queue;
}

export function addStreamSource(
  fn: lambda.Function,
  table: dynamodb.ITable,
  failures: sqs.IQueue,
  options: { batchSize?: number; parallelization?: number } = {},
): void {
  fn.addEventSource(
    new DynamoEventSource(table, {
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: options.batchSize ?? 100,
      parallelizationFactor: options.parallelization,
      bisectBatchOnError: true,
      reportBatchItemFailures: true,
      retryAttempts: STREAM_RETRY_ATTEMPTS,
      maxRecordAge: STREAM_MAX_RECORD_AGE,
      onFailure: new SqsDlq(failures),
    }),
  );
}
