import { createServer, Agent as HttpAgent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { loadSettings, useSettings } from '../lib/config/settings';
import { type HttpNotice, NotificationType } from '../lib/notifications/model';
import { enqueueNotices } from '../lib/notifications/queue';
import { schedules } from '../lib/schedules';
import { onLocalWrites } from '../lib/storage/local-writes';
import { streamSubscriptions } from '../lib/streams';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { startGateway } from '../local/gateway';
import { type Scheduler, startScheduler } from '../local/scheduler';
import { startStreamPoller } from '../local/stream-poller';
import { pollerSubscriptions } from '../local/stream-subscriptions';
import { post } from './http-post';
import type { Verdict } from './report';
import { percentile, round } from './stats';

/**
 * Issue 26's figures, through the local stack in this process (the gateway, the stream poller with every
 * stream handler, DynamoDB Local) and a local HTTP receiver: (a) from a record update's answer to the
 * receiver's request, over 200 updates one after another; (b) 1,000 updates in a burst to a site with one
 * HttpClient notification: how many arrive, when the last does, how many came twice (one DeliveryId
 * seen again); (c) a record update's p50 and p99 on a site whose notification's receiver hangs, against a
 * site without one, interleaved in the same run.
 *
 * The notices come from the Items stream's notification rules (site settings with an HttpClient
 * notification, updates through the API). Where the rules are not there (the site settings refuse
 * Notifications, or no request arrives), the bench says so and queues each update's notice itself with
 * enqueueNotices right after the update's answer: then (a) and (b) measure the delivery part alone.
 */

export interface NotificationsResult {
  /** 'rules': the Items stream queued the notices; 'enqueued': the bench did, after each answer. */
  readonly mode: 'rules' | 'enqueued';
  readonly latency: { readonly updates: number; readonly p50Ms: number; readonly p99Ms: number };
  readonly burst: {
    readonly updates: number;
    readonly delivered: number;
    readonly repeated: number;
    readonly lastAfterMs: number;
  };
  readonly hanging: {
    readonly updates: number;
    readonly withHangingP50Ms: number;
    readonly withHangingP99Ms: number;
    readonly withoutP50Ms: number;
    readonly withoutP99Ms: number;
  };
}

const LATENCY_UPDATES = 200;
const BURST_UPDATES = 1_000;
const BURST_CONCURRENCY = 16;
const HANGING_UPDATES = 100;

interface Arrival {
  readonly path: string;
  readonly deliveryId: string;
  readonly at: number;
}

export async function benchNotifications(): Promise<NotificationsResult> {
  const dynamodb = await startDynamoDbLocal({ heapMb: 1024 });
  const arrivals: Arrival[] = [];
  const waiters: (() => void)[] = [];
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrivals.push({
        path: request.url ?? '/',
        deliveryId: String(request.headers['x-kiroku-delivery']),
        at: performance.now(),
      });
      for (const wake of waiters.splice(0)) wake();
      // The hanging receiver never answers.
      if (request.url !== '/hang') response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  let poller: Awaited<ReturnType<typeof startStreamPoller>> | undefined;
  let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
  let scheduler: Scheduler | undefined;
  try {
    process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
    process.env.KIROKU_BUCKET = 'kiroku-bench';
    process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
    useSettings(loadSettings({ ...process.env, KIROKU_PARAM_Notification_AllowedHosts: '["127.0.0.1"]' }));
    const tables = await ensureTables({ prefix: 'notify-' });
    const { apiKey } = await bootstrapAdministrator();
    if (!apiKey) throw new Error('bootstrapAdministrator created no API key');
    poller = await startStreamPoller({
      subscriptions: pollerSubscriptions(streamSubscriptions, tables),
      startingPosition: 'TRIM_HORIZON',
      wakeOn: onLocalWrites,
    });
    // The retries' clock, as npm start runs it: a delivery that timed out under the burst is tried again.
    scheduler = startScheduler(schedules);
    gateway = await startGateway({ port: 0, basePath: '' });
    const api = gateway.url;
    const agent = new HttpAgent({ keepAlive: true, maxSockets: BURST_CONCURRENCY });
    const call = async (path: string, body: object) => {
      const answer = await post(agent, `${api}${path}`, { ApiKey: apiKey, ...body });
      const parsed = JSON.parse(answer.body) as Record<string, unknown>;
      return parsed;
    };
    const notified = (path: string) => ({
      Notifications: [
        {
          Id: 1,
          Type: NotificationType.HttpClient,
          Address: `${receiverUrl}${path}`,
          MethodType: 2,
          MediaType: 'application/json',
          Encoding: 'utf-8',
          AfterCreate: false,
          AfterUpdate: true,
          AfterDelete: false,
          MonitorChangesColumns: ['Title', 'NumA'],
        },
      ],
    });
    const site = async (title: string, settings?: object) =>
      call('/api/items/0/createsite', {
        Title: title,
        ReferenceType: 'Results',
        ...(settings && { SiteSettings: settings }),
      });
    let mode: NotificationsResult['mode'] = 'rules';
    let notifiedSite = await site('Notified', notified('/hook'));
    if (notifiedSite.StatusCode !== 200) {
      mode = 'enqueued';
      notifiedSite = await site('Notified');
    }
    const siteId = Number(notifiedSite.Id);
    const record = Number((await call(`/api/items/${siteId}/create`, { Title: 'r0' })).Id);
    let updates = 0;
    /** One update through the API; in 'enqueued' mode, its notice queued right after the answer. */
    const update = async (target: number, targetSite: number, path: string) => {
      const started = performance.now();
      const n = ++updates;
      const answer = await call(`/api/items/${target}/update`, { Title: `u${n}`, NumA: n });
      const answeredAt = performance.now();
      if (answer.StatusCode !== 200) throw new Error(`update: ${JSON.stringify(answer)}`);
      if (mode === 'enqueued' && path !== '') {
        await enqueueNotices(
          {
            tenantId: 1,
            siteId: targetSite,
            recordId: target,
            notificationId: 1,
            event: 'Updated',
            source: `bench-${n}`,
            at: Date.now(),
          },
          [httpNotice(`${receiverUrl}${path}`, n)],
        );
      }
      return { started, answeredAt };
    };
    const arrivalAfter = (path: string, count: number, timeoutMs: number) =>
      new Promise<Arrival | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), timeoutMs);
        const check = () => {
          const seen = arrivals.filter((arrival) => arrival.path === path);
          if (seen.length >= count) {
            clearTimeout(timer);
            resolve(seen[count - 1]);
          } else waiters.push(check);
        };
        check();
      });

    // Whether the rules queue notices at all: the first update's request, within 10 s.
    if (mode === 'rules') {
      await update(record, siteId, '/hook');
      if (!(await arrivalAfter('/hook', 1, 10_000))) mode = 'enqueued';
    }
    if (mode === 'enqueued')
      console.error('[bench] notifications: no notification rules; the bench queues the notices');

    // (a) latency, one update at a time.
    console.error(`[bench] notifications: ${LATENCY_UPDATES} updates, one at a time…`);
    const latencies: number[] = [];
    for (let index = 0; index < LATENCY_UPDATES; index++) {
      const before = arrivals.filter((arrival) => arrival.path === '/hook').length;
      const { answeredAt } = await update(record, siteId, '/hook');
      const arrival = await arrivalAfter('/hook', before + 1, 30_000);
      if (!arrival) throw new Error(`update ${index} was not delivered within 30 s`);
      latencies.push(Math.max(0, arrival.at - answeredAt));
    }

    // (b) a burst over 50 records.
    console.error(`[bench] notifications: ${BURST_UPDATES} updates in a burst…`);
    // A site of its own, whose notification posts to /burst (the rules send where the site says).
    const burstSite = mode === 'rules' ? Number((await site('Burst', notified('/burst'))).Id) : siteId;
    const burstRecords = await Promise.all(
      Array.from({ length: 50 }, async (_, n) =>
        Number((await call(`/api/items/${burstSite}/create`, { Title: `b${n}` })).Id),
      ),
    );
    const burstFrom = arrivals.length;
    const burstStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: BURST_CONCURRENCY }, async () => {
        while (next < BURST_UPDATES) {
          const index = next++;
          await update(burstRecords[index % burstRecords.length] as number, burstSite, '/burst');
        }
      }),
    );
    await arrivalAfter('/burst', BURST_UPDATES, 300_000);
    // Repeats come after the first arrivals: a little longer.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const burst = arrivals.slice(burstFrom).filter((arrival) => arrival.path === '/burst');
    const distinct = new Set(burst.map((arrival) => arrival.deliveryId));
    const lastAt = Math.max(...burst.map((arrival) => arrival.at));

    // (c) updates with a hanging receiver against none, interleaved.
    console.error(`[bench] notifications: ${HANGING_UPDATES} updates with a hanging receiver and without…`);
    let hangingSite = await site('Hanging', notified('/hang'));
    if (hangingSite.StatusCode !== 200) hangingSite = await site('Hanging');
    const quietSite = await site('Quiet');
    const hangingRecord = Number((await call(`/api/items/${hangingSite.Id}/create`, { Title: 'h' })).Id);
    const quietRecord = Number((await call(`/api/items/${quietSite.Id}/create`, { Title: 'q' })).Id);
    const withHanging: number[] = [];
    const without: number[] = [];
    for (let index = 0; index < HANGING_UPDATES; index++) {
      const hung = await update(hangingRecord, Number(hangingSite.Id), '/hang');
      withHanging.push(hung.answeredAt - hung.started);
      const quiet = await update(quietRecord, Number(quietSite.Id), '');
      without.push(quiet.answeredAt - quiet.started);
    }
    agent.destroy();
    return {
      mode,
      latency: {
        updates: LATENCY_UPDATES,
        p50Ms: round(percentile(latencies, 50)),
        p99Ms: round(percentile(latencies, 99)),
      },
      burst: {
        updates: BURST_UPDATES,
        delivered: distinct.size,
        repeated: burst.length - distinct.size,
        lastAfterMs: round(lastAt - burstStarted),
      },
      hanging: {
        updates: HANGING_UPDATES,
        withHangingP50Ms: round(percentile(withHanging, 50)),
        withHangingP99Ms: round(percentile(withHanging, 99)),
        withoutP50Ms: round(percentile(without, 50)),
        withoutP99Ms: round(percentile(without, 99)),
      },
    };
  } finally {
    receiver.closeAllConnections();
    receiver.close();
    scheduler?.stop();
    await gateway?.close();
    await poller?.stop();
    useSettings(undefined);
    await dynamodb.stop();
  }
}

