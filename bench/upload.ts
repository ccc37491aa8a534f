import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BUNDLE_FILE, bundle } from '../infra/bundling';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { s3ClientConfig } from '../lib/storage/clients';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { drain, exited, spawnNode, stop, waitForLine } from './children';
import { median, round } from './stats';

/**
 * Binary upload through the local gateway: a file sent in 4 MiB chunks (Content-Range in the file part,
 * FileHash at the last), against a direct PutObject of the same bytes to the same s3rver, in the same run;
 * and the peak memory (VmHWM) of the process that serves the uploads: the gateway with the handlers, each
 * file size in a fresh one. s3rver and DynamoDB Local run in processes of their own, as S3 and DynamoDB
 * are not inside a Lambda either.
 */

export interface UploadRun {
  readonly fileMiB: number;
  readonly chunkMiB: number;
  readonly uploadMBps: number;
  readonly directMBps: number;
  readonly ratio: number;
  /** Resident set of the serving process before the upload, and its peak by the end of it. */
  readonly rssBeforeMb: number;
  readonly peakRssMb: number;
  /** The same for the deployed shape: the bundled upload function alone in a fresh Node process. */
  readonly lambdaRssBeforeMb: number;
  readonly lambdaPeakRssMb: number;
  /** Its peak with a full garbage collection after every chunk: the working set of one chunk. */
  readonly lambdaPeakRssCollectedMb: number;
  readonly rounds: number;
}

export interface UploadResult {
  readonly runs: readonly UploadRun[];
}

const MiB = 1024 * 1024;
const BUCKET = 'kiroku-bench';

export async function benchUpload(
  files: readonly { fileMiB: number; rounds: number }[] = [
    { fileMiB: 50, rounds: 3 },
    { fileMiB: 200, rounds: 1 },
  ],
  chunkMiB = 4,
): Promise<UploadResult> {
  const dynamodb = await startDynamoDbLocal();
  const s3Dir = await mkdtemp(join(tmpdir(), 'kiroku-bench-s3-'));
  let s3Server: ChildProcess | undefined;
  const runs: UploadRun[] = [];
  try {
    process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
    process.env.KIROKU_BUCKET = BUCKET;
    await ensureTables({ prefix: 'upload-' });
    const { apiKey } = await bootstrapAdministrator();
    if (!apiKey) throw new Error('bootstrapAdministrator created no API key');

    s3Server = spawnNode(['--import', 'tsx', 'bench/s3-serve.ts'], {
      env: { ...process.env, BENCH_S3_DIR: s3Dir },
    });
    const [, s3Endpoint] = await waitForLine(s3Server, /bench s3 listening on (\S+)/, 30_000);
    drain(s3Server);
    process.env.KIROKU_S3_ENDPOINT = s3Endpoint;
    const s3 = new S3Client(s3ClientConfig());
    await bundle({ entry: 'functions/binaries-upload.ts', outdir: join(s3Dir, 'bundle') });

    for (const { fileMiB, rounds } of files) {
      const bytes = randomBytes(fileMiB * MiB);
      const fileHash = createHash('md5').update(bytes).digest('hex');
      const gateway = spawnNode(['--import', 'tsx', 'bench/serve.ts'], {
        env: {
          ...process.env,
          POWERTOOLS_LOG_LEVEL: 'SILENT',
          KIROKU_PARAM_BinaryStorage_MaxSize: String(Math.max(50, fileMiB)),
        },
      });
      try {
        const [, url] = await waitForLine(gateway, /bench gateway listening on (\S+)/, 30_000);
        drain(gateway);
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        // Warm: every module loaded and the clients connected before anything is timed.
        await uploadFile(agent, `${url}/api/binaries/upload?id=1`, apiKey, randomBytes(MiB), chunkMiB);
        const rssBeforeMb = await memoryOf(gateway, 'VmRSS');
        const upload: number[] = [];
        const direct: number[] = [];
        for (let round = 0; round < rounds; round++) {
          let started = performance.now();
          const answer = await uploadFile(
            agent,
            `${url}/api/binaries/upload?id=1`,
            apiKey,
            bytes,
            chunkMiB,
            fileHash,
          );
          upload.push(bytes.length / 1e6 / ((performance.now() - started) / 1000));
          if (!(answer.Id > 0)) throw new Error(`upload ended with ${JSON.stringify(answer)}`);
          started = performance.now();
          await s3.send(
            new PutObjectCommand({ Bucket: BUCKET, Key: `direct/${fileMiB}-${round}`, Body: bytes }),
          );
          direct.push(bytes.length / 1e6 / ((performance.now() - started) / 1000));
        }
        const peakRssMb = await memoryOf(gateway, 'VmHWM');
        agent.destroy();
        const bundleFile = join(s3Dir, 'bundle', BUNDLE_FILE);
        const lambda = await lambdaUpload(bundleFile, apiKey, fileMiB, chunkMiB, false);
        const collected = await lambdaUpload(bundleFile, apiKey, fileMiB, chunkMiB, true);
        const uploadMBps = median(upload);
        const directMBps = median(direct);
        runs.push({
          fileMiB,
          chunkMiB,
          uploadMBps: round(uploadMBps, 1),
          directMBps: round(directMBps, 1),
          ratio: round(uploadMBps / directMBps, 2),
          rssBeforeMb: round(rssBeforeMb, 1),
          peakRssMb: round(peakRssMb, 1),
          lambdaRssBeforeMb: round(lambda.rssBeforeMb, 1),
          lambdaPeakRssMb: round(lambda.peakRssMb, 1),
          lambdaPeakRssCollectedMb: round(collected.peakRssMb, 1),
          rounds,
        });
      } finally {
        await stop(gateway);
      }
    }
    s3.destroy();
    return { runs };
  } finally {
    if (s3Server) await stop(s3Server);
    await dynamodb.stop();
    await rm(s3Dir, { recursive: true, force: true });
  }
}

