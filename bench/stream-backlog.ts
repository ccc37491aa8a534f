import { readFile } from 'node:fs/promises';
import {
  BatchWriteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
} from '@aws-sdk/client-dynamodb';
import { dynamoDbClientConfig } from '../lib/storage/clients';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { startStreamPoller } from '../local/stream-poller';
import { createStreamTable } from '../test/fixtures/stream-table';
import { percentile, round } from './stats';

/**
 * What a big load leaves in DynamoDB Local's stream does to every other request once the poller has
 * caught up: `node --import tsx bench/stream-backlog.ts <dir> [records]` writes the records (100,000 by
 * default) into a table with its stream on (once: a second run on the same directory reuses them), then
 * starts the poller with three subscriptions reading that stream from its start (the Items table's
 * three) and one reading a quiet table's (as the Tasks and Binaries tables' are), waits until each has
 * seen every record, and times warm GetItems with the poller idle, against the same on the quiet table
 * before the poller started. On disk, as npm start keeps its data. DynamoDB Local keeps the records of
 * every stream in one SQLite table.
 */

const DIR = process.argv[2];
const RECORDS = Number(process.argv[3] ?? 100_000);
const SUBSCRIPTIONS = 3;
const GETS = 400;

async function main(): Promise<void> {
  if (!DIR) throw new Error('usage: bench/stream-backlog.ts <data directory> [records]');
  const db = await startDynamoDbLocal({ dbPath: DIR, heapMb: 1024 });
  process.env.KIROKU_DYNAMODB_ENDPOINT = db.endpoint;
  const client = new DynamoDBClient(dynamoDbClientConfig());
  const tableName = 'backlog';
  const quiet = 'quiet';
  try {
    const tables = (await client.send(new ListTablesCommand({}))).TableNames ?? [];
    if (!tables.includes(tableName)) {
      await createStreamTable(client, tableName);
      await createStreamTable(client, quiet);
      await put(client, quiet, 'probe');
      const started = Date.now();
      await load(client, tableName);
      console.log(JSON.stringify({ records: RECORDS, loadedMs: Date.now() - started }));
    }
    await timeGets(client, quiet);
    const before = { ...(await timeGets(client, quiet)), jvmCpu: await cpuShare(db.pid) };
    const seen = Array.from({ length: SUBSCRIPTIONS }, () => 0);
    const started = Date.now();
    const poller = await startStreamPoller({
      startingPosition: 'TRIM_HORIZON',
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
      // Caught up: every subscription has seen the load, and no more records come.
      for (let last = ''; ; ) {
        await new Promise((wake) => setTimeout(wake, 1000));
        const now = seen.join();
        if (now === last && seen.every((count) => count >= RECORDS)) break;
        last = now;
      }
      const caughtUpMs = Date.now() - started - 1000;
      await new Promise((wake) => setTimeout(wake, 2000));
      const idle = { ...(await timeGets(client, quiet)), jvmCpu: await cpuShare(db.pid) };
      // A write to the quiet table after all that still reaches its handler in time.
      console.log(JSON.stringify({ records: seen, caughtUpMs, pollerOff: before, pollerIdle: idle }));
    } finally {
      await poller.stop();
    }
  } finally {
    client.destroy();
    await db.stop();
  }
}

const put = (client: DynamoDBClient, table: string, pk: string) =>
  client.send(
    new BatchWriteItemCommand({ RequestItems: { [table]: [{ PutRequest: { Item: { pk: { S: pk } } } }] } }),
  );

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
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** The share of one core the process used over 10 s (utime + stime from /proc). */
async function cpuShare(pid: number): Promise<number> {
  const ticks = async () => {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
    return Number(fields[11]) + Number(fields[12]);
  };
  const start = await ticks();
  await new Promise((wake) => setTimeout(wake, 10_000));
  return round(((await ticks()) - start) / 100 / 10, 2);
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