function httpNotice(url: string, n: number): HttpNotice {
  return {
    kind: 'http',
    type: NotificationType.HttpClient,
    url,
    method: 'POST',
    headers: {},
    body: JSON.stringify({ text: `update ${n}` }),
    contentType: 'application/json; charset=utf-8',
    signed: true,
  };
}

const LATENCY_P50_GOAL_MS = 1_000;

export function notificationsVerdicts(result: NotificationsResult): Verdict[] {
  const { latency, burst, hanging } = result;
  const source = result.mode === 'rules' ? '' : ' (notices queued by the bench)';
  return [
    {
      measure: `update answered → receiver's request, p50 / p99 over ${latency.updates}${source}`,
      value: `${latency.p50Ms} / ${latency.p99Ms} ms`,
      goal: `p50 < ${LATENCY_P50_GOAL_MS} ms`,
      pass: latency.p50Ms < LATENCY_P50_GOAL_MS,
    },
    {
      measure: `${burst.updates} updates in a burst: delivered, repeated, last after${source}`,
      value: `${burst.delivered}, ${burst.repeated}, ${round(burst.lastAfterMs / 1000)} s`,
      goal: `all ${burst.updates} delivered`,
      pass: burst.delivered === burst.updates,
    },
    {
      measure: 'update p50 / p99 with a hanging receiver, against none',
      value: `${hanging.withHangingP50Ms} / ${hanging.withHangingP99Ms} ms vs ${hanging.withoutP50Ms} / ${hanging.withoutP99Ms} ms`,
      goal: 'the same within noise',
      pass: hanging.withHangingP50Ms <= hanging.withoutP50Ms * 1.5 + 5,
    },
  ];
}

export function printNotifications(result: NotificationsResult): void {
  console.log(`notices: ${result.mode === 'rules' ? "the Items stream's rules" : 'queued by the bench'}`);
  console.table([
    { figure: 'latency p50 (ms)', value: result.latency.p50Ms },
    { figure: 'latency p99 (ms)', value: result.latency.p99Ms },
    { figure: 'burst delivered', value: result.burst.delivered },
    { figure: 'burst repeated', value: result.burst.repeated },
    { figure: 'burst last after (ms)', value: result.burst.lastAfterMs },
    {
      figure: 'update p50 / p99, hanging receiver (ms)',
      value: `${result.hanging.withHangingP50Ms} / ${result.hanging.withHangingP99Ms}`,
    },
    {
      figure: 'update p50 / p99, no notification (ms)',
      value: `${result.hanging.withoutP50Ms} / ${result.hanging.withoutP99Ms}`,
    },
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchNotifications();
  printNotifications(result);
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}
