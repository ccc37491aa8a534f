import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { freePort } from '../local/dynamodb-local';
import { spawnNode, stop, waitForLine } from './children';
import type { Verdict } from './report';
import { median, round } from './stats';
import { uploadFile } from './upload';

/**
 * The browser UI's figures (issue 16), against `npm start` itself (scripts/start.ts: DynamoDB Local,
 * s3rver, the local gateway), driven by Debian's Chromium:
 * - the records page loaded with a cold cache (a fresh browser context, logged in): bytes over the wire
 *   (compressed, as sent) and the time until its grid shows the site's records and takes input;
 * - a 100 MiB file uploaded from the record form (4 MiB chunks, MD5 in the page) against the same bytes
 *   sent by the bench's own Node client (bench/upload.ts) to the same server, in the same run.
 */

export const uiGoals = { firstLoadKb: 150, interactiveMs: 1_000, uploadRatio: 0.8 } as const;

export interface UiResult {
  readonly firstLoad: {
    readonly runs: number;
    /** Everything the page fetched: the page, its assets and the API's answers. */
    readonly totalKb: number;
    /** The page and its assets alone. */
    readonly assetsKb: number;
    readonly interactiveMs: number;
    readonly interactiveMsRuns: readonly number[];
    /** The first load after npm start, when the gateway still loads each handler module: not counted. */
    readonly serverColdMs: number;
  };
  readonly upload: {
    readonly fileMiB: number;
    readonly browserMBps: number;
    readonly nodeMBps: number;
    readonly ratio: number;
    readonly rounds: number;
  };
}

const MiB = 1024 * 1024;
const PASSWORD = 'bench browser password';
const CHROMIUM = process.env.KIROKU_CHROMIUM || '/usr/bin/chromium';

export async function benchUi(loadRuns = 5, fileMiB = 100, rounds = 2): Promise<UiResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kiroku-bench-ui-'));
  const apiKey = randomBytes(64).toString('hex');
  const port = await freePort();
  const service = spawnNode(['--import', 'tsx', 'scripts/start.ts'], {
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('KIROKU_'))),
      PORT: String(port),
      KIROKU_DATA_DIR: dataDir,
      KIROKU_ADMIN_PASSWORD: PASSWORD,
      KIROKU_ADMIN_API_KEY: apiKey,
      KIROKU_PARAM_BinaryStorage_MaxSize: String(fileMiB * 2),
    },
  });
  let browser: Browser | undefined;
  try {
    await waitForLine(service, /Kiroku is listening on/, 90_000);
    service.stdout?.resume();
    service.stderr?.resume();
    const url = `http://127.0.0.1:${port}`;
    const siteId = await seedSite(url, apiKey);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const firstLoad = await measureFirstLoad(browser, url, siteId, loadRuns);
    const upload = await measureUpload(browser, url, apiKey, siteId, fileMiB, rounds, dataDir);
    return { firstLoad, upload };
  } finally {
    await browser?.close();
    await stop(service, 10_000);
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function api(url: string, path: string, body: object): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (answer.StatusCode !== 200) throw new Error(`${path}: ${JSON.stringify(answer)}`);
  return answer;
}

/** A table with a page of records, as the records page shows it. */
async function seedSite(url: string, apiKey: string): Promise<number> {
  const site = await api(url, '/api/items/0/createsite', {
    ApiKey: apiKey,
    Title: 'Bench',
    ReferenceType: 'Issues',
  });
  const siteId = Number(site.Id);
  const Data = Array.from({ length: 40 }, (_, i) => ({
    Title: `Task ${i}`,
    ClassHash: { ClassA: `K-${i}` },
  }));
  await api(url, `/api/items/${siteId}/bulkupsert`, { ApiKey: apiKey, Keys: ['ClassA'], Data });
  return siteId;
}

/**
 * A fresh browser context (empty cache) logged in as the administrator: the login cookie from the API, and
 * the page's own note of who is logged in, as the login form leaves them.
 */
