import type { ChildProcess } from 'node:child_process';
import { Agent } from 'node:http';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { updateTenantIndex } from '../lib/sites/index-updater';
import { itemKeys } from '../lib/sites/keys';
import type { ReferenceType } from '../lib/sites/model';
import type { SiteEntry } from '../lib/sites/name-index';
import { fromSite } from '../lib/sites/repository';
import { batchWrite } from '../lib/storage/batch';
import { dynamo } from '../lib/storage/clients';
import { tableName } from '../lib/storage/tables';
import { streamSubscriptions } from '../lib/streams';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { startStreamPoller } from '../local/stream-poller';
import { pollerSubscriptions } from '../local/stream-subscriptions';
import { benchGatewayUrl, drain, spawnBenchGateway, spawnNode, stop, waitForLine } from './children';
import { post } from './http-post';
import { generateSites, seededRandom } from './site-data';
import { median, percentile, round } from './stats';
import { withStreamOff } from './stream-off';

/**
 * The site lookup as deployed: 100,000 sites in the Items table, the index built and stored by the stream
 * handler's code, GetClosestSiteId through the local gateway (in a child process, warm), and the time from
 * a rename through updatesite until lookups see it (stream poller → handler → new index version).
 */

export interface SiteLookupGatewayResult {
  readonly sites: number;
  readonly loadS: number;
  readonly initialIndexMs: number;
  readonly lookups: number;
  readonly gatewayP50Ms: number;
  readonly gatewayP99Ms: number;
  /**
   * The gateway's own floor, interleaved with the lookups: a POST that no route takes (the fallback
   * function's 404), so HTTP, the payload 2.0 event and the middleware stack, without authentication or
   * any storage call.
   */
  readonly floorP50Ms: number;
  readonly floorP99Ms: number;
  /** The baseline checkout's gateway (BENCH_BASELINE_ROOT) on the same tables, lookups interleaved. */
  readonly baseline?: { readonly gatewayP50Ms: number; readonly gatewayP99Ms: number };
  readonly changeToIndexMs: { readonly median: number; readonly max: number; readonly runs: number };
}

const TENANT = 1;

