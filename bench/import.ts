import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { streamSubscriptions } from '../lib/streams';
import { getTask } from '../lib/tasks/repository';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { startStreamPoller } from '../local/stream-poller';
import { pollerSubscriptions } from '../local/stream-subscriptions';
import { benchGatewayUrl, drain, spawnBenchGateway, spawnNode, stop, waitForLine } from './children';
import { post } from './http-post';
import type { Verdict } from './report';
import { percentile, round } from './stats';

/**
 * Background import (issue 25): a CSV of `rows` rows × 20 columns written to disk, uploaded in 4 MiB
 * chunks through /api/binaries/upload on the bench gateway (a child process), and imported by
 * BackgroundTasks/{siteId}/Import. The worker and the Items stream's consumers (search index, record
 * files, site names) run in this process, fed by the stream poller as `npm start` feeds them; its resident
 * set is sampled while the task runs. Meanwhile a record get through the gateway is timed, against the
 * same gets before the import. Against the reference's ~143 rows/s (Implem.Pleasanter#591: 60,000 rows in
 * about 7 minutes).
 */

const REFERENCE_ROWS_PER_S = 143;
const CHUNK = 4 * 1024 * 1024;
const GETS_BEFORE = 200;

export interface ImportRun {
  readonly rows: number;
  readonly fileMb: number;
  readonly uploadS: number;
  readonly importS: number;
  readonly rowsPerS: number;
  readonly speedup: number;
  readonly rssBeforeMb: number;
  readonly peakRssMb: number;
  readonly getP50Ms: number;
  readonly getP99Ms: number;
  readonly gets: number;
}

export interface ImportBenchResult {
  readonly baselineGetP50Ms: number;
  readonly baselineGetP99Ms: number;
  readonly runs: readonly ImportRun[];
}

const STATUS = ['未着手', '実施中', '完了', '保留'];

/** Row `n` of the bench CSV: Title, Status, ClassA–H, NumA–E, DateA–C, CheckA, DescriptionA. */
function row(n: number): string {
  const cells = [
    `Record ${n}`,
    STATUS[n % 4] as string,
    ...Array.from({ length: 8 }, (_, i) => `class ${i}-${n % 97}`),
    ...Array.from({ length: 5 }, (_, i) => String((n * (i + 3)) % 100_000)),
    ...Array.from({ length: 3 }, (_, i) => `2026/${1 + ((n + i) % 12)}/${1 + (n % 28)}`),
    n % 2 === 0 ? '1' : '',
    `Description of record ${n}, with a "quote" and a comma`,
  ];
  return `${cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',')}\n`;
}

const HEADER = [
  'タイトル',
  '状況',
  ...'ABCDEFGH'.split('').map((l) => `分類${l}`),
  ...'ABCDE'.split('').map((l) => `数値${l}`),
  ...'ABC'.split('').map((l) => `日付${l}`),
  'チェックA',
  '説明A',
];

