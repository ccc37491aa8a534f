/**
 * What lib/files/object-store.ts uses of the S3 SDK, in one module that it imports dynamically: a bundle
 * keeps it in a chunk of its own, so a function pays for loading the S3 client on its first S3 call, not
 * at every cold start (an answer refused before any S3 call never loads it).
 */
export {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
export { s3 } from '../storage/s3';