export async function benchSiteLookupGateway(lookups = 2_000, renames = 5): Promise<SiteLookupGatewayResult> {
  // 100,000 sites and their indexes outgrow the default 256 MB heap.
  const dynamodb = await startDynamoDbLocal({ heapMb: 1024 });
  let gateway: ChildProcess | undefined;
  let baseGateway: ChildProcess | undefined;
  let poller: Awaited<ReturnType<typeof startStreamPoller>> | undefined;
  try {
    process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
    const tables = await ensureTables({ prefix: 'lookup-' });
    const { apiKey } = await bootstrapAdministrator();
    if (!apiKey) throw new Error('bootstrapAdministrator created no API key');

    const { sites, sharedNames } = generateSites();
    const loadStarted = performance.now();
    await withStreamOff(tables.items, () => loadSites(sites));
    const loadS = (performance.now() - loadStarted) / 1000;

    // The first index of a tenant is built from its sites, as the stream handler does when none exists.
    const indexStarted = performance.now();
    await updateTenantIndex(TENANT, []);
    const initialIndexMs = performance.now() - indexStarted;

    poller = await startStreamPoller({
      subscriptions: pollerSubscriptions(streamSubscriptions, tables),
      startingPosition: 'LATEST',
      pollIntervalMs: 100,
    });
    gateway = spawnBenchGateway();
    const url = await benchGatewayUrl(gateway);
    const baseRoot = process.env.BENCH_BASELINE_ROOT;
    let baseUrl: string | undefined;
    if (baseRoot) {
      baseGateway = spawnNode(['--import', 'tsx', 'bench/serve.ts'], {
        cwd: baseRoot,
        env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT' },
      });
      baseUrl = (await waitForLine(baseGateway, /bench gateway listening on (\S+)/, 30_000))[1] as string;
      drain(baseGateway);
    }
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const random = seededRandom(7);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
    const lookup = async (origin: number, name: string, at = url as string) => {
      const answer = await post(agent, `${at}/api/items/${origin}/GetClosestSiteId`, {
        ApiKey: apiKey,
        FindSiteNames: [name],
      });
      if (answer.status !== 200)
        throw new Error(`GetClosestSiteId answered ${answer.status}: ${answer.body}`);
      return (JSON.parse(answer.body) as { Data: { SiteId: number }[] }).Data[0]?.SiteId;
    };

    for (let i = 0; i < 100; i++) await lookup(pick(sites).siteId, pick(sharedNames));
    if (baseUrl) for (let i = 0; i < 100; i++) await lookup(pick(sites).siteId, pick(sharedNames), baseUrl);
    const floor = async () => {
      const answer = await post(agent, `${url}/api/bench/no-such-route`, {});
      if (answer.status !== 404) throw new Error(`the fallback answered ${answer.status}: ${answer.body}`);
    };
    for (let i = 0; i < 100; i++) await floor();
    const latencies: number[] = [];
    const floorLatencies: number[] = [];
    const baseLatencies: number[] = [];
    for (let i = 0; i < lookups; i++) {
      const origin = pick(sites).siteId;
      const name = pick(sharedNames);
      const started = performance.now();
      await lookup(origin, name);
      latencies.push(performance.now() - started);
      const floorStarted = performance.now();
      await floor();
      floorLatencies.push(performance.now() - floorStarted);
      if (baseUrl) {
        // The same question to the baseline, right after: a slow moment weighs on both alike.
        const baseStarted = performance.now();
        await lookup(origin, name, baseUrl);
        baseLatencies.push(performance.now() - baseStarted);
      }
    }

    const delays: number[] = [];
    const named = sites.filter((site) => site.siteName);
    for (let run = 0; run < renames; run++) {
      const site = pick(named);
      const name = `renamed-${run}`;
      const started = performance.now();
      const updated = await post(agent, `${url}/api/items/${site.siteId}/updatesite`, {
        ApiKey: apiKey,
        SiteName: name,
      });
      if (updated.status !== 200) throw new Error(`updatesite answered ${updated.status}: ${updated.body}`);
      while ((await lookup(site.siteId, name)) !== site.siteId) {
        if (performance.now() - started > 30_000) throw new Error('a rename was not seen within 30 s');
      }
      delays.push(performance.now() - started);
    }
    agent.destroy();
    return {
      sites: sites.length,
      loadS: round(loadS),
      initialIndexMs: round(initialIndexMs),
      lookups,
      gatewayP50Ms: round(percentile(latencies, 50), 2),
      gatewayP99Ms: round(percentile(latencies, 99), 2),
      floorP50Ms: round(percentile(floorLatencies, 50), 2),
      floorP99Ms: round(percentile(floorLatencies, 99), 2),
      ...(baseUrl && {
        baseline: {
          gatewayP50Ms: round(percentile(baseLatencies, 50), 2),
          gatewayP99Ms: round(percentile(baseLatencies, 99), 2),
        },
      }),
      changeToIndexMs: { median: round(median(delays)), max: round(Math.max(...delays)), runs: renames },
    };
  } finally {
    await poller?.stop();
    if (gateway) await stop(gateway, 5_000);
    if (baseGateway) await stop(baseGateway, 5_000);
    await dynamodb.stop();
  }
}

/** Writes the sites as createsite stores them, 25 to a batch, several batches at once. */
async function loadSites(sites: readonly SiteEntry[]): Promise<void> {
  const time = Date.now();
  const items = sites.map((site) =>
    fromSite({
      siteId: site.siteId,
      tenantId: TENANT,
      title: `Site ${site.siteId}`,
      referenceType: site.referenceType as ReferenceType,
      siteName: site.siteName ?? undefined,
      siteGroupName: site.siteGroupName ?? undefined,
      parentId: site.parentId,
      inheritPermission: site.siteId,
      permissions: ['User,1,511'],
      siteSettings: {},
      creator: 1,
      updator: 1,
      createdAt: time,
      updatedAt: time,
      ver: 1,
    }),
  );
  await batchWrite(
    tableName('items'),
    items.map((Item) => ({ PutRequest: { Item } })),
  );
  // Later sites (the renames do not create any, but a user would) must not reuse the loaded ids.
  const highest = Math.max(...sites.map((site) => site.siteId));
  await dynamo().send(
    new PutCommand({ TableName: tableName('items'), Item: { ...itemKeys.counter(), Value: highest } }),
  );
}
