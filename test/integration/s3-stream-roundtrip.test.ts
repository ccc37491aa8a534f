import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ClientConfig } from '../../lib/storage/clients';

/**
 * The guard of reference/local-emulators.md C: with the SDK's default checksum settings, s3rver stores
 * a Readable body with its aws-chunked framing and still answers 200. If s3ClientConfig() ever loses
 * requestChecksumCalculation 'WHEN_REQUIRED', these byte-exact comparisons fail.
 */

const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('hex');

/** A Readable in 64 KiB pieces, as a file or a request body would arrive: not a Buffer the SDK can hash. */
function readable(data: Buffer): Readable {
  return Readable.from(
    (function* () {
      for (let offset = 0; offset < data.length; offset += 64 * 1024)
        yield data.subarray(offset, offset + 64 * 1024);
    })(),
  );
}

describe('lib/storage/clients', () => {
  const bucket = `kiroku-roundtrip-${randomBytes(4).toString('hex')}`;
  let s3: S3Client;

  beforeAll(async () => {
    s3 = new S3Client(s3ClientConfig());
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  });
  afterAll(() => s3.destroy());

  async function read(key: string): Promise<Uint8Array> {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return (await object.Body?.transformToByteArray()) ?? new Uint8Array();
  }

  describe('s3ClientConfig', () => {
    it('stores a Readable PutObject body byte for byte', async () => {
      const data = randomBytes(300 * 1024);
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: 'put.bin',
          Body: readable(data),
          ContentLength: data.length,
        }),
      );
      const stored = await read('put.bin');
      expect(stored.length).toBe(data.length);
      expect(md5(stored)).toBe(md5(data));
    });

    it('stores a multipart upload of Readable parts byte for byte', async () => {
      const parts = [randomBytes(5 * 1024 * 1024), randomBytes(5 * 1024 * 1024), randomBytes(1024)];
      const { UploadId } = await s3.send(
        new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'multi.bin' }),
      );
      const etags: { ETag: string | undefined; PartNumber: number }[] = [];
      for (const [index, part] of parts.entries()) {
        const answer = await s3.send(
          new UploadPartCommand({
            Bucket: bucket,
            Key: 'multi.bin',
            UploadId,
            PartNumber: index + 1,
            Body: readable(part),
            ContentLength: part.length,
          }),
        );
        etags.push({ ETag: answer.ETag, PartNumber: index + 1 });
      }
      await s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket,
          Key: 'multi.bin',
          UploadId,
          MultipartUpload: { Parts: etags },
        }),
      );
      const whole = Buffer.concat(parts);
      const stored = await read('multi.bin');
      expect(stored.length).toBe(whole.length);
      expect(md5(stored)).toBe(md5(whole));
    });
  });
});
