import type { ChildProcess } from 'node:child_process';
import { Agent } from 'node:http';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import type { ItemRecord } from '../lib/items/model';
import { compileViewFor } from '../lib/items/record-get';
import { fromRecord, recordsByKeys } from '../lib/items/record-repository';
import { selectRecords } from '../lib/items/record-select';
import { containerKeys, itemKeys } from '../lib/sites/keys';
import type { Site } from '../lib/sites/model';
import { getSite } from '../lib/sites/repository';
import { queryKeys } from '../lib/sites/store';
import { batchWrite } from '../lib/storage/batch';
import { dynamo } from '../lib/storage/clients';
import { tableName } from '../lib/storage/tables';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { administrator } from './administrator';
import { benchGatewayUrl, spawnBenchGateway, stop } from './children';
import { post } from './http-post';
import type { Verdict } from './report';
import { seededRandom } from './site-data';
import { median, percentile, round } from './stats';

/**
 * A filtered first page of a large site through the local gateway (issue 11): Status = 910 and a sort
 * on UpdatedTime desc, PageSize 200, on a site of `records` records in five Status values; p50/p99 over
 * the gateway, and the storage entries and items one such request reads (the same domain call counted
 * in this process). The baseline, in the same run: reading the whole site by key and filtering and
 * sorting in memory. Then bulkupsert of 1,000 items against 1,000 single creates (time and writes).
 */

export interface RecordsViewResult {
  readonly records: number;
  readonly loadS: number;
  readonly page: { readonly requests: number; readonly p50Ms: number; readonly p99Ms: number };
  readonly pageReads: { readonly indexEntries: number; readonly items: number; readonly inProcessMs: number };
  readonly wholeSite: { readonly runs: number; readonly p50Ms: number; readonly itemsRead: number };
  readonly otherSort?: {
    readonly requests: number;
    readonly p50Ms: number;
    readonly p99Ms: number;
    readonly itemsRead: number;
  };
}

const TENANT = 1;
const PAGE_SIZE = 200;
const STATUSES = [100, 200, 300, 900, 910];
const VIEW = { ColumnFilterHash: { Status: '910' }, ColumnSorterHash: { UpdatedTime: 'desc' } };
const OTHER_VIEW = { ColumnFilterHash: { Status: '910' }, ColumnSorterHash: { NumA: 'asc' } };

export async function benchRecordsView(records = 100_000, requests = 300): Promise<RecordsViewResult> {
  const dynamodb = await startDynamoDbLocal({ heapMb: 1536 });
  let gateway: ChildProcess | undefined;
  try {
    process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
    await ensureTables({ prefix: 'records-' });
    const { apiKey } = await bootstrapAdministrator();
    if (!apiKey) throw new Error('bootstrapAdministrator created no API key');
    gateway = spawnBenchGateway();
    const url = await benchGatewayUrl(gateway);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const created = await post(agent, `${url}/api/items/0/createsite`, {
      ApiKey: apiKey,
      Title: 'Big',
      ReferenceType: 'Results',
    });
    const siteId = Number(JSON.parse(created.body).Id);

    const loadStarted = performance.now();
    await loadRecords(siteId, records);
    const loadS = (performance.now() - loadStarted) / 1000;

    const timed = async (view: object, count: number) => {
      const times: number[] = [];
      for (let n = 0; n < count; n++) {
        const started = performance.now();
        const answer = await post(agent, `${url}/api/items/${siteId}/get`, {
          ApiKey: apiKey,
          PageSize: PAGE_SIZE,
          View: view,
        });
        times.push(performance.now() - started);
        if (answer.status !== 200)
          throw new Error(`get answered ${answer.status}: ${answer.body.slice(0, 200)}`);
      }
      return { requests: count, p50Ms: round(median(times)), p99Ms: round(percentile(times, 99)) };
    };
    await timed(VIEW, 10);
    const page = await timed(VIEW, requests);

    const site = (await getSite(TENANT, siteId)) as Site;
    const principal = administrator;
    const counter = countReads();
    const inProcessStarted = performance.now();
    await selectRecords([site], compileViewFor(principal, site, VIEW), { offset: 0, pageSize: PAGE_SIZE });
    const pageReads = { ...counter.take(), inProcessMs: round(performance.now() - inProcessStarted) };

    const wholeTimes: number[] = [];
    let wholeItems = 0;
    // One run of the baseline on a large site: it reads every record (about a minute per 100,000).
    for (let run = 0; run < (records > 50_000 ? 1 : 3); run++) {
      const started = performance.now();
      counter.take();
      await wholeSiteFirstPage(site);
      wholeItems = counter.take().items;
      wholeTimes.push(performance.now() - started);
    }
    counter.take();
    const other = await timed(OTHER_VIEW, 5);
    await selectRecords([site], compileViewFor(principal, site, OTHER_VIEW), {
      offset: 0,
      pageSize: PAGE_SIZE,
    });
    const otherReads = counter.take();
    counter.stop();
    return {
      records,
      loadS: round(loadS),
      page,
      pageReads,
      wholeSite: { runs: wholeTimes.length, p50Ms: round(median(wholeTimes)), itemsRead: wholeItems },
      otherSort: { ...other, itemsRead: otherReads.items },
    };
  } finally {
    if (gateway) await stop(gateway);
    await dynamodb.stop();
  }
}

