import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { readItem } from '../lib/items/record-get';
import { fromRecord } from '../lib/items/record-repository';
import { itemKeys } from '../lib/sites/keys';
import { createSite } from '../lib/sites/sites';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { administrator } from './administrator';
import { batchWriteAll } from './records-view';
import type { Verdict } from './report';
import { median, percentile, round } from './stats';

/**
 * KeyValues with display values against raw values (issue 24 part 5): one page of 200 records with a
 * choice column, a user column, a date and a link column, read in process (readItem, as the handler
 * calls it) with ApiColumnValueDisplayType DisplayValue and Value, interleaved in the same run. Display
 * values read the names behind the page's choices in batches (lib/items/choice-names.ts), so they should
 * cost little more than the raw values.
 */

export interface KeyValuesResult {
  readonly records: number;
  readonly runs: number;
  readonly display: { readonly p50Ms: number; readonly p99Ms: number };
  readonly value: { readonly p50Ms: number; readonly p99Ms: number };
}

const TENANT = 1;
const PAGE = 200;
const PARENTS = 50;
const GRID = ['ResultId', 'Title', 'Status', 'ClassA', 'Manager', 'ClassB', 'DateA', 'ClassC', 'NumA'];

export async function benchKeyValues(runs = 40): Promise<KeyValuesResult> {
  const dynamodb = await startDynamoDbLocal({ heapMb: 512 });
  try {
    process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
    await ensureTables({ prefix: 'keyvalues-' });
    await bootstrapAdministrator();
    const principal = administrator;
    const site = async (title: string, siteSettings: object) =>
      Number(
        (
          await createSite(principal, 0, {
            Title: title,
            ReferenceType: 'Results',
            SiteSettings: siteSettings,
          } as Parameters<typeof createSite>[2])
        ).id,
      );
    const parents = await site('Customers', {});
    const children = await site('Orders', {
      Columns: [
        { ColumnName: 'ClassA', ChoicesText: 'a,Apple\nb,Banana\nc,Cherry' },
        { ColumnName: 'ClassB', ChoicesText: '[[Users]]' },
        { ColumnName: 'ClassC', ChoicesText: `[[${parents}]]` },
      ],
    });
    await load(parents, children);
    const read = async (form: string) => {
      const started = performance.now();
      const reading = await readItem(principal, children, {
        PageSize: PAGE,
        View: { ApiDataType: 'KeyValues', GridColumns: GRID, ApiColumnValueDisplayType: form },
      });
      const data = (reading.response as { Data: unknown[] }).Data;
      if (data.length !== PAGE) throw new Error(`KeyValues answered ${data.length} records, not ${PAGE}`);
      return performance.now() - started;
    };
    for (let n = 0; n < 5; n++) await Promise.all([read('DisplayValue'), read('Value')]);
    const display: number[] = [];
    const value: number[] = [];
    for (let n = 0; n < runs; n++) {
      // Interleaved, so that the machine's load falls on both alike.
      display.push(await read('DisplayValue'));
      value.push(await read('Value'));
    }
    const figures = (times: number[]) => ({
      p50Ms: round(median(times)),
      p99Ms: round(percentile(times, 99)),
    });
    return { records: PAGE, runs, display: figures(display), value: figures(value) };
  } finally {
    await dynamodb.stop();
  }
}

/** Parents and a page of children written directly, with the sites' counts, as the API would leave them. */
async function load(parents: number, children: number): Promise<void> {
  const base = Date.parse('2025-01-01T00:00:00Z');
  const record = (siteId: number, recordId: number, n: number, fields: object) =>
    fromRecord({
      recordId,
      tenantId: TENANT,
      siteId,
      title: `Record ${n}`,
      status: 100,
      fields: { Class: {}, Num: {}, Date: {}, Description: {}, Check: {}, Attachments: {}, ...fields },
      manager: 1,
      locked: false,
      creator: 1,
      updator: 1,
      createdAt: base + n * 60_000,
      updatedAt: base + n * 60_000,
      ver: 1,
      version: 1,
    });
  const items: Record<string, unknown>[] = [];
  for (let n = 0; n < PARENTS; n++) items.push(record(parents, 20_000_000 + n, n, {}));
  for (let n = 0; n < PAGE; n++)
    items.push(
      record(children, 30_000_000 + n, n, {
        Class: { ClassA: 'abcx'[n % 4], ClassB: '1', ClassC: String(20_000_000 + (n % (PARENTS + 5))) },
        Num: { NumA: n * 1.5 },
        Date: { DateA: new Date(base + n * 86_400_000).toISOString() },
      }),
    );
  for (const [siteId, count] of [
    [parents, PARENTS],
    [children, PAGE],
  ] as const) {
    items.push({ ...itemKeys.recordCount(TENANT, siteId), Count: count });
    items.push({ ...itemKeys.statusCount(TENANT, siteId, 100), Count: count });
  }
  await batchWriteAll(items);
}

/** Issue 24, part 5: display values within 1.2× of raw values. */
const RATIO_GOAL = 1.2;

export function keyValuesVerdicts(result: KeyValuesResult): Verdict[] {
  const ratio = result.display.p50Ms / result.value.p50Ms;
  return [
    {
      measure: `KeyValues page of ${result.records} (choice, user, date, link): DisplayValue vs Value (p50, in process)`,
      value: `${ratio.toFixed(2)}× (${result.display.p50Ms} ms vs ${result.value.p50Ms} ms)`,
      goal: `<= ${RATIO_GOAL}×`,
      pass: ratio <= RATIO_GOAL,
    },
  ];
}

export function printKeyValues(result: KeyValuesResult): void {
  console.log(`\nKeyValues, a page of ${result.records} records, ${result.runs} runs each`);
  console.log(`  DisplayValue: p50 ${result.display.p50Ms} ms, p99 ${result.display.p99Ms} ms`);
  console.log(`  Value:        p50 ${result.value.p50Ms} ms, p99 ${result.value.p99Ms} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchKeyValues();
  printKeyValues(result);
  console.log(JSON.stringify(keyValuesVerdicts(result), null, 2));
  process.exit(0);
}
