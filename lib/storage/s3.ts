import { S3Client } from '@aws-sdk/client-s3';
import { perEndpoint, s3ClientConfig } from './clients';

/**
 * The module-scope S3 client, apart from lib/storage/clients.ts: the S3 SDK is ~40 ms of a cold start, so
 * the request path reaches it only through the dynamic import of lib/files/s3-sdk.ts, which the bundles
 * split into a chunk of their own, loaded by the first request that touches the bucket.
 */
export const s3 = /* @__PURE__ */ perEndpoint(
  () => process.env.KIROKU_S3_ENDPOINT,
  () => new S3Client(s3ClientConfig()),
);