/** The baseline: every record of the site by key, then filter, sort and page in memory. */
async function wholeSiteFirstPage(site: Site): Promise<ItemRecord[]> {
  const keys = await queryKeys({
    IndexName: 'Contents',
    KeyConditionExpression: 'ContainerKey = :container',
    ExpressionAttributeValues: { ':container': containerKeys.records(site.tenantId, site.siteId) },
  });
  const all = await recordsByKeys(keys);
  return all
    .filter((record) => record.status === 910)
    .sort((a, b) => b.updatedAt - a.updatedAt || b.recordId - a.recordId)
    .slice(0, PAGE_SIZE);
}

/** Counts what DynamoDB returns to this process: index entries from queries, items from batch reads. */
function countReads() {
  let indexEntries = 0;
  let items = 0;
  const client = dynamo();
  const name = 'bench-count-reads';
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const output = (result.output ?? {}) as { Items?: unknown[]; Responses?: Record<string, unknown[]> };
      if (context.commandName === 'QueryCommand') indexEntries += output.Items?.length ?? 0;
      if (context.commandName === 'BatchGetItemCommand' || context.commandName === 'BatchGetCommand') {
        for (const list of Object.values(output.Responses ?? {})) items += list.length;
      }
      return result;
    },
    { step: 'initialize', name },
  );
  return {
    take() {
      const counts = { indexEntries, items };
      indexEntries = 0;
      items = 0;
      return counts;
    },
    stop() {
      client.middlewareStack.remove(name);
    },
  };
}

/** Records written directly, with the site's counts, as the API's writes would leave them. */
export async function loadRecords(siteId: number, count: number): Promise<void> {
  const random = seededRandom(11);
  const base = Date.parse('2025-01-01T00:00:00Z');
  const firstId = 10_000_000;
  const counts = new Map<number, number>();
  const items: Record<string, unknown>[] = [];
  for (let n = 0; n < count; n++) {
    const status = STATUSES[Math.floor(random() * STATUSES.length)] as number;
    counts.set(status, (counts.get(status) ?? 0) + 1);
    const time = base + Math.floor(random() * 300 * 86_400_000);
    items.push(
      fromRecord({
        recordId: firstId + n,
        tenantId: TENANT,
        siteId,
        title: `Record ${n}`,
        body: 'A record of the benchmark, with a little text in its body.',
        status,
        fields: {
          Class: { ClassA: `c${n % 50}` },
          Num: { NumA: n % 1000 },
          Date: {},
          Description: {},
          Check: {},
          Attachments: {},
        },
        locked: false,
        creator: 1,
        updator: 1,
        createdAt: time,
        updatedAt: time,
        ver: 1,
        version: 1,
      }),
    );
  }
  items.push({ ...itemKeys.recordCount(TENANT, siteId), Count: count });
  for (const [status, n] of counts) items.push({ ...itemKeys.statusCount(TENANT, siteId, status), Count: n });
  await batchWriteAll(items);
}

/** Writes whole items to the Items table with the project's own batch writer (lib/storage/batch.ts). */
export function batchWriteAll(items: readonly Record<string, unknown>[]): Promise<void> {
  return batchWrite(
    tableName('items'),
    items.map((Item) => ({ PutRequest: { Item } })),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const size = Number(process.env.BENCH_RECORDS ?? 100_000);
  const result = await benchRecordsView(size);
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}

/** Issue 15, goal 5: at least 10× the whole-site read, and reads in proportion to the page, not the site. */
const SPEEDUP_GOAL = 10;
const READS_PER_ROW_GOAL = 2;

export function recordsViewVerdicts(result: RecordsViewResult): Verdict[] {
  const { page, pageReads, wholeSite } = result;
  const speedup = wholeSite.p50Ms / page.p50Ms;
  const largest = Math.max(pageReads.indexEntries, pageReads.items);
  return [
    {
      measure: `Filtered first page of ${result.records} records through the gateway vs the whole site read (p50)`,
      value: `${speedup.toFixed(0)}× (${page.p50Ms} ms vs ${wholeSite.p50Ms} ms)`,
      goal: `>= ${SPEEDUP_GOAL}×`,
      pass: speedup >= SPEEDUP_GOAL,
    },
    {
      measure: `Storage entries read for that page of ${PAGE_SIZE} (index entries, items)`,
      value: `${pageReads.indexEntries}, ${pageReads.items} (the site: ${result.records})`,
      goal: `<= ${READS_PER_ROW_GOAL * PAGE_SIZE} each`,
      pass: largest <= READS_PER_ROW_GOAL * PAGE_SIZE,
    },
  ];
}

export function printRecordsView(result: RecordsViewResult): void {
  const { page, pageReads, wholeSite, otherSort } = result;
  console.log(
    `\nA filtered first page (Status 910, UpdatedTime desc, ${PAGE_SIZE} rows) of a site of ${result.records} records`,
  );
  console.log(
    `  through the gateway: p50 ${page.p50Ms} ms, p99 ${page.p99Ms} ms over ${page.requests} requests`,
  );
  console.log(
    `  storage read per request: ${pageReads.indexEntries} index entries, ${pageReads.items} items`,
  );
  console.log(
    `  baseline, the whole site read and filtered in memory: p50 ${wholeSite.p50Ms} ms, ${wholeSite.itemsRead} items`,
  );
  if (otherSort) {
    console.log(
      `  Status 910 sorted by NumA (no index serves it): p50 ${otherSort.p50Ms} ms, ${otherSort.itemsRead} items read`,
    );
  }
}
