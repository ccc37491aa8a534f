import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { noScripts } from '../lib/items/record-scripts';
import { itemReadCalls } from '../lib/scripts/calls/item-reads';
import type { ScriptCallContext } from '../lib/scripts/host-calls';
import { createSite } from '../lib/sites/sites';
import { dynamo } from '../lib/storage/clients';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { administrator } from './administrator';
import { loadRecords } from './records-view';
import { median, round } from './stats';

/**
 * Issue 27's third figure, in process (the scripts' host calls against DynamoDB Local, no sandbox, no HTTP):
 * `items.Count` and `items.Sum` over a site of `records` records in five Status values, with a Status
 * filter (one value, a fifth of the records), and for contrast with no filter and with a filter on a
 * number column. For each: the median time of `runs` calls, and the storage one call makes (its calls by
 * command, the index entries and items read, and the read capacity DynamoDB reports).
 */

export interface AggregateCase {
  readonly name: string;
  readonly runs: number;
  readonly answer: unknown;
  readonly p50Ms: number;
  readonly calls: Readonly<Record<string, number>>;
  readonly indexEntries: number;
  readonly items: number;
  readonly readCapacityUnits: number;
}

export interface ScriptAggregatesResult {
  readonly records: number;
  readonly loadS: number;
  readonly runs: number;
  readonly cases: readonly AggregateCase[];
}

const STATUS_910 = JSON.stringify({ View: { ColumnFilterHash: { Status: '["910"]' } } });
const NUM_RANGE = JSON.stringify({ View: { ColumnFilterHash: { NumA: '["0,99"]' } } });

export async function benchScriptAggregates(records = 100_000, runs = 3): Promise<ScriptAggregatesResult> {
  const dynamodb = await startDynamoDbLocal({ heapMb: 1536 });
  process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
  try {
    await ensureTables({ prefix: 'script-aggregates-' });
    await bootstrapAdministrator();
    const principal = administrator;
    const created = await createSite(principal, 0, { Title: 'Big', ReferenceType: 'Results' } as Parameters<
      typeof createSite
    >[2]);
    const siteId = Number(created.id);
    const loadStarted = performance.now();
    await loadRecords(siteId, records);
    const loadS = round((performance.now() - loadStarted) / 1000);
    const context: ScriptCallContext = {
      principal,
      site: undefined,
      condition: 'BackgroundServerScript',
      depth: 0,
      deadline: Number.POSITIVE_INFINITY,
      hold: undefined,
      nested: () => noScripts,
      where: { bench: 'script-aggregates' },
    };
    const calls = itemReadCalls(context);
    const call = (name: string, ...args: unknown[]) => {
      const answer = calls[name];
      if (!answer) throw new Error(`no host call ${name}`);
      return answer(...args);
    };
    // The contrasts read the whole site: once is enough to see it.
    const cases: [string, number, () => Promise<unknown>][] = [
      ['Count, Status = 910', runs, () => call('items.Count', siteId, STATUS_910)],
      ['Sum NumA, Status = 910', runs, () => call('items.Sum', siteId, 'NumA', STATUS_910)],
      ['Count, no filter', runs, () => call('items.Count', siteId, null)],
      ['Count, NumA 0–99', 1, () => call('items.Count', siteId, NUM_RANGE)],
      ['Sum NumA, no filter', 1, () => call('items.Sum', siteId, 'NumA', null)],
    ];
    const results: AggregateCase[] = [];
    for (const [name, count, run] of cases) {
      const counter = countStorage();
      let answer: unknown;
      const times: number[] = [];
      let storage = counter.take();
      for (let n = 0; n < count; n++) {
        const started = performance.now();
        answer = await run();
        times.push(performance.now() - started);
        storage = counter.take();
      }
      counter.stop();
      results.push({ name, runs: count, answer, p50Ms: round(median(times)), ...storage });
    }
    return { records, loadS, runs, cases: results };
  } finally {
    await dynamodb.stop();
  }
}

/** The storage calls of this process by command, what they returned, and the capacity they consumed. */
function countStorage() {
  let calls: Record<string, number> = {};
  let indexEntries = 0;
  let items = 0;
  let readCapacityUnits = 0;
  const client = dynamo();
  const name = 'bench-count-storage';
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      calls[command] = (calls[command] ?? 0) + 1;
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = (result.output ?? {}) as {
        Items?: unknown[];
        Item?: unknown;
        Responses?: Record<string, unknown[]>;
        ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
      };
      if (command === 'QueryCommand') indexEntries += output.Items?.length ?? 0;
      for (const list of Object.values(output.Responses ?? {})) items += list.length;
      if (output.Item) items += 1;
      const consumed = output.ConsumedCapacity;
      for (const entry of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
        readCapacityUnits += entry.CapacityUnits ?? 0;
      }
      return result;
    },
    { step: 'initialize', name },
  );
  return {
    take() {
      const counts = { calls, indexEntries, items, readCapacityUnits: round(readCapacityUnits, 1) };
      calls = {};
      indexEntries = 0;
      items = 0;
      readCapacityUnits = 0;
      return counts;
    },
    stop() {
      client.middlewareStack.remove(name);
    },
  };
}

export function printScriptAggregates(result: ScriptAggregatesResult): void {
  console.log(
    `\nScript aggregates (issue 27), in process against DynamoDB Local, ${result.records} records in five Status values (loaded in ${result.loadS} s), median of the runs:`,
  );
  for (const each of result.cases) {
    const calls = Object.entries(each.calls)
      .map(([name, count]) => `${count} ${name.replace('Command', '')}`)
      .join(', ');
    console.log(
      `  ${each.name.padEnd(24)} ${String(each.p50Ms).padStart(9)} ms (${each.runs})  = ${String(each.answer).padEnd(10)} ${calls}; ${each.indexEntries} index entries, ${each.items} items, ${each.readCapacityUnits} RCU`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchScriptAggregates(Number(process.env.BENCH_RECORDS ?? 100_000));
  printScriptAggregates(result);
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}
