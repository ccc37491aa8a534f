import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { fromRecord } from '../lib/items/record-repository';
import { itemKeys } from '../lib/sites/keys';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { benchGatewayUrl, drain, spawnBenchGateway, spawnNode, stop, waitForLine } from './children';
import { post } from './http-post';
import { batchWriteAll } from './records-view';
import type { Verdict } from './report';
import { seededRandom } from './site-data';
import { round } from './stats';

/**
 * Issue 25: a background export of a site of 10,000 and then 100,000 records × 20 columns, through the
 * local stack. The records are written straight to the table (as the API's writes leave them); the
 * export is asked for through the gateway; its worker runs in a process of its own, fresh for each
 * size, which reports its wall time and its peak resident memory (VmHWM). Goals: 100,000 rows in under
 * 30 s, and the same memory at both sizes (the file is never whole in memory).
 */

export interface ExportRun {
  readonly rows: number;
  readonly seconds: number;
  readonly steps: number;
  readonly peakMb: number;
  readonly fileMb: number;
}

const TENANT = 1;
const BUCKET = 'kiroku-bench';
const STATUSES = [100, 200, 300, 900, 910];
const COLUMNS = [
  'ResultId',
  'Title',
  'Body',
  'Status',
  'Manager',
  'Owner',
  'ClassA',
  'ClassB',
  'ClassC',
  'NumA',
  'NumB',
  'NumC',
  'DateA',
  'DateB',
  'DescriptionA',
  'CheckA',
  'CheckB',
  'Creator',
  'Updator',
  'UpdatedTime',
].map((ColumnName) => ({ ColumnName }));

export async function benchExport(sizes: readonly number[] = [10_000, 100_000]): Promise<ExportRun[]> {
  const dynamodb = await startDynamoDbLocal({ heapMb: 1536 });
  const s3Dir = await mkdtemp(join(tmpdir(), 'kiroku-bench-export-'));
  let s3Server: ChildProcess | undefined;
  let gateway: ChildProcess | undefined;
  const runs: ExportRun[] = [];
  try {
    process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
    process.env.KIROKU_BUCKET = BUCKET;
    await ensureTables({ prefix: 'export-' });
    const { apiKey } = await bootstrapAdministrator();
    if (!apiKey) throw new Error('bootstrapAdministrator created no API key');
    s3Server = spawnNode(['--import', 'tsx', 'bench/s3-serve.ts'], {
      env: { ...process.env, BENCH_S3_DIR: s3Dir },
    });
    const [, s3Endpoint] = await waitForLine(s3Server, /bench s3 listening on (\S+)/, 30_000);
    drain(s3Server);
    process.env.KIROKU_S3_ENDPOINT = s3Endpoint;
    gateway = spawnBenchGateway();
    const url = await benchGatewayUrl(gateway);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const created = await post(agent, `${url}/api/items/0/createsite`, {
      ApiKey: apiKey,
      Title: 'Export',
      ReferenceType: 'Results',
      SiteSettings: {
        Columns: [
          {
            ColumnName: 'ClassA',
            ChoicesText: Array.from({ length: 50 }, (_, n) => `c${n},Choice ${n}`).join('\n'),
          },
          { ColumnName: 'NumB', DecimalPlaces: 2 },
          { ColumnName: 'DateA', EditorFormat: 'Ymdhm' },
        ],
      },
    });
    const siteId = Number(JSON.parse(created.body).Id);
    let loaded = 0;
    for (const rows of sizes) {
      await loadRecords(siteId, loaded, rows);
      loaded = rows;
      const started = await post(agent, `${url}/api/BackgroundTasks/${siteId}/Export`, {
        ApiKey: apiKey,
        Export: { Columns: COLUMNS },
      });
      const taskId = String(JSON.parse(started.body).TaskId);
      const worker = spawnNode(['--import', 'tsx', 'bench/export-worker.ts'], {
        env: { ...process.env, BENCH_TASK_ID: taskId, POWERTOOLS_LOG_LEVEL: 'SILENT' },
      });
      const [, json] = await waitForLine(worker, /bench export worker (\{.*\})/, 600_000);
      await stop(worker);
      const figures = JSON.parse(json as string) as { steps: number; seconds: number; hwmKb: number };
      const task = await post(agent, `${url}/api/BackgroundTasks/Tasks/${taskId}/Get`, { ApiKey: apiKey });
      const response = JSON.parse(task.body).Response as { Status: string; Done: number; Guid?: string };
      if (response.Status !== 'Completed' || response.Done !== rows)
        throw new Error(`export of ${rows} rows ended ${response.Status} with ${response.Done} rows`);
      const file = await post(agent, `${url}/api/binaries/${response.Guid}/get`, { ApiKey: apiKey });
      const size = file.status === 200 ? JSON.parse(file.body).Response.Size : Number.NaN;
      runs.push({
        rows,
        seconds: round(figures.seconds),
        steps: figures.steps,
        peakMb: round(figures.hwmKb / 1024),
        fileMb: round((Number.isNaN(size) ? await objectSize(url, apiKey, response.Guid) : size) / 1e6),
      });
    }
    agent.destroy();
    return runs;
  } finally {
    if (gateway) await stop(gateway);
    if (s3Server) await stop(s3Server);
    await dynamodb.stop();
    await rm(s3Dir, { recursive: true, force: true });
  }
}

