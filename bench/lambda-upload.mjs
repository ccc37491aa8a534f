// One deployed upload function, as Lambda runs it: the bundled handler (index.mjs) imported in a fresh
// Node process and called with HTTP API events, one per chunk, in sequence. The chunks are made here from a
// seed, chunk by chunk, so that the process never holds the file: its peak memory is the function's own.
// Prints one JSON line: the resident set before the first chunk and the peak (VmHWM) after the last.
// With BENCH_GC (and --expose-gc), a full collection follows each chunk.
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const { BENCH_BUNDLE, BENCH_API_KEY, BENCH_FILE_MIB, BENCH_CHUNK_MIB } = process.env;
const MiB = 1024 * 1024;
const total = Number(BENCH_FILE_MIB) * MiB;
const chunkSize = Number(BENCH_CHUNK_MIB) * MiB;
const { handler } = await import(pathToFileURL(BENCH_BUNDLE).href);

const memory = (field) =>
  (Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) *
    1024) /
  1e6;
const context = {
  awsRequestId: 'bench',
  functionName: 'binaries-upload',
  getRemainingTimeInMillis: () => 29_000,
};
const key = randomBytes(32);
/** Chunk `index` of the file, made when needed: incompressible bytes from AES-CTR over zeros. */
const chunkAt = (index, length) => {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(index, 0);
  return createCipheriv('aes-256-ctr', key, iv).update(Buffer.alloc(length));
};

function event(chunk, from, fileHash) {
  const boundary = '----kirokulambda';
  const range = `bytes ${from}-${from + chunk.length - 1}/${total}`;
  const body = Buffer.concat([
    Buffer.from(
      fileHash
        ? `--${boundary}\r\nContent-Disposition: form-data; name="FileHash"\r\n\r\n${fileHash}\r\n`
        : '',
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lambda.bin"\r\nContent-Type: application/octet-stream\r\nContent-Range: ${range}\r\n\r\n`,
    ),
    chunk,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const headers = {
    authorization: `Bearer ${BENCH_API_KEY}`,
    'content-type': `multipart/form-data; boundary=${boundary}`,
  };
  return {
    version: '2.0',
    routeKey: 'POST /api/binaries/upload',
    rawPath: '/api/binaries/upload',
    rawQueryString: 'id=1',
    headers,
    queryStringParameters: { id: '1' },
    requestContext: {
      http: {
        method: 'POST',
        path: '/api/binaries/upload',
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'bench',
      },
      requestId: `bench-${from}`,
      routeKey: 'POST /api/binaries/upload',
      stage: '$default',
      timeEpoch: Date.now(),
    },
    // Lambda hands the function the event as parsed JSON: the body is one base64 string.
    body: body.toString('base64'),
    isBase64Encoded: true,
  };
}

const rssBefore = memory('VmRSS');
const md5 = createHash('md5');
const started = performance.now();
let index = 0;
for (let from = 0; from < total; from += chunkSize, index++) {
  const chunk = chunkAt(index, Math.min(chunkSize, total - from));
  md5.update(chunk);
  const last = from + chunk.length === total;
  const result = await handler(event(chunk, from, last ? md5.copy().digest('hex') : undefined), context);
  if (process.env.BENCH_GC) globalThis.gc();
  const answer = JSON.parse(result.body);
  if (answer.StatusCode !== 200) throw new Error(`chunk at ${from}: ${result.body}`);
  if (last && !(answer.Id > 0)) throw new Error(`upload ended with ${result.body}`);
}
const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify({ rssBeforeMb: rssBefore, peakRssMb: memory('VmHWM'), mbPerS: total / 1e6 / seconds }),
);
