import { randomBytes } from 'node:crypto';
import {
  BatchWriteItemCommand,
  DeleteItemCommand,
  DynamoDBClient,
  PutItemCommand,
  type AttributeValue as SdkAttributeValue,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, GetRecordsCommand } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dynamoDbClientConfig } from '../../lib/storage/clients';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../local/dynamodb-local';
import { type StreamBatchFailure, type StreamPoller, startStreamPoller } from '../../local/stream-poller';
import { createStreamTable } from '../fixtures/stream-table';

describe('local/stream-poller', () => {
  const client = new DynamoDBClient(dynamoDbClientConfig());
  let tableName: string;
  let streamArn: string;

  beforeAll(async () => {
    tableName = `poller-${randomBytes(4).toString('hex')}`;
    streamArn = await createStreamTable(client, tableName);
  });
  afterAll(() => client.destroy());

  /** A poller whose handler records every record it is given, after `behaviour` lets it through. */
  async function recordingPoller(
    behaviour: (event: DynamoDBStreamEvent) => void = () => undefined,
    on: { tableName: string; env?: NodeJS.ProcessEnv } = { tableName },
  ) {
    const records: DynamoDBRecord[] = [];
    const calls: DynamoDBStreamEvent[] = [];
    const poller = await startStreamPoller({
      subscriptions: [
        {
          tableName: on.tableName,
          handler: async (event) => {
            calls.push(event);
            behaviour(event);
            records.push(...event.Records);
          },
        },
      ],
      pollIntervalMs: 100,
      maxRetryAttempts: 2,
      env: on.env,
      log: () => undefined,
    });
    return { poller, records, calls };
  }

  const put = (
    pk: string,
    attributes: Record<string, { S: string } | { N: string } | { B: Uint8Array }> = {},
  ) => client.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: pk }, ...attributes } }));

  describe('startStreamPoller', () => {
    let poller: StreamPoller | undefined;
    afterAll(async () => poller?.stop());

    it('delivers INSERT, MODIFY and REMOVE in Lambda’s event shape within 2 s', async () => {
      const started = await recordingPoller();
      poller = started.poller;
      const before = Math.floor(Date.now() / 1000);
      await put('a', { Name: { S: 'one' }, Data: { B: Uint8Array.from([1, 2, 3]) } });
      await client.send(
        new UpdateItemCommand({
          TableName: tableName,
          Key: { pk: { S: 'a' } },
          UpdateExpression: 'SET #n = :n',
          ExpressionAttributeNames: { '#n': 'Name' },
          ExpressionAttributeValues: { ':n': { S: 'two' } },
        }),
      );
      await client.send(new DeleteItemCommand({ TableName: tableName, Key: { pk: { S: 'a' } } }));
      await vi.waitFor(() => expect(started.records).toHaveLength(3), { timeout: 2000, interval: 50 });

      const [insert, modify, remove] = started.records;
      expect(insert).toMatchObject({
        eventID: expect.any(String),
        eventName: 'INSERT',
        eventVersion: '1.1',
        eventSource: 'aws:dynamodb',
        awsRegion: expect.any(String),
        eventSourceARN: streamArn,
        dynamodb: {
          Keys: { pk: { S: 'a' } },
          NewImage: { pk: { S: 'a' }, Name: { S: 'one' }, Data: { B: 'AQID' } },
          SequenceNumber: expect.any(String),
          SizeBytes: expect.any(Number),
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
      });
      expect(insert?.dynamodb?.OldImage).toBeUndefined();
      // Epoch seconds, as Lambda delivers them; DynamoDB Local rounds down to the minute.
      expect(insert?.dynamodb?.ApproximateCreationDateTime).toBeGreaterThanOrEqual(before - 60);
      expect(insert?.dynamodb?.ApproximateCreationDateTime).toBeLessThan(before + 60);
      expect(modify).toMatchObject({
        eventName: 'MODIFY',
        dynamodb: { OldImage: { Name: { S: 'one' } }, NewImage: { Name: { S: 'two' } } },
      });
      expect(remove).toMatchObject({ eventName: 'REMOVE', dynamodb: { OldImage: { Name: { S: 'two' } } } });
      expect(remove?.dynamodb?.NewImage).toBeUndefined();
      expect(remove?.userIdentity).toBeUndefined();
    });

    it('hands over every attribute type as Lambda does, empty maps and lists included', async () => {
      const started = await recordingPoller();
      try {
        const attributes: Record<string, SdkAttributeValue> = {
          Empty: { M: {} },
          Nested: { M: { Inner: { M: {} }, List: { L: [] }, N: { N: '1' } } },
          Set: { SS: ['a', 'b'] },
          Numbers: { NS: ['1', '2'] },
          Flag: { BOOL: true },
          Nothing: { NULL: true },
        };
        await client.send(
          new PutItemCommand({ TableName: tableName, Item: { pk: { S: 'types' }, ...attributes } }),
        );
        await vi.waitFor(() => expect(started.records).toHaveLength(1), { timeout: 2000, interval: 50 });
        expect(started.records[0]?.dynamodb?.NewImage).toEqual({ pk: { S: 'types' }, ...attributes });
      } finally {
        await started.poller.stop();
      }
    });

    it('retries a batch whose handler throws, then delivers it', async () => {
      let failures = 0;
      const started = await recordingPoller(() => {
        if (failures++ === 0) throw new Error('first attempt fails');
      });
      try {
        await put('retried');
        await vi.waitFor(() => expect(started.records).toHaveLength(1), { timeout: 3000, interval: 50 });
        expect(started.calls).toHaveLength(2);
        expect(started.calls[0]).toEqual(started.calls[1]);
        expect(started.records[0]?.dynamodb?.Keys).toEqual({ pk: { S: 'retried' } });
      } finally {
        await started.poller.stop();
      }
    });

    it('skips a batch that keeps failing after the retries and goes on', async () => {
      const started = await recordingPoller((event) => {
        if (event.Records.some((record) => record.dynamodb?.Keys?.pk?.S === 'poison'))
          throw new Error('poison');
      });
      try {
        await put('poison');
        await vi.waitFor(() => expect(started.calls).toHaveLength(3), { timeout: 5000, interval: 50 });
        await put('after');
        await vi.waitFor(() => expect(started.records).toHaveLength(1), { timeout: 3000, interval: 50 });
        expect(started.records[0]?.dynamodb?.Keys).toEqual({ pk: { S: 'after' } });
        expect(started.calls).toHaveLength(4);
      } finally {
        await started.poller.stop();
      }
    });

    it('starts at TRIM_HORIZON on request and stops cleanly', async () => {
      const records: DynamoDBRecord[] = [];
      const replay = await startStreamPoller({
        subscriptions: [{ tableName, handler: async (event) => records.push(...event.Records) }],
        startingPosition: 'TRIM_HORIZON',
        pollIntervalMs: 100,
      });
      await vi.waitFor(() => expect(records.length).toBeGreaterThanOrEqual(3), {
        timeout: 3000,
        interval: 50,
      });
      expect(records[0]).toMatchObject({ eventName: 'INSERT', dynamodb: { Keys: { pk: { S: 'a' } } } });
      await replay.stop();
      const seen = records.length;
      await put('after-stop');
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(records).toHaveLength(seen);
    });
  });
  describe('a quiet shard after a load on another table', () => {
    it('delivers a new record of the quiet table within 2 s once woken by the write, and every record of the loaded one', async () => {
      const loaded = `loaded-${randomBytes(4).toString('hex')}`;
      await createStreamTable(client, loaded);
      let wake: (tables: readonly string[]) => void = () => undefined;
      const records: DynamoDBRecord[] = [];
      const quiet = {
        records,
        poller: await startStreamPoller({
          subscriptions: [{ tableName, handler: async (event) => records.push(...event.Records) }],
          pollIntervalMs: 100,
          log: () => undefined,
          wakeOn: (listener) => {
            wake = listener;
            return () => undefined;
          },
        }),
      };
      const busy = await recordingPoller(() => undefined, { tableName: loaded });
      try {
        const count = 2000;
        for (let start = 0; start < count; start += 25) {
          const items = Array.from({ length: 25 }, (_, offset) => ({
            PutRequest: { Item: { pk: { S: `load-${start + offset}` } } },
          }));
          await client.send(new BatchWriteItemCommand({ RequestItems: { [loaded]: items } }));
        }
        // The load itself is what the whole suite's load slows most (43 s for this test once): its own wait.
        await vi.waitFor(() => expect(busy.records).toHaveLength(count), { timeout: 60_000, interval: 100 });
        // Idle long enough for the quiet shard to rest between reads, then written to.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const written = Date.now();
        await put('after-load');
        // As lib/storage/local-writes.ts reports a write of this process.
        wake([tableName]);
        await vi.waitFor(
          () => expect(quiet.records.map((record) => record.dynamodb?.Keys?.pk?.S)).toContain('after-load'),
          { timeout: 2000, interval: 20 },
        );
        expect(Date.now() - written).toBeLessThan(2000);
        expect(new Set(busy.records.map((record) => record.dynamodb?.Keys?.pk?.S)).size).toBe(count);
      } finally {
        await quiet.poller.stop();
        await busy.poller.stop();
      }
    }, 120_000);
  });

  describe('a write woken while a read is in flight', () => {
    it('is read at once after that read, which looked before the write, rather than after its rest', async () => {
      const name = `woken-${randomBytes(4).toString('hex')}`;
      await createStreamTable(client, name);
      const records: DynamoDBRecord[] = [];
      let wake: (tables: readonly string[]) => void = () => undefined;
      // The fault: one GetRecords of the table answers only once the write below has been made and woken,
      // and late enough (over 250 ms) that its empty answer would rest the shard for 50 times as long.
      let release: () => void = () => undefined;
      let gate: Promise<void> | undefined = new Promise((resolve) => {
        release = resolve;
      });
      let caught: () => void = () => undefined;
      const inFlight = new Promise<void>((resolve) => {
        caught = resolve;
      });
      const send = DynamoDBStreamsClient.prototype.send;
      const spy = vi.spyOn(DynamoDBStreamsClient.prototype, 'send').mockImplementation(async function (
        this: DynamoDBStreamsClient,
        command: unknown,
      ) {
        const answer = await (send as (command: unknown) => Promise<unknown>).call(this, command);
        const read = command instanceof GetRecordsCommand ? command.input.ShardIterator : undefined;
        if (gate && read?.includes(name)) {
          const held = gate;
          gate = undefined;
          caught();
          await held;
        }
        return answer;
      } as never);
      const poller = await startStreamPoller({
        subscriptions: [{ tableName: name, handler: async (event) => records.push(...event.Records) }],
        pollIntervalMs: 100,
        log: () => undefined,
        wakeOn: (listener) => {
          wake = listener;
          return () => undefined;
        },
      });
      try {
        await inFlight;
        await client.send(new PutItemCommand({ TableName: name, Item: { pk: { S: 'during-read' } } }));
        wake([name]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        release();
        const released = Date.now();
        await vi.waitFor(
          () => expect(records.map((record) => record.dynamodb?.Keys?.pk?.S)).toContain('during-read'),
          {
            timeout: 5000,
            interval: 20,
          },
        );
        // Resting on the held read would have taken at least 50 × 300 ms.
        expect(Date.now() - released).toBeLessThan(5000);
      } finally {
        spy.mockRestore();
        await poller.stop();
      }
    });
  });

  describe('partial batch responses (ReportBatchItemFailures)', () => {
    /** A fresh table with three writes, read from TRIM_HORIZON so that they come as one batch. */
    async function threeRecordBatch(
      answer: (event: DynamoDBStreamEvent, call: number) => unknown,
      onFailure?: (failure: StreamBatchFailure) => void,
    ) {
      const name = `partial-${randomBytes(4).toString('hex')}`;
      await createStreamTable(client, name);
      for (const pk of ['first', 'second', 'third']) {
        await client.send(new PutItemCommand({ TableName: name, Item: { pk: { S: pk } } }));
      }
      const calls: string[][] = [];
      const poller = await startStreamPoller({
        subscriptions: [
          {
            tableName: name,
            handler: async (event) => {
              calls.push(event.Records.map((record) => record.dynamodb?.Keys?.pk?.S ?? ''));
              return answer(event, calls.length);
            },
          },
        ],
        startingPosition: 'TRIM_HORIZON',
        pollIntervalMs: 100,
        maxRetryAttempts: 2,
        log: () => undefined,
        onFailure,
      });
      return {
        calls,
        poller,
        put: (pk: string) => client.send(new PutItemCommand({ TableName: name, Item: { pk: { S: pk } } })),
      };
    }
    const failing = (event: DynamoDBStreamEvent, pk: string) => ({
      batchItemFailures: event.Records.filter((record) => record.dynamodb?.Keys?.pk?.S === pk).map(
        (record) => ({
          itemIdentifier: record.dynamodb?.SequenceNumber,
        }),
      ),
    });

    it('retries only the failed record and what follows it', async () => {
      const started = await threeRecordBatch((event, call) =>
        call === 1 ? failing(event, 'second') : undefined,
      );
      try {
        await vi.waitFor(() => expect(started.calls).toHaveLength(2), { timeout: 3000, interval: 50 });
        expect(started.calls).toEqual([
          ['first', 'second', 'third'],
          ['second', 'third'],
        ]);
      } finally {
        await started.poller.stop();
      }
    });

    it('fails the whole batch on an identifier that is not one of its records, as Lambda does', async () => {
      const started = await threeRecordBatch((_event, call) =>
        call === 1
          ? { batchItemFailures: [{ itemIdentifier: 'no such record' }] }
          : { batchItemFailures: [] },
      );
      try {
        await vi.waitFor(() => expect(started.calls).toHaveLength(2), { timeout: 3000, interval: 50 });
        expect(started.calls[1]).toEqual(['first', 'second', 'third']);
      } finally {
        await started.poller.stop();
      }
    });

    it('hands what still fails after the retries to the failure destination, then goes on', async () => {
      const failures: StreamBatchFailure[] = [];
      const started = await threeRecordBatch(
        (event) => failing(event, 'second'),
        (failure) => failures.push(failure),
      );
      try {
        await vi.waitFor(() => expect(failures).toHaveLength(1), { timeout: 5000, interval: 50 });
        expect(started.calls).toEqual([
          ['first', 'second', 'third'],
          ['second', 'third'],
          ['second', 'third'],
        ]);
        expect(failures[0]?.records.map((record) => record.dynamodb?.Keys?.pk?.S)).toEqual([
          'second',
          'third',
        ]);
        await started.put('fourth');
        await vi.waitFor(() => expect(started.calls.at(-1)).toEqual(['fourth']), {
          timeout: 3000,
          interval: 50,
        });
      } finally {
        await started.poller.stop();
      }
    });
  });

  // DynamoDB Local's TTL job sweeps every TTL table of its database in turn, which under a full test run
  // (hundreds of tables in the shared instance) can take minutes: this test has an instance of its own.
  describe('with a DynamoDB Local of its own', () => {
    let own: DynamoDbLocal;
    let ownClient: DynamoDBClient;
    const ownTable = 'ttl';
    beforeAll(async () => {
      own = await startDynamoDbLocal();
      ownClient = new DynamoDBClient(dynamoDbClientConfig({ KIROKU_DYNAMODB_ENDPOINT: own.endpoint }));
      await createStreamTable(ownClient, ownTable);
    }, 30_000);
    afterAll(async () => {
      ownClient?.destroy();
      await own?.stop();
    });

    it('reports a TTL deletion as REMOVE by the DynamoDB service, as DynamoDB does', async () => {
      const env = { ...process.env, KIROKU_DYNAMODB_ENDPOINT: own.endpoint };
      const started = await recordingPoller(undefined, { tableName: ownTable, env });
      try {
        await ownClient.send(
          new PutItemCommand({
            TableName: ownTable,
            Item: { pk: { S: 'expired' }, ExpiresAt: { N: String(Math.floor(Date.now() / 1000) - 60) } },
          }),
        );
        await vi.waitFor(() => expect(started.records).toHaveLength(2), { timeout: 20_000, interval: 200 });
        expect(started.records[1]).toMatchObject({
          eventName: 'REMOVE',
          userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
          dynamodb: { Keys: { pk: { S: 'expired' } }, OldImage: { pk: { S: 'expired' } } },
        });
      } finally {
        await started.poller.stop();
      }
    }, 30_000);
  });
});
