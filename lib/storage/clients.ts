import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { signalLocalWrites } from './local-writes';

/**
 * Module-scope AWS clients. In AWS they take the SDK defaults; when KIROKU_DYNAMODB_ENDPOINT or
 * KIROKU_S3_ENDPOINT points at a local emulator, they take the settings that emulator needs
 * (reference/local-emulators.md): path-style S3 and checksums only when required, since s3rver would
 * otherwise store aws-chunked framing inside stream bodies.
 */

export function dynamoDbClientConfig(env: NodeJS.ProcessEnv = process.env) {
  const endpoint = env.KIROKU_DYNAMODB_ENDPOINT;
  if (!endpoint) return {};
  return {
    endpoint,
    region: env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
}

export function s3ClientConfig(env: NodeJS.ProcessEnv = process.env) {
  const endpoint = env.KIROKU_S3_ENDPOINT;
  if (!endpoint) return {};
  return {
    endpoint,
    region: env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED' as const,
    responseChecksumValidation: 'WHEN_REQUIRED' as const,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  };
}

/**
 * One client per process, made again only if the endpoint it was made for changes: in Lambda never; in a
 * local process that starts emulators anew (the benchmark's phases), so no call goes to a stopped one.
 */
export function perEndpoint<T extends { destroy(): void }>(
  endpoint: () => string | undefined,
  make: () => T,
): () => T {
  let client: T | undefined;
  let madeFor: string | undefined;
  return () => {
    const current = endpoint();
    if (!client || current !== madeFor) {
      client?.destroy();
      client = make();
      madeFor = current;
    }
    return client;
  };
}

// Pure: a bundle that never calls it leaves the client out (esbuild drops unused pure calls). The S3
// client is in lib/storage/s3.ts, which only a dynamic import reaches (lib/files/s3-sdk.ts).
export const dynamo = /* @__PURE__ */ perEndpoint(
  () => process.env.KIROKU_DYNAMODB_ENDPOINT,
  () => {
    const client = new DynamoDBClient(dynamoDbClientConfig());
    // The local runtime's poller is woken by this process's writes (lib/storage/local-writes.ts).
    if (process.env.KIROKU_DYNAMODB_ENDPOINT) signalLocalWrites(client);
    return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  },
);