async function loggedInContext(browser: Browser, url: string): Promise<BrowserContext> {
  const response = await fetch(`${url}/users/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ LoginId: 'Administrator', Password: PASSWORD }),
  });
  const cookies = response.headers.getSetCookie().map((cookie) => {
    const [pair = ''] = cookie.split(';');
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
  });
  const context = await browser.newContext();
  await context.addCookies(cookies);
  await context.addInitScript(() =>
    localStorage.setItem('kiroku.user', JSON.stringify({ userId: 1, loginId: 'Administrator' })),
  );
  return context;
}

async function measureFirstLoad(browser: Browser, url: string, siteId: number, runs: number) {
  const times: number[] = [];
  let totalBytes = 0;
  let assetBytes = 0;
  // Run 0 warms the server (the local gateway loads each handler on its first call, as a Lambda cold
  // start would): the figure is the browser's cold cache against a warm service.
  for (let run = 0; run <= runs; run++) {
    const context = await loggedInContext(browser, url);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const urls = new Map<string, string>();
    let total = 0;
    let assets = 0;
    cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
    cdp.on('Network.loadingFinished', (event) => {
      total += event.encodedDataLength;
      const target = urls.get(event.requestId) ?? '';
      if (!target.includes('/api/')) assets += event.encodedDataLength;
    });
    const started = performance.now();
    await page.goto(`${url}/#/sites/${siteId}`);
    await page.getByRole('cell', { name: 'Task 39' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Search').focus();
    times.push(performance.now() - started);
    // Bytes still in flight when the grid showed are part of the load.
    await page.waitForLoadState('networkidle');
    totalBytes = total;
    assetBytes = assets;
    await context.close();
  }
  return {
    runs,
    totalKb: round(totalBytes / 1024, 1),
    assetsKb: round(assetBytes / 1024, 1),
    interactiveMs: round(median(times.slice(1))),
    interactiveMsRuns: times.slice(1).map((time) => round(time)),
    serverColdMs: round(times[0] ?? 0),
  };
}

async function measureUpload(
  browser: Browser,
  url: string,
  apiKey: string,
  siteId: number,
  fileMiB: number,
  rounds: number,
  dataDir: string,
) {
  const bytes = randomBytes(fileMiB * MiB);
  const fileHash = createHash('md5').update(bytes).digest('hex');
  const context = await loggedInContext(browser, url);
  const page = await context.newPage();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const browserRates: number[] = [];
  const nodeRates: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      // Playwright hands a file over 50 MB to the page by path.
      const path = join(dataDir, `upload-${round}.bin`);
      await writeFile(path, bytes);
      await page.goto(`${url}/#/sites/${siteId}/new`);
      await page.getByLabel('Title', { exact: true }).waitFor();
      let started = performance.now();
      await page.locator('input[type=file]').setInputFiles(path);
      await page.locator('.files li', { hasText: `upload-${round}.bin` }).waitFor({ timeout: 600_000 });
      browserRates.push(bytes.length / 1e6 / ((performance.now() - started) / 1000));

      started = performance.now();
      const answer = await uploadFile(
        agent,
        `${url}/api/binaries/upload?id=${siteId}`,
        apiKey,
        bytes,
        4,
        fileHash,
      );
      if (!(answer.Id > 0)) throw new Error(`Node upload ended with ${JSON.stringify(answer)}`);
      nodeRates.push(bytes.length / 1e6 / ((performance.now() - started) / 1000));
    }
  } finally {
    agent.destroy();
    await context.close();
  }
  const browserMBps = median(browserRates);
  const nodeMBps = median(nodeRates);
  return {
    fileMiB,
    browserMBps: round(browserMBps, 1),
    nodeMBps: round(nodeMBps, 1),
    ratio: round(browserMBps / nodeMBps, 2),
    rounds,
  };
}

export function printUi(result: UiResult): void {
  const { firstLoad, upload } = result;
  console.log('\nBrowser UI (issue 16), through npm start:');
  console.log(
    `  records page, cold cache: ${firstLoad.totalKb} KB over the wire (${firstLoad.assetsKb} KB page and ` +
      `assets), interactive after ${firstLoad.interactiveMs} ms (median of ${firstLoad.runs}: ` +
      `${firstLoad.interactiveMsRuns.join(', ')}; ${firstLoad.serverColdMs} ms right after npm start)`,
  );
  console.log(
    `  ${upload.fileMiB} MiB upload: browser ${upload.browserMBps} MB/s, Node client ${upload.nodeMBps} MB/s, ` +
      `ratio ${upload.ratio} (median of ${upload.rounds})`,
  );
}

export function uiVerdicts({ firstLoad, upload }: UiResult): Verdict[] {
  return [
    {
      measure: 'Records page, cold cache: bytes over the wire (KB)',
      value: `${firstLoad.totalKb}`,
      goal: `< ${uiGoals.firstLoadKb}`,
      pass: firstLoad.totalKb < uiGoals.firstLoadKb,
    },
    {
      measure: 'Records page, cold cache: until its grid shows and takes input (ms)',
      value: `${firstLoad.interactiveMs}`,
      goal: `< ${uiGoals.interactiveMs}`,
      pass: firstLoad.interactiveMs < uiGoals.interactiveMs,
    },
    {
      measure: `Upload of ${upload.fileMiB} MiB from the browser / the bench's Node client (MB/s)`,
      value: `${upload.ratio} (${upload.browserMBps} / ${upload.nodeMBps})`,
      goal: `>= ${uiGoals.uploadRatio}`,
      pass: upload.ratio >= uiGoals.uploadRatio,
    },
  ];
}
