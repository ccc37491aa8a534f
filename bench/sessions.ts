import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { dynamoDbClientConfig } from '../lib/storage/clients';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { startS3Local } from '../local/s3-local';
import { drain, spawnNode, stop, waitForLine } from './children';
import { post } from './http-post';
import { type Contender, compare, type LoadOptions, type LoadResult } from './load';
import { round } from './stats';

/**
 * Sessions set+get through the local gateway against the same two calls made directly with the SDK,
 * on one in-memory DynamoDB Local. The gateway runs in a child process (bench/serve.ts), so the load
 * generator and the handlers do not share one event loop: the Kiroku figure includes what a deployed
 * request pays on top of DynamoDB (HTTP, event building, middleware, marshalling) and nothing else.
 */

export interface SessionsResult extends LoadOptions {
  readonly kiroku: LoadResult;
  readonly bare: LoadResult;
  /** kiroku.pairsPerSecond / bare.pairsPerSecond */
  readonly ratio: number;
  readonly gateway: 'child process';
}

interface Loop {
  readonly pair: Contender['pair'];
  close(): void;
}

const VALUE = 'v'.repeat(100);

export async function benchSessions(options: LoadOptions): Promise<SessionsResult> {
  const s3Dir = await mkdtemp(join(tmpdir(), 'kiroku-bench-s3-'));
  const [startedDb, startedS3] = await Promise.allSettled([
    startDynamoDbLocal(),
    startS3Local({ directory: s3Dir }),
  ]);
  const dynamodb = startedDb.status === 'fulfilled' ? startedDb.value : undefined;
  const s3 = startedS3.status === 'fulfilled' ? startedS3.value : undefined;
  let gateway: ChildProcess | undefined;
  try {
    if (startedDb.status === 'rejected') throw startedDb.reason;
    if (startedS3.status === 'rejected') throw startedS3.reason;
    if (!dynamodb || !s3) throw new Error('unreachable');
    process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
    process.env.KIROKU_S3_ENDPOINT = s3.endpoint;
    process.env.KIROKU_BUCKET = 'kiroku-bench';
    const id = randomBytes(4).toString('hex');
    await ensureTables({ prefix: `bench${id}-` });
    // The bare loop's table comes from the same definition, so it has the same keys and TTL.
    const bareTables = await ensureTables({ prefix: `bare${id}-`, env: { ...process.env } });
    const { apiKey } = await bootstrapAdministrator();
    if (!apiKey) throw new Error('bootstrapAdministrator created no API key');

    gateway = spawnNode(['--import', 'tsx', 'bench/serve.ts'], { env: { ...process.env } });
    const [, url] = await waitForLine(gateway, /bench gateway listening on (\S+)/, 30_000);
    drain(gateway);

    const bareLoop = sdkLoop(bareTables.sessions);
    const kirokuLoop = gatewayLoop(url as string, apiKey, options.concurrency);
    const pids = { bench: process.pid, dynamodb: dynamodb.pid };
    try {
      const { kiroku, bare } = await compare(options, {
        bare: { pair: bareLoop.pair, pids },
        kiroku: { pair: kirokuLoop.pair, pids: { ...pids, gateway: gateway.pid ?? 0 } },
      });
      return {
        ...options,
        kiroku,
        bare,
        ratio: round(kiroku.pairsPerSecond / bare.pairsPerSecond, 3),
        gateway: 'child process',
      };
    } finally {
      bareLoop.close();
      kirokuLoop.close();
    }
  } finally {
    if (gateway) await stop(gateway, 5_000);
    await Promise.allSettled([dynamodb?.stop(), s3?.stop()]);
    await rm(s3Dir, { recursive: true, force: true });
  }
}

/** The repository's two calls (lib/sessions/repository.ts), with nothing around them. */
function sdkLoop(table: string): Loop {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient(dynamoDbClientConfig()), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const guids = new Map<number, string>();
  const pair: Contender['pair'] = async (worker, iteration) => {
    let guid = guids.get(worker);
    if (!guid) {
      guid = randomBytes(16).toString('hex').toUpperCase();
      guids.set(worker, guid);
    }
    const Key = { SessionGuid: guid, Key: `1/User_k${iteration % 100}` };
    const updatedAt = Date.now();
    await client.send(
      new PutCommand({
        TableName: table,
        Item: {
          ...Key,
          UserId: 1,
          SessionKey: `k${iteration % 100}`,
          Value: VALUE,
          UpdatedAt: updatedAt,
          ExpiresAt: Math.ceil((updatedAt + 1440 * 60_000) / 1000),
        },
      }),
    );
    const got = await client.send(new GetCommand({ TableName: table, Key, ConsistentRead: true }));
    if (got.Item?.Value !== VALUE) throw new Error('bare GetItem did not return the value');
  };
  return { pair, close: () => client.destroy() };
}

/** POST /api/sessions/set then /api/sessions/get, each worker keeping the session cookie it was given. */
function gatewayLoop(url: string, apiKey: string, concurrency: number): Loop {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const cookies = new Map<number, string>();
  const pair: Contender['pair'] = async (worker, iteration) => {
    const key = `k${iteration % 100}`;
    const cookie = cookies.get(worker);
    const set = await post(
      agent,
      `${url}/api/sessions/set`,
      { ApiKey: apiKey, SessionKey: key, SessionValue: VALUE },
      cookie,
    );
    if (set.status !== 200) throw new Error(`sessions/set answered ${set.status}: ${set.body}`);
    if (!cookie) {
      const session = set.cookies.find((value) => value.startsWith('Kiroku_SessionGuid='));
      if (!session) throw new Error('sessions/set set no Kiroku_SessionGuid cookie');
      cookies.set(worker, session);
    }
    const get = await post(
      agent,
      `${url}/api/sessions/get`,
      { ApiKey: apiKey, SessionKey: key },
      cookies.get(worker),
    );
    if (get.status !== 200) throw new Error(`sessions/get answered ${get.status}: ${get.body}`);
    if (!get.body.includes(VALUE)) throw new Error(`sessions/get did not return the value: ${get.body}`);
  };
  return { pair, close: () => agent.destroy() };
}
