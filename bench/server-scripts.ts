import type { ChildProcess } from 'node:child_process';
import { Agent } from 'node:http';
import { pathToFileURL } from 'node:url';
import { principalForApiKey } from '../lib/accounts/authentication';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { updateRecord } from '../lib/items/records';
import { recordScripts } from '../lib/scripts/record-hooks';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { benchGatewayUrl, spawnBenchGateway, stop } from './children';
import { post } from './http-post';
import { percentile, round } from './stats';

/**
 * Server scripts (issue 13): a record update with one trivial BeforeUpdate script against the same update
 * on a site without scripts, in process (the domain function against DynamoDB Local) and through the
 * local gateway (a warm child process), interleaved so that both see the same moments; then a runaway
 * script with a 1,000 ms TimeOut, and the next request on the same warm gateway. The bundles' sizes and
 * import times are in bench/script-bundles.ts.
 *
 * Run alone: node --import tsx bench/server-scripts.ts
 */

export const serverScriptGoals = { addedP50Ms: 3, runawayMs: 1_100 } as const;

export interface Latencies {
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface ServerScriptsResult {
  readonly updates: number;
  readonly inProcess: {
    readonly without: Latencies;
    readonly withScript: Latencies;
    readonly addedP50Ms: number;
    readonly addedP99Ms: number;
  };
  readonly gateway: {
    readonly without: Latencies;
    readonly withScript: Latencies;
    readonly addedP50Ms: number;
    readonly addedP99Ms: number;
  };
  readonly runaway: {
    readonly timeOutMs: number;
    readonly answerMs: number[];
    readonly status: number;
    readonly nextStatus: number;
    readonly nextMs: number;
  };
}

const TRIVIAL = [{ Name: 'trivial', Body: 'model.ClassA = "scripted";', BeforeUpdate: true }];
const RUNAWAY = [{ Name: 'runaway', Body: 'while (true) {}', BeforeUpdate: true, TimeOut: 1_000 }];

export async function benchServerScripts(updates = 400): Promise<ServerScriptsResult> {
  const dynamodb = await startDynamoDbLocal();
  let gateway: ChildProcess | undefined;
  try {
    process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
    await ensureTables({ prefix: 'scripts-' });
    const { apiKey } = await bootstrapAdministrator();
    if (!apiKey) throw new Error('bootstrapAdministrator created no API key');
    gateway = spawnBenchGateway();
    const url = await benchGatewayUrl(gateway);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const api = async (path: string, body: object) => {
      const answer = await post(agent, `${url}${path}`, { ApiKey: apiKey, ...body });
      const parsed = JSON.parse(answer.body) as { StatusCode: number; Id: number };
      return { status: answer.status, ...parsed };
    };
    const recordIn = async (ServerScripts: object[]) => {
      const site = await api('/api/items/0/createsite', {
        Title: 'bench',
        ReferenceType: 'Issues',
        SiteSettings: { ServerScripts },
      });
      return (await api(`/api/items/${site.Id}/create`, { Title: 'r' })).Id;
    };
    const plain = await recordIn([]);
    const scripted = await recordIn(TRIVIAL);

    // In process: the update itself, with the handler's scripts or without any.
    const principal = await principalForApiKey(apiKey);
    if (!principal) throw new Error('no principal for the bench key');
    const event = { rawQueryString: '', requestContext: { http: { method: 'POST' } } };
    const inProcess = await interleaved(updates, {
      without: () => updateRecord(principal, plain, { Title: 'u' }),
      withScript: (i) =>
        updateRecord(
          principal,
          scripted,
          { Title: `u${i}` },
          recordScripts({ principal, event, action: 'update', id: scripted }),
        ),
    });

    const gatewayRuns = await interleaved(updates, {
      without: async () => void (await api(`/api/items/${plain}/update`, { Title: 'g' })),
      withScript: async () => void (await api(`/api/items/${scripted}/update`, { Title: 'g' })),
    });

    const runawayId = await recordIn(RUNAWAY);
    const answerMs: number[] = [];
    let status = 0;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      status = (await api(`/api/items/${runawayId}/update`, { Title: 'r' })).status;
      answerMs.push(round(performance.now() - started));
    }
    const nextStarted = performance.now();
    const next = await api(`/api/items/${scripted}/update`, { Title: 'after' });
    const nextMs = round(performance.now() - nextStarted, 2);
    agent.destroy();
    return {
      updates,
      inProcess: summary(inProcess),
      gateway: summary(gatewayRuns),
      runaway: { timeOutMs: 1_000, answerMs, status, nextStatus: next.StatusCode, nextMs },
    };
  } finally {
    if (gateway) await stop(gateway, 5_000);
    await dynamodb.stop();
  }
}

type Runs = { without: number[]; withScript: number[] };

/** Warm-up, then both kinds in turn, so that a slow moment weighs on both alike. */
async function interleaved(
  count: number,
  run: { without: (i: number) => Promise<unknown>; withScript: (i: number) => Promise<unknown> },
): Promise<Runs> {
  for (let i = 0; i < 30; i++) {
    await run.without(i);
    await run.withScript(i);
  }
  const times: Runs = { without: [], withScript: [] };
  for (let i = 0; i < count; i++) {
    for (const kind of i % 2 === 0
      ? (['without', 'withScript'] as const)
      : (['withScript', 'without'] as const)) {
      const started = performance.now();
      await run[kind](i);
      times[kind].push(performance.now() - started);
    }
  }
  return times;
}

function summary(runs: Runs) {
  const of = (values: number[]) => ({
    p50Ms: round(percentile(values, 50), 2),
    p99Ms: round(percentile(values, 99), 2),
  });
  const without = of(runs.without);
  const withScript = of(runs.withScript);
  return {
    without,
    withScript,
    addedP50Ms: round(withScript.p50Ms - without.p50Ms, 2),
    addedP99Ms: round(withScript.p99Ms - without.p99Ms, 2),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await benchServerScripts(), null, 2));
  process.exit(0);
}
