import { startS3Local } from '../local/s3-local';

/**
 * s3rver in a process of its own, for the upload benchmark: the direct PutObject and the gateway's
 * handlers then write to the same emulator, and neither shares an event loop with it.
 */

const directory = process.env.BENCH_S3_DIR;
if (!directory) throw new Error('BENCH_S3_DIR is not set');
const s3 = await startS3Local({ directory, buckets: [process.env.KIROKU_BUCKET ?? 'kiroku-bench'] });
console.log(`bench s3 listening on ${s3.endpoint}`);

process.once('SIGTERM', () => {
  void s3.stop().finally(() => process.exit(0));
});
