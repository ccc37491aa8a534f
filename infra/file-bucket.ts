import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudtrail from 'aws-cdk-lib/aws-cloudtrail';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { Operations } from './operations';

/** How long an overwritten or deleted file's bytes stay: a table restored from its point-in-time backup
 * (35 days at most) then still finds the objects its rows point at. */
export const NONCURRENT_VERSION_DAYS = 35;

/**
 * The bucket of uploaded files (lib/files/object-store.ts), versioned so that what the stream handlers
 * delete can be brought back with the tables, and its access logging: S3 server access logs to a log
 * bucket of its own, or CloudTrail data events (a deploy setting, infra/operations.ts).
 */
export function fileBucket(scope: Construct, logging: Operations['fileAccessLogging']): s3.Bucket {
  const secure = {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    removalPolicy: RemovalPolicy.RETAIN,
  };
  const accessLogs =
    logging === 'server-access-logs'
      ? new s3.Bucket(scope, 'FileAccessLogs', {
          ...secure,
          objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
          lifecycleRules: [{ expiration: Duration.days(365) }],
        })
      : undefined;
  const bucket = new s3.Bucket(scope, 'Binaries', {
    ...secure,
    versioned: true,
    ...(accessLogs && { serverAccessLogsBucket: accessLogs, serverAccessLogsPrefix: 'binaries/' }),
    lifecycleRules: [
      // Abandoned chunked uploads (CONTRACT section 6) must not keep their parts forever, nor the bytes
      // held under uploads/ until they make a part (lib/files/object-store.ts).
      { abortIncompleteMultipartUploadAfter: Duration.days(1) },
      { prefix: 'uploads/', expiration: Duration.days(2) },
      {
        noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS),
        expiredObjectDeleteMarker: true,
      },
    ],
  });
  if (logging === 'cloudtrail') {
    const trail = new cloudtrail.Trail(scope, 'FileDataEvents', {
      includeGlobalServiceEvents: false,
      isMultiRegionTrail: false,
      managementEvents: cloudtrail.ReadWriteType.NONE,
      enableFileValidation: true,
    });
    trail.addS3EventSelector([{ bucket }], {
      readWriteType: cloudtrail.ReadWriteType.ALL,
      includeManagementEvents: false,
    });
  }
  return bucket;
}
