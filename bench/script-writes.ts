import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import { recordCount } from '../lib/items/record-repository';
import { createRecord } from '../lib/items/records';
import { recordScripts } from '../lib/scripts/record-hooks';
import { getSite } from '../lib/sites/repository';
import { createSite, updateSite } from '../lib/sites/sites';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { administrator } from './administrator';
import { median, round, type Timing, timed, timing } from './stats';

/**
 * Issue 27's write figures, in process (the domain functions against DynamoDB Local, no HTTP): (a) a
 * record create whose AfterCreate script makes one `items.Create`, against the same create on a table
 * without scripts (a direct API create's own time) and on one whose script writes nothing (what the run
 * itself costs), interleaved so that the machine's load falls on all alike; (b) a chain of 10 nested
 * scripts, each creating one record in the next table: its total time, and whether it fits the default
 * ServerScriptTimeOut (each level waits for a script worker of its own).
 */

export interface ScriptWritesResult {
  readonly creates: number;
  readonly plain: Timing;
  readonly emptyScript: Timing;
  readonly writingScript: Timing;
  /** The writing script's p50 over the plain create's. */
  readonly addedP50Ms: number;
  /** Over the empty script's: the items.Create itself, its nested create and host call. */
  readonly writeP50Ms: number;
  readonly chainRuns: readonly number[];
  readonly chainP50Ms: number;
  /** Records the chains made, against the 11 per chain they must. */
  readonly chainRecords: number;
  readonly chainRecordsExpected: number;
}

const event = { rawQueryString: '', requestContext: { http: { method: 'POST' } } };
const principal = administrator;

const table = async (title: string, ServerScripts: object[] = []) =>
  Number(
    (
      await createSite(principal, 0, {
        Title: title,
        ReferenceType: 'Results',
        SiteSettings: { ServerScripts },
      } as Parameters<typeof createSite>[2])
    ).id,
  );

/** A create through the API's path, with the site's scripts as the handler runs them. */
const create = (siteId: number, n: number) => () =>
  createRecord(
    principal,
    siteId,
    { Title: `r ${n}` },
    recordScripts({ principal, event, action: 'create', id: siteId }),
  );

export async function benchScriptWrites(creates = 200, chains = 5): Promise<ScriptWritesResult> {
  const dynamodb = await startDynamoDbLocal({ heapMb: 512 });
  process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
  try {
    await ensureTables({ prefix: 'script-writes-' });
    await bootstrapAdministrator();
    const target = await table('target');
    const plain = await table('plain');
    const empty = await table('empty', [{ Body: 'const unused = model.Title;', AfterCreate: true }]);
    const writing = await table('writing', [
      { Body: `items.Create(${target}, JSON.stringify({ Title: model.Title }));`, AfterCreate: true },
    ]);

    // (a) Warm the three paths (and the script workers), then interleave.
    for (let n = 0; n < 20; n++) for (const site of [plain, empty, writing]) await create(site, n)();
    const times = { plain: [] as number[], empty: [] as number[], writing: [] as number[] };
    for (let n = 0; n < creates; n++) {
      times.plain.push(await timed(create(plain, n)));
      times.empty.push(await timed(create(empty, n)));
      times.writing.push(await timed(create(writing, n)));
    }

    // (b) Eleven tables in a ring; each one's AfterCreate creates in the next: depths 0–9 run a script.
    const ring: number[] = [];
    for (let index = 0; index < 11; index++) ring.push(await table(`ring ${index}`));
    for (const [index, siteId] of ring.entries()) {
      const next = ring[(index + 1) % ring.length];
      await updateSite(principal, siteId, {
        SiteSettings: {
          ServerScripts: [
            { Body: `items.Create(${next}, JSON.stringify({ Title: 'chained' }));`, AfterCreate: true },
          ],
        },
      } as unknown as Parameters<typeof updateSite>[2]);
    }
    const chainRuns: number[] = [];
    for (let run = 0; run < chains; run++)
      chainRuns.push(round(await timed(create(ring[0] as number, run)), 1));
    let chainRecords = 0;
    for (const siteId of ring) {
      const site = await getSite(principal.tenantId, siteId);
      if (site) chainRecords += await recordCount(site);
    }

    const result = {
      plain: timing(times.plain),
      emptyScript: timing(times.empty),
      writingScript: timing(times.writing),
    };
    return {
      creates,
      ...result,
      addedP50Ms: round(result.writingScript.p50Ms - result.plain.p50Ms, 2),
      writeP50Ms: round(result.writingScript.p50Ms - result.emptyScript.p50Ms, 2),
      chainRuns,
      chainP50Ms: round(median(chainRuns), 1),
      chainRecords,
      chainRecordsExpected: 11 * chains,
    };
  } finally {
    await dynamodb.stop();
  }
}

export function printScriptWrites(result: ScriptWritesResult): void {
  console.log('\nServer script writes (issue 27), in process against DynamoDB Local:');
  const line = (name: string, value: Timing) =>
    `  ${name.padEnd(34)} p50 ${value.p50Ms} ms  p90 ${value.p90Ms} ms`;
  console.log(`${line('create, no script (the API create)', result.plain)}  (${result.creates} each)`);
  console.log(line('create, AfterCreate writing nothing', result.emptyScript));
  console.log(line('create, AfterCreate items.Create', result.writingScript));
  console.log(
    `  added by the script's items.Create  p50 ${result.addedP50Ms} ms over the plain create (${round(result.addedP50Ms / result.plain.p50Ms, 2)}×), of which the write ${result.writeP50Ms} ms`,
  );
  console.log(
    `  chain of 10 nested scripts         p50 ${result.chainP50Ms} ms  runs ${result.chainRuns.join(', ')} ms; records ${result.chainRecords} of ${result.chainRecordsExpected}`,
  );
}
