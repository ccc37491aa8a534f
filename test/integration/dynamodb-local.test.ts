import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoDbLocal } from '../../local/dynamodb-local';

const clientFor = (endpoint: string) =>
  new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves true when a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('local/dynamodb-local', () => {
  let dbPath: string;
  beforeAll(async () => {
    dbPath = await mkdtemp(join(tmpdir(), 'kiroku-ddb-'));
  });
  afterAll(() => rm(dbPath, { recursive: true, force: true }));

  describe('startDynamoDbLocal', () => {
    it('keeps tables and items across a restart with a dbPath, and leaves no JVM behind', async () => {
      const first = await startDynamoDbLocal({ dbPath: join(dbPath, 'nested') });
      const writer = clientFor(first.endpoint);
      await writer.send(
        new CreateTableCommand({
          TableName: 'Persisted',
          BillingMode: 'PAY_PER_REQUEST',
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        }),
      );
      await writer.send(
        new PutItemCommand({ TableName: 'Persisted', Item: { pk: { S: 'k' }, v: { S: '値' } } }),
      );
      writer.destroy();
      await first.stop();
      expect(alive(first.pid)).toBe(false);
      expect(await first.exited).toBeDefined();

      const second = await startDynamoDbLocal({ dbPath: join(dbPath, 'nested') });
      // -sharedDb: another region and access key see the same database.
      const reader = new DynamoDBClient({
        endpoint: second.endpoint,
        region: 'eu-west-1',
        credentials: { accessKeyId: 'other', secretAccessKey: 'x' },
      });
      try {
        const item = await reader.send(
          new GetItemCommand({ TableName: 'Persisted', Key: { pk: { S: 'k' } } }),
        );
        expect(item.Item).toEqual({ pk: { S: 'k' }, v: { S: '値' } });
      } finally {
        reader.destroy();
        await second.stop();
      }
      expect(alive(second.pid)).toBe(false);
      expect(await accepts('127.0.0.1', second.port)).toBe(false);
    });

    it('runs in memory on a free port and listens on 127.0.0.1 only', async () => {
      const local = await startDynamoDbLocal();
      try {
        const client = clientFor(local.endpoint);
        expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
        client.destroy();
        expect(local.endpoint).toBe(`http://127.0.0.1:${local.port}`);
        const external = Object.values(networkInterfaces())
          .flat()
          .find((address) => address && !address.internal && address.family === 'IPv4');
        if (external) expect(await accepts(external.address, local.port)).toBe(false);
      } finally {
        await local.stop();
      }
      expect(alive(local.pid)).toBe(false);
    });
  });
});
