import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { dynamo } from '../lib/storage/clients';
import { s3 } from '../lib/storage/s3';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { startGateway } from '../local/gateway';
import { drain, spawnNode, stop, waitForLine } from './children';
import { round } from './stats';
import { uploadFile } from './upload';

/**
 * Where the time of a 4 MiB chunk goes (issue 15), step by step: the upload through the local gateway run
 * in this process, with every DynamoDB and S3 call timed on the service's own clients (a middleware that
 * observes, never changes). Per chunk: each call's time, and the rest (HTTP, the payload 2.0 event,
 * multipart parsing, MD5, the middleware stack), as the request's time minus its calls.
 */

export interface ChunkSteps {
  readonly fileMiB: number;
  readonly chunkMiB: number;
  readonly chunks: number;
  readonly requestMs: number;
  /** Per chunk on average: calls by command (count, ms), and what is left of the request's time. */
  readonly perChunk: Record<string, { readonly calls: number; readonly ms: number }>;
  readonly otherMs: number;
}

const MiB = 1024 * 1024;

export async function benchChunkSteps(fileMiB = 50, chunkMiB = 4): Promise<ChunkSteps> {
  const dynamodb = await startDynamoDbLocal();
  const s3Dir = await mkdtemp(join(tmpdir(), 'kiroku-bench-s3-'));
  let s3Server: ChildProcess | undefined;
  try {
    process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
    process.env.KIROKU_BUCKET = 'kiroku-bench';
    process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
    process.env.KIROKU_PARAM_BinaryStorage_MaxSize = String(Math.max(50, fileMiB));
    await ensureTables({ prefix: 'steps-' });
    const { apiKey } = await bootstrapAdministrator();
    if (!apiKey) throw new Error('bootstrapAdministrator created no API key');
    s3Server = spawnNode(['--import', 'tsx', 'bench/s3-serve.ts'], {
      env: { ...process.env, BENCH_S3_DIR: s3Dir },
    });
    const [, s3Endpoint] = await waitForLine(s3Server, /bench s3 listening on (\S+)/, 30_000);
    drain(s3Server);
    process.env.KIROKU_S3_ENDPOINT = s3Endpoint;
    const gateway = await startGateway({ port: 0, host: '127.0.0.1', basePath: '' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const url = `${gateway.url}/api/binaries/upload?id=1`;
      await uploadFile(agent, url, apiKey, randomBytes(MiB), chunkMiB); // warm: modules, clients, sockets
      const timings = new Map<string, { calls: number; ms: number }>();
      const observe = (command: string, ms: number) => {
        const entry = timings.get(command) ?? { calls: 0, ms: 0 };
        entry.calls++;
        entry.ms += ms;
        timings.set(command, entry);
      };
      const name = 'bench-chunk-steps';
      for (const client of [dynamo(), s3()]) {
        (client.middlewareStack as ReturnType<typeof dynamo>['middlewareStack']).add(
          (next, context) => async (args) => {
            const began = performance.now();
            try {
              return await next(args);
            } finally {
              observe(String(context.commandName).replace(/Command$/, ''), performance.now() - began);
            }
          },
          { step: 'initialize', name },
        );
      }
      const bytes = randomBytes(fileMiB * MiB);
      const fileHash = createHash('md5').update(bytes).digest('hex');
      const began = performance.now();
      const answer = await uploadFile(agent, url, apiKey, bytes, chunkMiB, fileHash);
      const requestMs = performance.now() - began;
      if (!(answer.Id > 0)) throw new Error(`upload ended with ${JSON.stringify(answer)}`);
      for (const client of [dynamo(), s3()]) client.middlewareStack.remove(name);
      const chunks = Math.ceil(fileMiB / chunkMiB);
      const callsMs = [...timings.values()].reduce((sum, entry) => sum + entry.ms, 0);
      const perChunk = Object.fromEntries(
        [...timings].map(([command, entry]) => [
          command,
          { calls: round(entry.calls / chunks, 2), ms: round(entry.ms / chunks, 1) },
        ]),
      );
      return {
        fileMiB,
        chunkMiB,
        chunks,
        requestMs: round(requestMs / chunks, 1),
        perChunk,
        otherMs: round((requestMs - callsMs) / chunks, 1),
      };
    } finally {
      agent.destroy();
      await gateway.close();
    }
  } finally {
    if (s3Server) await stop(s3Server, 5_000);
    await dynamodb.stop();
    await rm(s3Dir, { recursive: true, force: true });
  }
}
