import { Agent } from 'node:http';
import { bootstrapAdministrator } from '../lib/accounts/bootstrap';
import type { Principal } from '../lib/accounts/principal';
import type { ItemRecord } from '../lib/items/model';
import { checkedWrite, designedNewRecord } from '../lib/items/record-design';
import type { Site } from '../lib/sites/model';
import { ensureTables } from '../local/bootstrap';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { startGateway } from '../local/gateway';
import { post } from './http-post';
import { median, percentile, round } from './stats';

/**
 * Issue 24's write path: the p50 of a record create on a site with a table design (DefaultInput, a
 * formula, a ServerRegexValidation and a NoDuplication column) against a plain create in the same run,
 * through the local gateway in this process against DynamoDB Local; and, apart, the model work alone
 * (defaults, rounding, formula, title, checks and the uniqueness part, no storage), whose goal is under
 * 1 ms. The difference of the two creates is the model work plus the uniqueness item's transactional
 * write (storage).
 */

export interface TableDesignResult {
  readonly creates: number;
  readonly plain: { readonly p50: number; readonly p90: number };
  readonly designed: { readonly p50: number; readonly p90: number };
  readonly modelWork: { readonly p50: number; readonly p99: number; readonly runs: number };
}

const DESIGN = {
  Columns: [
    { ColumnName: 'ClassA', LabelText: 'Code', NoDuplication: true, MaxLength: 32 },
    { ColumnName: 'ClassB', DefaultInput: 'new' },
    { ColumnName: 'NumA', DefaultInput: '2' },
    { ColumnName: 'NumC', DecimalPlaces: 2 },
    { ColumnName: 'ClassC', ServerRegexValidation: '^[a-z]+-\\d+$' },
  ],
  Formulas: [
    {
      Id: 1,
      Target: 'NumC',
      Formula: { Children: [{ ColumnName: 'NumA' }, { ColumnName: 'NumB', OperatorType: 3 }] },
    },
  ],
  TitleColumns: ['ClassA', 'Title'],
};

export async function benchTableDesign(creates = 300): Promise<TableDesignResult> {
  const dynamodb = await startDynamoDbLocal({ heapMb: 512 });
  process.env.KIROKU_DYNAMODB_ENDPOINT = dynamodb.endpoint;
  await ensureTables({ prefix: 'design-' });
  const { apiKey } = await bootstrapAdministrator();
  if (!apiKey) throw new Error('bootstrapAdministrator created no API key');
  const gateway = await startGateway({ port: 0, host: '127.0.0.1', basePath: '' });
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const site = async (title: string, SiteSettings: object) => {
      const created = await post(agent, `${gateway.url}/api/items/0/createsite`, {
        ApiKey: apiKey,
        Title: title,
        ReferenceType: 'Results',
        SiteSettings,
      });
      return Number(JSON.parse(created.body).Id);
    };
    const plainSite = await site('Plain', {});
    const designedSite = await site('Designed', DESIGN);
    const create = async (siteId: number, n: number) => {
      const started = performance.now();
      const answer = await post(agent, `${gateway.url}/api/items/${siteId}/create`, {
        ApiKey: apiKey,
        Title: `Item ${n}`,
        ClassHash: { ClassA: `code-${n}`, ClassC: `lot-${n}` },
        NumHash: { NumB: round(n / 7, 4) },
      });
      if (answer.status !== 200) throw new Error(`create answered ${answer.status}: ${answer.body}`);
      return performance.now() - started;
    };
    // Warm both paths, then interleave, so that the machine's load falls on both alike.
    for (let n = 0; n < 20; n++) {
      await create(plainSite, creates + n);
      await create(designedSite, creates + n);
    }
    const plain: number[] = [];
    const designed: number[] = [];
    for (let n = 0; n < creates; n++) {
      plain.push(await create(plainSite, n));
      designed.push(await create(designedSite, n));
    }
    // Last, once DynamoDB Local has settled (its JVM competes for the CPU while it warms up); the
    // uniqueness part names the table, which is known by now.
    const modelWork = await measureModelWork();
    return {
      creates,
      plain: { p50: round(median(plain), 2), p90: round(percentile(plain, 90), 2) },
      designed: { p50: round(median(designed), 2), p90: round(percentile(designed, 90), 2) },
      modelWork,
    };
  } finally {
    await gateway.close();
    await dynamodb.stop();
  }
}

/** The design's work on one create, without storage: a site and a record built here. */
async function measureModelWork(runs = 5_000): Promise<TableDesignResult['modelWork']> {
  const principal: Principal = {
    tenantId: 1,
    userId: 1,
    loginId: 'bench',
    name: 'bench',
    tenantManager: true,
    privileged: false,
    via: 'apiKey',
  };
  const site: Site = {
    siteId: 2,
    tenantId: 1,
    title: 'Designed',
    referenceType: 'Results',
    parentId: 0,
    inheritPermission: 2,
    permissions: [],
    siteSettings: DESIGN,
    creator: 1,
    updator: 1,
    createdAt: 0,
    updatedAt: 0,
    ver: 1,
  };
  const record = (n: number): ItemRecord => ({
    recordId: 1000 + n,
    tenantId: 1,
    siteId: 2,
    title: `Item ${n}`,
    fields: {
      Class: { ClassA: `code-${n}`, ClassC: `lot-${n}` },
      Num: { NumB: n / 7 },
      Date: {},
      Description: {},
      Check: {},
      Attachments: {},
    },
    locked: false,
    creator: 1,
    updator: 1,
    createdAt: 0,
    updatedAt: 0,
    ver: 1,
    version: 1,
  });
  const times: number[] = [];
  for (let n = 0; n < runs; n++) {
    const started = performance.now();
    // Nothing here waits on storage: no user or link in the title, no value to let go on a create.
    const designed = await designedNewRecord(principal, site, { Title: `Item ${n}` }, record(n));
    await checkedWrite(principal, site, undefined, designed);
    times.push(performance.now() - started);
  }
  return { p50: round(median(times), 4), p99: round(percentile(times, 99), 4), runs };
}

export function printTableDesign(result: TableDesignResult): void {
  const difference = round(result.designed.p50 - result.plain.p50, 2);
  console.log(`\nTable design on create (issue 24): ${result.creates} creates each, through the gateway`);
  console.log(`  plain site      p50 ${result.plain.p50} ms  p90 ${result.plain.p90} ms`);
  console.log(`  designed site   p50 ${result.designed.p50} ms  p90 ${result.designed.p90} ms`);
  console.log(`  difference      p50 ${difference} ms (model work + the uniqueness item's write)`);
  console.log(
    `  model work alone p50 ${result.modelWork.p50} ms  p99 ${result.modelWork.p99} ms over ${result.modelWork.runs} runs (goal: under 1 ms)`,
  );
}
