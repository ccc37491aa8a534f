import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWriteItemCommand, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { dynamoDbClientConfig } from '../lib/storage/clients';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { startStreamPoller } from '../local/stream-poller';
import { createStreamTable } from '../test/fixtures/stream-table';
import { percentile, round } from './stats';

/**
 * What a big load leaves in DynamoDB Local's stream does to every other request once the poller has
 * caught up: `node --import tsx bench/stream-backlog.ts [records]` writes the records (100,000 by
 * default) into a table with its stream on while three subscriptions (the Items table's count) read it,
 * and one more reads a quiet table's stream (as the Tasks and Binaries tables' are), waits until each has
 * seen them all, then times warm GetItems with the poller idle, against the same before the load. On
 * disk, as npm start keeps its data. DynamoDB Local keeps every stream's records in one SQLite table.
 */

const RECORDS = Number(process.argv[2] ?? 100_000);
const SUBSCRIPTIONS = 3;
const GETS = 200;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'kiroku-stream-backlog-'));
  const db = await startDynamoDbLocal({ dbPath: dir, heapMb: 1024 });
  process.env.KIROKU_DYNAMODB_ENDPOINT = db.endpoint;
  const client = new DynamoDBClient(dynamoDbClientConfig());
  const tableName = 'backlog';
  const quiet = 'quiet';
  await createStreamTable(client, tableName);
  await createStreamTable(client, quiet);
  const seen = Array.from({ length: SUBSCRIPTIONS }, () => 0);
  const poller = await startStreamPoller({
    subscriptions: [
      ...seen.map((_, index) => ({
        tableName,
        name: `s${index}`,
        handler: async (event: { Records: unknown[] }) => {
          seen[index] = (seen[index] ?? 0) + event.Records.length;
        },
      })),
      { tableName: quiet, handler: async () => undefined },
    ],
  });
  try {
    for (const table of [tableName, quiet]) {
      await client.send(
        new BatchWriteItemCommand({
          RequestItems: { [table]: [{ PutRequest: { Item: { pk: { S: 'probe' }, n: { N: '1' } } } }] },
        }),
      );
    }
    await new Promise((wake) => setTimeout(wake, 1000));
    const empty = await timeGets(client, quiet);
    const started = Date.now();
    await load(client, tableName);
    const loadedMs = Date.now() - started;
    while (seen.some((count) => count < RECORDS + 1)) await new Promise((wake) => setTimeout(wake, 200));
    const caughtUpMs = Date.now() - started;
    await new Promise((wake) => setTimeout(wake, 2000));
    const after = await timeGets(client, quiet);
    console.log(
      JSON.stringify({ records: RECORDS, loadedMs, caughtUpMs, emptyStream: empty, afterLoad: after }),
    );
  } finally {
    await poller.stop();
    client.destroy();
    await db.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function load(client: DynamoDBClient, tableName: string): Promise<void> {
  const body = 'x'.repeat(200);
  const batches: number[] = [];
  for (let start = 0; start < RECORDS; start += 25) batches.push(start);
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const start = batches[next++] as number;
      let items = Array.from({ length: Math.min(25, RECORDS - start) }, (_, offset) => ({
        PutRequest: { Item: { pk: { S: `r${start + offset}` }, body: { S: body } } },
      }));
      while (items.length > 0) {
        const answer = await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: items } }));
        items = (answer.UnprocessedItems?.[tableName] ?? []) as typeof items;
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

async function timeGets(client: DynamoDBClient, tableName: string) {
  const latencies: number[] = [];
  for (let index = 0; index < GETS; index++) {
    const start = performance.now();
    await client.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: 'probe' } } }));
    latencies.push(performance.now() - start);
    await new Promise((wake) => setTimeout(wake, 10));
  }
  return { p50Ms: round(percentile(latencies, 50)), p99Ms: round(percentile(latencies, 99)) };
}

await main();
