import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** Lambda's own limit on the functions the CDK app deploys behind the API. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A Lambda-like context for one local invocation. The deprecated done/fail/succeed callbacks exist
 * only because the Context type declares them; handlers built with middy return promises instead.
 */
export function lambdaContext(functionName: string, timeoutMs = DEFAULT_TIMEOUT_MS): Context {
  const deadline = Date.now() + timeoutMs;
  const unsupported = () => {
    throw new Error('The local runtime supports promise-returning handlers only');
  };
  const date = new Date().toISOString().slice(0, 10).replaceAll('-', '/');
  return {
    awsRequestId: randomUUID(),
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION ?? 'us-east-1'}:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${date}/[$LATEST]${randomUUID().replaceAll('-', '')}`,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}