/**
 * bench/lambda-upload.mjs on the bundled handler, with a deployed function's environment; with `collect`,
 * a full garbage collection after each chunk shows what one chunk needs, apart from when V8 collects.
 */
async function lambdaUpload(
  bundleFile: string,
  apiKey: string,
  fileMiB: number,
  chunkMiB: number,
  collect: boolean,
) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name.startsWith('KIROKU_') || name === 'PATH'),
  );
  const child = spawnNode(['bench/lambda-upload.mjs'], {
    env: {
      ...env,
      AWS_REGION: 'us-east-1',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      KIROKU_PARAM_BinaryStorage_MaxSize: String(Math.max(50, fileMiB)),
      BENCH_BUNDLE: bundleFile,
      ...(collect && { BENCH_GC: '1', NODE_OPTIONS: '--expose-gc' }),
      BENCH_API_KEY: apiKey,
      BENCH_FILE_MIB: String(fileMiB),
      BENCH_CHUNK_MIB: String(chunkMiB),
    },
  });
  const [line] = await waitForLine(child, /^\{.*\}$/, 300_000);
  const { code } = await exited(child);
  if (code !== 0) throw new Error(`lambda-upload.mjs exited with ${code}`);
  return JSON.parse(line) as { rssBeforeMb: number; peakRssMb: number };
}

/** The file in chunks, as a browser or script client sends it; the last answer. */
async function uploadFile(
  agent: Agent,
  url: string,
  apiKey: string,
  bytes: Buffer,
  chunkMiB: number,
  fileHash?: string,
): Promise<{ Id: number; StatusCode: number; Message: string }> {
  const chunk = chunkMiB * MiB;
  let answer = { Id: 0, StatusCode: 0, Message: '' };
  for (let from = 0; from < bytes.length; from += chunk) {
    const part = bytes.subarray(from, Math.min(from + chunk, bytes.length));
    const last = from + part.length === bytes.length;
    const range = `bytes ${from}-${from + part.length - 1}/${bytes.length}`;
    answer = await postChunk(agent, url, apiKey, part, range, last ? fileHash : undefined);
    if (answer.StatusCode !== 200) throw new Error(`chunk at ${from}: ${JSON.stringify(answer)}`);
  }
  return answer;
}

function postChunk(
  agent: Agent,
  url: string,
  apiKey: string,
  bytes: Buffer,
  range: string,
  fileHash?: string,
): Promise<{ Id: number; StatusCode: number; Message: string }> {
  const boundary = '----kirokubench7d1f';
  const head = Buffer.from(
    (fileHash
      ? `--${boundary}\r\nContent-Disposition: form-data; name="FileHash"\r\n\r\n${fileHash}\r\n`
      : '') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\n` +
      `Content-Type: application/octet-stream\r\nContent-Range: ${range}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + bytes.length + tail.length,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (data: Buffer) => chunks.push(data));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new Error(`HTTP ${response.statusCode}: ${text}`));
          }
        });
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error('no answer in 60 s')));
    req.on('error', reject);
    req.write(head);
    req.write(bytes);
    req.end(tail);
  });
}

/** A /proc/<pid>/status figure in MB (VmRSS: now; VmHWM: the peak so far). */
async function memoryOf(child: ChildProcess, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`no ${field} for process ${child.pid}`);
  return (kb * 1024) / 1e6;
}
