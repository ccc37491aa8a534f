import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';

/**
 * A synchronous Lambda Invoke (RequestResponse), for the fallback function that runs a route's function
 * when the path was spelt in another case (lib/routes/fallback.ts), through the SDK's Lambda client with
 * the function's own credentials (Lambda puts its role's in the environment). KIROKU_LAMBDA_ENDPOINT
 * replaces the regional endpoint: a test's stand-in for Lambda.
 */

/** The function failed (it threw, timed out or ran out of memory): what API Gateway answers with a 500. */
export class FunctionFailedError extends Error {
  override name = 'FunctionFailedError';
}

/** Lambda refused the payload as over its 6 MB: the re-sent event is a little larger than the one received. */
export class PayloadTooLargeError extends Error {
  override name = 'PayloadTooLargeError';
}

let client: LambdaClient | undefined;
let madeFor: string | undefined;

/** One client per process, made again only when the endpoint or the credentials it was made for change. */
function lambdaFor(env: NodeJS.ProcessEnv): LambdaClient {
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!region || !accessKeyId || !secretAccessKey)
    throw new Error('no AWS region or credentials to invoke with');
  const key = [region, accessKeyId, env.AWS_SESSION_TOKEN, env.KIROKU_LAMBDA_ENDPOINT].join('\n');
  if (!client || key !== madeFor) {
    client?.destroy();
    client = new LambdaClient({
      region,
      credentials: { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN },
      ...(env.KIROKU_LAMBDA_ENDPOINT && { endpoint: env.KIROKU_LAMBDA_ENDPOINT }),
      // A retried Invoke would run the route's function twice: a request is not idempotent.
      maxAttempts: 1,
    });
    madeFor = key;
  }
  return client;
}

/** Invokes `functionName` with `payload` and answers what the function returned. */
export async function invokeFunction(
  functionName: string,
  payload: unknown,
  env: NodeJS.ProcessEnv = process.env,
): Promise<unknown> {
  const lambda = lambdaFor(env);
  const sent = new InvokeCommand({
    FunctionName: functionName,
    Payload: new TextEncoder().encode(JSON.stringify(payload)),
  });
  const result = await lambda
    .send(sent)
    .catch((error: Error & { $metadata?: { httpStatusCode?: number } }) => {
      if (error.name === 'RequestTooLargeException' || error.$metadata?.httpStatusCode === 413)
        throw new PayloadTooLargeError(`Invoke ${functionName}: ${error.message}`);
      throw error;
    });
  const text = result.Payload ? new TextDecoder().decode(result.Payload) : '';
  if (result.FunctionError)
    throw new FunctionFailedError(`${functionName} failed (${result.FunctionError}): ${text.slice(0, 500)}`);
  return text === '' ? null : JSON.parse(text);
}