async function writeCsv(path: string, rows: number): Promise<number> {
  const out = createWriteStream(path);
  out.write(`${HEADER.map((h) => `"${h}"`).join(',')}\n`);
  for (let n = 1; n <= rows; n++) {
    if (!out.write(row(n))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return (await stat(path)).size;
}

/** Uploads the file in 4 MiB chunks (Content-Range in the file part); its GUID. */
async function upload(
  url: string,
  apiKey: string,
  path: string,
  size: number,
  siteId: number,
): Promise<string> {
  let guid = '';
  let from = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK })) {
    const bytes = chunk as Buffer;
    const boundary = `----bench${from}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="records.csv"\r\n` +
        `Content-Type: text/csv\r\nContent-Range: bytes ${from}-${from + bytes.length - 1}/${size}\r\n\r\n`,
    );
    const body = Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const response = await fetch(`${url}/api/binaries/upload?id=${siteId}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
    });
    const answer = (await response.json()) as { StatusCode: number; Message: string };
    if (answer.StatusCode !== 200) throw new Error(`upload at ${from}: ${JSON.stringify(answer)}`);
    guid = answer.Message;
    from += bytes.length;
  }
  return guid;
}

export async function benchImport(sizes: readonly number[] = [10_000, 100_000]): Promise<ImportBenchResult> {
  const dynamodb = await startDynamoDbLocal({ heapMb: 4096 });
  const dir = await mkdtemp(join(tmpdir(), 'kiroku-bench-import-'));
  let s3Server: ChildProcess | undefined;
  let gateway: ChildProcess | undefined;
  let poller: Awaited<ReturnType<typeof startStreamPoller>> | undefined;
  try {
    process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
    process.env.KIROKU_BUCKET = 'kiroku-bench';
    const tables = await ensureTables({ prefix: 'import-' });
    const { apiKey } = await bootstrapAdministrator();
    if (!apiKey) throw new Error('bootstrapAdministrator created no API key');
    s3Server = spawnNode(['--import', 'tsx', 'bench/s3-serve.ts'], {
      env: { ...process.env, BENCH_S3_DIR: join(dir, 's3') },
    });
    const [, s3Endpoint] = await waitForLine(s3Server, /bench s3 listening on (\S+)/, 30_000);
    drain(s3Server);
    process.env.KIROKU_S3_ENDPOINT = s3Endpoint;
    gateway = spawnBenchGateway({ KIROKU_PARAM_BinaryStorage_MaxSize: '200' });
    const url = await benchGatewayUrl(gateway);
    poller = await startStreamPoller({
      subscriptions: pollerSubscriptions(
        streamSubscriptions.filter((s) => s.handler !== 'binary-objects'),
        tables,
      ),
      startingPosition: 'LATEST',
      pollIntervalMs: 100,
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = async (path: string, body: object) => {
      const answer = await post(agent, `${url}${path}`, { ApiKey: apiKey, ...body });
      const parsed = JSON.parse(answer.body) as Record<string, unknown>;
      if (parsed.StatusCode !== 200) throw new Error(`${path} answered ${answer.body}`);
      return parsed;
    };
    const probeSite = Number(
      (await call('/api/items/0/createsite', { Title: 'Probe', ReferenceType: 'Results' })).Id,
    );
    const probe = Number((await call(`/api/items/${probeSite}/create`, { Title: 'probe' })).Id);
    const timedGet = async () => {
      const started = performance.now();
      await call(`/api/items/${probe}/get`, {});
      return performance.now() - started;
    };
    const baseline: number[] = [];
    for (let n = 0; n < GETS_BEFORE + 20; n++) {
      const ms = await timedGet();
      if (n >= 20) baseline.push(ms);
    }
    console.error(`[import] record get without an import: p50 ${round(percentile(baseline, 50), 2)} ms`);

    const runs: ImportRun[] = [];
    for (const rows of sizes) {
      const path = join(dir, `rows-${rows}.csv`);
      const size = await writeCsv(path, rows);
      const siteId = Number(
        (await call('/api/items/0/createsite', { Title: `Import ${rows}`, ReferenceType: 'Results' })).Id,
      );
      let started = performance.now();
      const guid = await upload(url, apiKey, path, size, siteId);
      const uploadS = (performance.now() - started) / 1000;
      global.gc?.();
      const rssBeforeMb = process.memoryUsage().rss / 2 ** 20;
      let peakRss = rssBeforeMb;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage().rss / 2 ** 20);
      }, 100);
      started = performance.now();
      const taskId = String((await call(`/api/BackgroundTasks/${siteId}/Import`, { Guid: guid })).TaskId);
      const gets: number[] = [];
      let status = 'Queued';
      let lastLog = 0;
      for (;;) {
        gets.push(await timedGet());
        const task = await getTask(taskId);
        status = task?.status ?? 'gone';
        if (status === 'Completed' || status === 'Failed' || status === 'gone') break;
        if (performance.now() - lastLog > 10_000) {
          lastLog = performance.now();
          console.error(
            `[import] ${rows}: ${status} ${task?.done}/${task?.total} at ${round((lastLog - started) / 1000)} s`,
          );
        }
      }
      const importS = (performance.now() - started) / 1000;
      clearInterval(sampler);
      if (status !== 'Completed')
        throw new Error(`the import of ${rows} rows ended ${status}: ${(await getTask(taskId))?.error}`);
      const run: ImportRun = {
        rows,
        fileMb: round(size / 1e6, 1),
        uploadS: round(uploadS, 1),
        importS: round(importS, 1),
        rowsPerS: round(rows / importS),
        speedup: round(rows / importS / REFERENCE_ROWS_PER_S, 1),
        rssBeforeMb: round(rssBeforeMb),
        peakRssMb: round(peakRss),
        getP50Ms: round(percentile(gets, 50), 2),
        getP99Ms: round(percentile(gets, 99), 2),
        gets: gets.length,
      };
      console.error(`[import] ${JSON.stringify(run)}`);
      runs.push(run);
      await rm(path, { force: true });
    }
    agent.destroy();
    return {
      baselineGetP50Ms: round(percentile(baseline, 50), 2),
      baselineGetP99Ms: round(percentile(baseline, 99), 2),
      runs,
    };
  } finally {
    await poller?.stop();
    if (gateway) await stop(gateway, 5_000);
    if (s3Server) await stop(s3Server, 5_000);
    await dynamodb.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Goals: at least 6× the reference's rows/s at 100,000 rows; the worker's peak memory flat within 50 MB. */
export function importVerdicts(result: ImportBenchResult): Verdict[] {
  const largest = result.runs.at(-1);
  const smallest = result.runs[0];
  if (!largest || !smallest) return [];
  return [
    {
      measure: `Background import of ${largest.rows} rows × 20 columns (rows/s; × the reference's ${REFERENCE_ROWS_PER_S})`,
      value: `${largest.rowsPerS} rows/s in ${largest.importS} s (${largest.speedup}×)`,
      goal: `≥ ${6 * REFERENCE_ROWS_PER_S} rows/s (6×)`,
      pass: largest.speedup >= 6,
    },
    {
      measure: `Worker process peak RSS at ${smallest.rows} vs ${largest.rows} rows`,
      value: `${smallest.peakRssMb} MB vs ${largest.peakRssMb} MB`,
      goal: 'within 50 MB',
      pass: Math.abs(largest.peakRssMb - smallest.peakRssMb) <= 50,
    },
  ];
}
