import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

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

let documentClient: DynamoDBDocumentClient | undefined;
let s3Client: S3Client | undefined;

export function dynamo(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(new DynamoDBClient(dynamoDbClientConfig()), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

export function s3(): S3Client {
  s3Client ??= new S3Client(s3ClientConfig());
  return s3Client;
}