/** A file over /get's 4 MB: its size from the download's redirect target. */
async function objectSize(url: string, apiKey: string, guid: string | undefined): Promise<number> {
  const response = await fetch(`${url}/binaries/${guid}/download`, {
    headers: { authorization: `Bearer ${apiKey}` },
    redirect: 'manual',
  });
  const head = await fetch(response.headers.get('location') ?? '', { method: 'HEAD' });
  return Number(head.headers.get('content-length'));
}

/** Records `from` to `to` - 1 written directly, 20 columns filled, with the site's counts. */
async function loadRecords(siteId: number, from: number, to: number): Promise<void> {
  const random = seededRandom(25 + from);
  const base = Date.parse('2025-01-01T00:00:00Z');
  const firstId = 10_000_000;
  const counts = new Map<number, number>();
  const items: Record<string, unknown>[] = [];
  for (let n = from; n < to; n++) {
    const status = STATUSES[Math.floor(random() * STATUSES.length)] as number;
    counts.set(status, (counts.get(status) ?? 0) + 1);
    const time = base + Math.floor(random() * 300 * 86_400_000);
    items.push(
      fromRecord({
        recordId: firstId + n,
        tenantId: TENANT,
        siteId,
        title: `Record ${n}`,
        body: `A record of the export benchmark, number ${n}, with a little text in its body.`,
        status,
        fields: {
          Class: { ClassA: `c${n % 50}`, ClassB: `code-${n % 997}`, ClassC: `free text ${n}` },
          Num: { NumA: n % 1000, NumB: (n * 7.31) % 10_000, NumC: -n },
          Date: {
            DateA: new Date(time + 3_600_000).toISOString(),
            DateB: new Date(time + 86_400_000 * 3).toISOString(),
          },
          Description: { DescriptionA: `Line one of ${n}\nline two, with "quotes"` },
          Check: { CheckA: n % 2 === 0, CheckB: n % 3 === 0 },
          Attachments: {},
        },
        manager: 1,
        owner: 1,
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
  // The counts as they stand after these records: the earlier ones' are added.
  items.push({ ...itemKeys.recordCount(TENANT, siteId), Count: to });
  const before = from === 0 ? new Map<number, number>() : await statusCounts(siteId);
  for (const [status, n] of counts)
    items.push({ ...itemKeys.statusCount(TENANT, siteId, status), Count: n + (before.get(status) ?? 0) });
  await batchWriteAll(items);
}

async function statusCounts(siteId: number): Promise<Map<number, number>> {
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { dynamo } = await import('../lib/storage/clients');
  const { tableName } = await import('../lib/storage/tables');
  const counts = new Map<number, number>();
  for (const status of STATUSES) {
    const result = await dynamo().send(
      new GetCommand({ TableName: tableName('items'), Key: itemKeys.statusCount(TENANT, siteId, status) }),
    );
    counts.set(status, Number(result.Item?.Count ?? 0));
  }
  return counts;
}

const SECONDS_GOAL = 30;
const FLAT_MB = 50;

export function exportVerdicts(runs: readonly ExportRun[]): Verdict[] {
  const largest = runs.at(-1);
  const smallest = runs[0];
  if (!largest || !smallest) return [];
  return [
    {
      measure: `background export of ${largest.rows} rows × 20 columns, wall time`,
      value: `${largest.seconds} s`,
      goal: `< ${SECONDS_GOAL} s`,
      pass: largest.seconds < SECONDS_GOAL,
    },
    {
      measure: `export worker's peak memory at ${smallest.rows} → ${largest.rows} rows`,
      value: `${smallest.peakMb} MB → ${largest.peakMb} MB`,
      goal: `flat (within ${FLAT_MB} MB)`,
      pass: largest.peakMb - smallest.peakMb <= FLAT_MB,
    },
  ];
}

export function printExport(runs: readonly ExportRun[]): void {
  console.table(runs);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = await benchExport();
  console.log(JSON.stringify(runs, null, 2));
  process.exit(0);
}
