import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemRecord } from '../../lib/items/model';
import { walkRecent } from '../../lib/items/record-index-walk';
import { recordsByKeys } from '../../lib/items/record-repository';
import type { Site } from '../../lib/sites/model';
import { getSite } from '../../lib/sites/repository';
import { queryKeys, recordsOf } from '../../lib/sites/store';
import { seedAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * The walk over a site's records in the default order (lib/items/record-index-walk.ts) through several
 * BatchGetItems at once: 450 records in three Status values, walked whole, in filtered pages that go on
 * where the last stopped, and by Status, against the order the reference gives (UpdatedTime descending,
 * then id descending) computed from the records themselves.
 */

let stack: Stack;
let site: Site;
/** Every record of the site in the reference's default order. */
let ordered: ItemRecord[];
const COUNT = 450;
const STATUSES = [100, 200, 900];

const ids = (records: readonly ItemRecord[]) => records.map((record) => record.recordId);
const numA = (record: ItemRecord) => Number((record.fields.Num as Record<string, unknown> | undefined)?.NumA);

beforeAll(async () => {
  stack = await startStack();
  const { admin } = await seedAccounts(stack.url);
  const siteId = await createSite(stack.url, admin.apiKey, 0, { Title: 'Walked', ReferenceType: 'Results' });
  // Two calls, so that two UpdatedTimes (at least) take part in the order.
  for (const [from, to] of [
    [0, 200],
    [200, COUNT],
  ]) {
    const data = Array.from({ length: (to as number) - (from as number) }, (_, at) => {
      const n = (from as number) + at;
      return { ClassA: `k${n}`, Title: `r${n}`, Status: STATUSES[n % 3], NumA: n };
    });
    const bulk = await call(stack.url, `/api/items/${siteId}/bulkupsert`, {
      ApiKey: admin.apiKey,
      Keys: ['ClassA'],
      Data: data,
    });
    expect(bulk.body.StatusCode, bulk.text).toBe(200);
  }
  site = (await getSite(1, siteId)) as Site;
  const records = await recordsByKeys(await queryKeys(recordsOf(1, siteId)));
  ordered = records.sort((a, b) => b.updatedAt - a.updatedAt || b.recordId - a.recordId);
  expect(ordered).toHaveLength(COUNT);
}, 120_000);
afterAll(() => stack.close());

describe('walkRecent', () => {
  it('walks every record in the default order, each once', async () => {
    const walk = await walkRecent([site], undefined, () => true, Number.POSITIVE_INFINITY);
    expect(ids(walk.matches)).toEqual(ids(ordered));
    expect(walk.complete).toBe(true);
    expect(walk.itemsRead).toBe(COUNT);
  });

  it.each([7, 150, 230])(
    'pages the even NumA %i at a time, each page going on after the last entry judged',
    async (size) => {
      const even = (record: ItemRecord) => numA(record) % 2 === 0;
      const pages: ItemRecord[][] = [];
      let after: string | undefined;
      for (let guard = 0; guard < COUNT; guard++) {
        const walk = await walkRecent([site], undefined, even, size, after);
        pages.push(walk.matches);
        if (walk.complete || walk.last === undefined) break;
        after = walk.last;
      }
      expect(pages.slice(0, -1).every((page) => page.length === size)).toBe(true);
      expect(ids(pages.flat())).toEqual(ids(ordered.filter(even)));
    },
  );

  it('walks only the Status values asked', async () => {
    const walk = await walkRecent([site], [200, 900], () => true, Number.POSITIVE_INFINITY);
    expect(ids(walk.matches)).toEqual(ids(ordered.filter((record) => record.status !== 100)));
    expect(walk.complete).toBe(true);
  });

  it('stops at what is wanted without judging past it', async () => {
    const walk = await walkRecent([site], undefined, () => true, 120);
    expect(ids(walk.matches)).toEqual(ids(ordered.slice(0, 120)));
    expect(walk.complete).toBe(false);
    const rest = await walkRecent([site], undefined, () => true, Number.POSITIVE_INFINITY, walk.last);
    expect(ids(rest.matches)).toEqual(ids(ordered.slice(120)));
  });
});
