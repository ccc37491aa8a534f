import { Agent } from 'node:http';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { dynamo } from '../lib/storage/clients';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { startGateway } from '../local/gateway';
import { post } from './http-post';
import { round } from './stats';

/**
 * bulkupsert of 1,000 items in one request against 1,000 single creates, through the local gateway (in
 * this process, so that the storage writes of both can be counted at the DynamoDB client): wall time
 * and the items written (transaction parts, puts, updates, batch writes).
 */

export interface BulkUpsertResult {
  readonly items: number;
  readonly bulk: { readonly ms: number; readonly writes: number; readonly requests: number };
  readonly singles: { readonly ms: number; readonly writes: number; readonly requests: number };
}

export async function benchBulkUpsert(items = 1_000): Promise<BulkUpsertResult> {
  const dynamodb = await startDynamoDbLocal({ heapMb: 512 });
  process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
  await ensureTables({ prefix: 'bulk-' });
  const { apiKey } = await bootstrapAdministrator();
  if (!apiKey) throw new Error('bootstrapAdministrator created no API key');
  const gateway = await startGateway({ port: 0, host: '127.0.0.1', basePath: '' });
  const counter = countWrites();
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const site = async (title: string) => {
      const created = await post(agent, `${gateway.url}/api/items/0/createsite`, {
        ApiKey: apiKey,
        Title: title,
        ReferenceType: 'Results',
      });
      return Number(JSON.parse(created.body).Id);
    };
    const body = (n: number) => ({
      Title: `Item ${n}`,
      Status: 100 + (n % 5),
      ClassHash: { ClassA: `code-${n}` },
    });
    const bulkSite = await site('Bulk');
    const singleSite = await site('Single');

    counter.take();
    let started = performance.now();
    const bulk = await post(agent, `${gateway.url}/api/items/${bulkSite}/bulkupsert`, {
      ApiKey: apiKey,
      Keys: ['ClassA'],
      Data: Array.from({ length: items }, (_, n) => body(n)),
    });
    if (bulk.status !== 200) throw new Error(`bulkupsert answered ${bulk.status}: ${bulk.body}`);
    const bulkResult = { ms: round(performance.now() - started), ...counter.take() };

    started = performance.now();
    for (let n = 0; n < items; n++) {
      const one = await post(agent, `${gateway.url}/api/items/${singleSite}/create`, {
        ApiKey: apiKey,
        ...body(n),
      });
      if (one.status !== 200) throw new Error(`create answered ${one.status}: ${one.body}`);
    }
    const singleResult = { ms: round(performance.now() - started), ...counter.take() };
    return { items, bulk: bulkResult, singles: singleResult };
  } finally {
    counter.stop();
    await gateway.close();
    await dynamodb.stop();
  }
}

/** Items written through this process's DynamoDB client, and the write requests that carried them. */
function countWrites() {
  let writes = 0;
  let requests = 0;
  const client = dynamo();
  const name = 'bench-count-writes';
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as {
        TransactItems?: Record<string, unknown>[];
        RequestItems?: Record<string, unknown[]>;
      };
      switch (context.commandName) {
        case 'TransactWriteCommand':
        case 'TransactWriteItemsCommand':
          requests++;
          writes += (input.TransactItems ?? []).filter((item) => !item.ConditionCheck).length;
          break;
        case 'BatchWriteCommand':
        case 'BatchWriteItemCommand':
          requests++;
          for (const list of Object.values(input.RequestItems ?? {})) writes += list.length;
          break;
        case 'PutCommand':
        case 'UpdateCommand':
        case 'DeleteCommand':
        case 'PutItemCommand':
        case 'UpdateItemCommand':
        case 'DeleteItemCommand':
          requests++;
          writes++;
          break;
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    take() {
      const counts = { writes, requests };
      writes = 0;
      requests = 0;
      return counts;
    },
    stop() {
      client.middlewareStack.remove(name);
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchBulkUpsert(Number(process.env.BENCH_ITEMS ?? 1_000)), null, 2));
  process.exit(0);
}

export function printBulkUpsert(result: BulkUpsertResult): void {
  console.log(`\nbulkupsert of ${result.items} items vs ${result.items} single creates, through the gateway`);
  for (const [name, run] of [
    ['bulkupsert', result.bulk],
    ['single creates', result.singles],
  ] as const) {
    console.log(
      `  ${name.padEnd(15)} ${String(run.ms).padStart(9)} ms  ${run.writes} items written in ${run.requests} write requests`,
    );
  }
}
