import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { readItem } from '../lib/items/record-get';
import { createRecord, updateRecord } from '../lib/items/records';
import { createSite } from '../lib/sites/sites';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { administrator } from './administrator';
import type { Verdict } from './report';
import { round, type Timing, timed, timing } from './stats';

/**
 * Issue 28's first two figures, in process (the domain functions against DynamoDB Local, no HTTP): (a) the
 * p50 of a record update that makes a version (AutoVerUpType Always: the old record is kept as a history
 * row in the same transaction) against one that does not (Disabled), interleaved so that the machine's
 * load falls on both alike; (b) the p50 of a record get (TableType Normal) on a record with 1,000 kept
 * versions against one with none, whose goal is the same within noise: a get reads no history.
 */

export interface HistoryResult {
  readonly updates: number;
  readonly plainUpdate: Timing;
  readonly versionUpdate: Timing;
  readonly addedP50Ms: number;
  readonly versions: number;
  readonly getsEach: number;
  readonly getNoHistory: Timing;
  readonly getThousandVersions: Timing;
}

export async function benchHistory(updates = 300, versions = 1_000, gets = 300): Promise<HistoryResult> {
  const dynamodb = await startDynamoDbLocal({ heapMb: 512 });
  process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
  try {
    await ensureTables({ prefix: 'history-' });
    await bootstrapAdministrator();
    const principal = administrator;
    const site = async (title: string, AutoVerUpType: number) =>
      Number(
        (
          await createSite(principal, 0, {
            Title: title,
            ReferenceType: 'Results',
            SiteSettings: { AutoVerUpType },
          } as Parameters<typeof createSite>[2])
        ).id,
      );
    const always = await site('Always', 2);
    const disabled = await site('Disabled', 3);
    const record = async (siteId: number) =>
      Number((await createRecord(principal, siteId, { Title: 'r', ClassA: 'a', NumA: 1 })).id);
    const versioned = await record(always);
    const plain = await record(disabled);
    const write = (id: number, n: number) => () =>
      updateRecord(principal, id, { Title: `r ${n}`, ClassA: `value ${n}`, NumA: n });

    // (a) Warm both paths, then interleave.
    for (let n = 0; n < 20; n++) {
      await write(plain, n)();
      await write(versioned, n)();
    }
    const plainTimes: number[] = [];
    const versionTimes: number[] = [];
    for (let n = 0; n < updates; n++) {
      plainTimes.push(await timed(write(plain, n)));
      versionTimes.push(await timed(write(versioned, n)));
    }

    // (b) A record with `versions` kept versions, and one with none.
    const many = await record(always);
    for (let n = 0; n < versions; n++) await write(many, n)();
    const none = await record(disabled);
    const get = (id: number) => () => readItem(principal, id, {});
    for (let n = 0; n < 20; n++) {
      await get(none)();
      await get(many)();
    }
    const noneTimes: number[] = [];
    const manyTimes: number[] = [];
    for (let n = 0; n < gets; n++) {
      noneTimes.push(await timed(get(none)));
      manyTimes.push(await timed(get(many)));
    }
    const plainUpdate = timing(plainTimes);
    const versionUpdate = timing(versionTimes);
    return {
      updates,
      plainUpdate,
      versionUpdate,
      addedP50Ms: round(versionUpdate.p50Ms - plainUpdate.p50Ms, 2),
      versions,
      getsEach: gets,
      getNoHistory: timing(noneTimes),
      getThousandVersions: timing(manyTimes),
    };
  } finally {
    await dynamodb.stop();
  }
}

export function printHistory(result: HistoryResult): void {
  console.log('\nVersions and history (issue 28), in process against DynamoDB Local:');
  console.log(
    `  update, no version      p50 ${result.plainUpdate.p50Ms} ms  p90 ${result.plainUpdate.p90Ms} ms  (${result.updates})`,
  );
  console.log(
    `  update, a version kept  p50 ${result.versionUpdate.p50Ms} ms  p90 ${result.versionUpdate.p90Ms} ms  (added p50 ${result.addedP50Ms} ms)`,
  );
  console.log(
    `  get, no version kept    p50 ${result.getNoHistory.p50Ms} ms  p90 ${result.getNoHistory.p90Ms} ms  (${result.getsEach})`,
  );
  console.log(
    `  get, ${result.versions} versions kept p50 ${result.getThousandVersions.p50Ms} ms  p90 ${result.getThousandVersions.p90Ms} ms`,
  );
}

/** The get's goal: the same within noise, taken as within 20% of the p50 or 1 ms, whichever is larger. */
export function historyVerdicts(result: HistoryResult): Verdict[] {
  const base = result.getNoHistory.p50Ms;
  const allowed = Math.max(base * 0.2, 1);
  return [
    {
      measure: `record get, ${result.versions} versions kept vs none (p50)`,
      value: `${result.getThousandVersions.p50Ms} vs ${base} ms`,
      goal: `within ${round(allowed, 2)} ms`,
      pass: Math.abs(result.getThousandVersions.p50Ms - base) <= allowed,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchHistory();
  printHistory(result);
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}
