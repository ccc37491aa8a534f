import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dynamoDbClientConfig } from '../../lib/storage/clients';
import { startStreamPoller } from '../../local/stream-poller';
import { createStreamTable } from '../fixtures/stream-table';

/** The poller's checkpoint file against DynamoDB Local: what a restart of npm start goes through. */
describe('local/stream-poller', () => {
  const client = new DynamoDBClient(dynamoDbClientConfig());
  let directory: string;
  let tableName: string;
  let streamArn: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'kiroku-checkpoints-'));
    tableName = `checkpoints-${randomBytes(4).toString('hex')}`;
    streamArn = await createStreamTable(client, tableName);
  });
  afterAll(async () => {
    client.destroy();
    await rm(directory, { recursive: true, force: true });
  });

  const put = (pk: string) =>
    client.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: pk } } }));
  const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

  /** A poller at LATEST keeping its checkpoints in `file`; `keys` collects the keys delivered. */
  async function checkpointedPoller(file: string, handle: (event: DynamoDBStreamEvent) => void = () => {}) {
    const keys: (string | undefined)[] = [];
    const poller = await startStreamPoller({
      subscriptions: [
        {
          tableName,
          handler: async (event) => {
            handle(event);
            keys.push(...event.Records.map((record) => record.dynamodb?.Keys?.pk?.S));
          },
        },
      ],
      startingPosition: 'LATEST',
      checkpointFile: file,
      pollIntervalMs: 100,
      maxRetryAttempts: 3,
      log: () => undefined,
    });
    return { poller, keys };
  }

  describe('startStreamPoller with checkpointFile', () => {
    it('delivers at the next start what was written while no poller ran, none twice', async () => {
      const file = join(directory, 'resume', 'stream-checkpoints.json');
      const first = await checkpointedPoller(file);
      await put('before-stop');
      await vi.waitFor(() => expect(first.keys).toEqual(['before-stop']), { timeout: 3000, interval: 50 });
      await first.poller.stop();

      await put('while-stopped-1');
      await put('while-stopped-2');
      const second = await checkpointedPoller(file);
      try {
        await vi.waitFor(() => expect(second.keys).toHaveLength(2), { timeout: 3000, interval: 50 });
        await settle();
        expect(second.keys).toEqual(['while-stopped-1', 'while-stopped-2']);
      } finally {
        await second.poller.stop();
      }
      const saved = JSON.parse(await readFile(file, 'utf8'));
      expect(saved.subscriptions[tableName].streamArn).toBe(streamArn);
      expect(Object.values(saved.subscriptions[tableName].shards)).not.toHaveLength(0);
    });

    it('delivers again at the next start a batch whose retries the stop cut short', async () => {
      const file = join(directory, 'cut-short.json');
      let attempts = 0;
      const failing = await checkpointedPoller(file, (event) => {
        if (event.Records.some((record) => record.dynamodb?.Keys?.pk?.S === 'interrupted')) {
          attempts++;
          throw new Error('not now');
        }
      });
      await put('settled');
      await vi.waitFor(() => expect(failing.keys).toEqual(['settled']), { timeout: 3000, interval: 50 });
      await put('interrupted');
      // Stopped during the backoff after the first attempt, long before the retries run out.
      await vi.waitFor(() => expect(attempts).toBeGreaterThan(0), { timeout: 3000, interval: 20 });
      await failing.poller.stop();

      const second = await checkpointedPoller(file);
      try {
        await vi.waitFor(() => expect(second.keys).toContain('interrupted'), { timeout: 3000, interval: 50 });
        await settle();
        expect(second.keys).toEqual(['interrupted']);
      } finally {
        await second.poller.stop();
      }
    });

    it('ignores checkpoints taken on another stream and starts at startingPosition', async () => {
      const file = join(directory, 'recreated.json');
      const oldArn = `${streamArn.replace(/stream\/.*$/, 'stream/')}2000-01-01T00:00:00.000`;
      const stale = {
        subscriptions: { [tableName]: { streamArn: oldArn, shards: { 'shardId-gone': '1' } } },
      };
      await writeFile(file, JSON.stringify(stale));
      const started = await checkpointedPoller(file);
      try {
        await put('fresh');
        await vi.waitFor(() => expect(started.keys).toEqual(['fresh']), { timeout: 3000, interval: 50 });
        await settle();
        // At LATEST: none of the records the earlier tests wrote.
        expect(started.keys).toEqual(['fresh']);
      } finally {
        await started.poller.stop();
      }
      const saved = JSON.parse(await readFile(file, 'utf8'));
      expect(saved.subscriptions[tableName].streamArn).toBe(streamArn);
      expect(saved.subscriptions[tableName].shards).not.toHaveProperty('shardId-gone');
    });

    it('refuses a file that is not a checkpoint file rather than skip records', async () => {
      const file = join(directory, 'garbage.json');
      await writeFile(file, '{"subscriptions": ');
      await expect(checkpointedPoller(file)).rejects.toThrow(/not a stream checkpoint file/);
    });
  });
});
