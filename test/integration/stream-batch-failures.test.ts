import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/site-name-index';
import { findClosestSiteId } from '../../lib/sites/closest-site';
import { loadIndex, readPointer } from '../../lib/sites/index-store';
import { rebuildTenantIndex } from '../../lib/sites/index-updater';
import type { StreamBatchFailure } from '../../local/stream-poller';
import { seedAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * What happens to the site-name index when its stream handler fails: the failed tenant and what follows
 * it are retried, never the rest (partial batch responses), and a batch that is dropped after its retries
 * leaves an index that repairs itself from the sites table. Faults are injected into the index's save,
 * the one place a real failure (throttling, an outage) would surface.
 */
const faults = vi.hoisted(() => ({ failSave: new Set<number>(), failMark: false, saves: [] as number[] }));
vi.mock('../../lib/sites/index-store', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../lib/sites/index-store')>();
  return {
    ...original,
    saveIndex: async (tenantId: number, ...rest: unknown[]) => {
      faults.saves.push(tenantId);
      if (faults.failSave.has(tenantId)) throw new Error(`injected: saving tenant ${tenantId}'s index`);
      return (original.saveIndex as (...args: unknown[]) => Promise<boolean>)(tenantId, ...rest);
    },
    markIndexStale: async (tenantId: number) => {
      if (faults.failMark) throw new Error('injected: marking the index stale');
      return original.markIndexStale(tenantId);
    },
  };
});

let sequence = 1000;
/** An Items stream record of a site change, as Lambda delivers it. */
function siteRecord(tenantId: number, siteId: number, siteName: string, oldName?: string): DynamoDBRecord {
  const image = (name: string) =>
    marshall({
      Kind: 'site',
      TenantId: tenantId,
      SiteId: siteId,
      ParentId: 0,
      ReferenceType: 'Issues',
      SiteName: name,
    }) as Record<string, AttributeValue>;
  return {
    eventName: oldName === undefined ? 'INSERT' : 'MODIFY',
    dynamodb: {
      SequenceNumber: String(sequence++),
      NewImage: image(siteName),
      ...(oldName !== undefined && { OldImage: image(oldName) }),
    },
  };
}

const namesOf = async (tenantId: number) => {
  const index = await loadIndex(tenantId);
  return index ? [...index.byName.keys()].sort() : [];
};

describe('functions/site-name-index with partial batch responses', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('reports the failed tenant’s first record and everything after it; the retry settles them', async () => {
    const [t1, t2] = [9001, 9002];
    const batch = [siteRecord(t1, 1, 'one'), siteRecord(t2, 2, 'two'), siteRecord(t1, 3, 'three')];
    faults.failSave.add(t2);
    const first = await handler({ Records: batch });
    faults.failSave.clear();
    expect(first.batchItemFailures).toEqual([
      { itemIdentifier: batch[1]?.dynamodb?.SequenceNumber },
      { itemIdentifier: batch[2]?.dynamodb?.SequenceNumber },
    ]);
    // Tenant 1's group ran whole (its third record too, which the retry applies again, harmlessly).
    expect(await namesOf(t1)).toEqual(['one', 'three']);
    expect(await namesOf(t2)).toEqual([]);

    // Lambda restarts at the lowest sequence number reported: only those records come again.
    const retried = batch.slice(1);
    faults.saves.length = 0;
    expect(await handler({ Records: retried })).toEqual({ batchItemFailures: [] });
    expect(faults.saves).toEqual([t2, t1]);
    expect(await namesOf(t1)).toEqual(['one', 'three']);
    expect(await namesOf(t2)).toEqual(['two']);
  });

  it('marks an existing index stale when its update fails, and the next update rebuilds it', async () => {
    const tenantId = 9003;
    await handler({ Records: [siteRecord(tenantId, 1, 'kept')] });
    faults.failSave.add(tenantId);
    const failed = await handler({ Records: [siteRecord(tenantId, 1, 'renamed', 'kept')] });
    faults.failSave.clear();
    expect(failed.batchItemFailures).toHaveLength(1);
    expect(await readPointer(tenantId)).toMatchObject({ stale: true });
  });
});

describe('a dropped batch and the repair of the index (local stack, stream poller, real handler)', () => {
  let stack: Stack;
  let apiKey: string;
  let tenantId: number;
  const dropped: StreamBatchFailure[] = [];
  const updateSite = (siteId: number, body: object) =>
    call(stack.url, `/api/items/${siteId}/updatesite`, { ApiKey: apiKey, ...body });
  /** The site GetClosestSiteId's index finds for `name` from `origin`, read as lookups read it. */
  const indexed = async (origin: number, name: string) => {
    const index = await loadIndex(tenantId);
    return index ? findClosestSiteId(index, origin, name) : undefined;
  };
  const settled = (probe: () => Promise<unknown>, expected: unknown) =>
    vi.waitFor(async () => expect(await probe()).toBe(expected), { timeout: 10_000, interval: 100 });

  beforeAll(async () => {
    stack = await startStack({
      streams: true,
      streamRetryAttempts: 1,
      onStreamFailure: (f) => dropped.push(f),
    });
    apiKey = (await seedAccounts(stack.url)).admin.apiKey;
    tenantId = 1;
  });
  afterAll(() => stack.close());

  it('sends the batch to the failure destination, and the stale mark makes the next change rebuild', async () => {
    const top = await createSite(stack.url, apiKey, 0, { Title: 'top' });
    const site = await createSite(stack.url, apiKey, top, { ReferenceType: 'Issues', SiteName: 'before' });
    await settled(() => indexed(top, 'before'), site);

    faults.failSave.add(tenantId);
    expect((await updateSite(site, { SiteName: 'after' })).status).toBe(200);
    await vi.waitFor(() => expect(dropped).toHaveLength(1), { timeout: 10_000, interval: 100 });
    faults.failSave.clear();
    expect(dropped[0]?.subscription).toBe('site-name-index');
    expect(await indexed(top, 'after')).not.toBe(site);
    expect(await readPointer(tenantId)).toMatchObject({ stale: true });

    // Any later change of the tenant, here another site, rebuilds the index from the sites table.
    const other = await createSite(stack.url, apiKey, top, { ReferenceType: 'Issues', SiteName: 'other' });
    await settled(() => indexed(top, 'other'), other);
    expect(await indexed(top, 'after')).toBe(site);
    expect(await indexed(top, 'before')).not.toBe(site);
  });

  it('rebuilds when a change finds the index disagreeing with its old image, or on demand', async () => {
    const top = await createSite(stack.url, apiKey, 0, { Title: 'top 2' });
    const a = await createSite(stack.url, apiKey, top, { ReferenceType: 'Issues', SiteName: 'a1' });
    const b = await createSite(stack.url, apiKey, top, { ReferenceType: 'Issues', SiteName: 'b1' });
    await settled(() => indexed(top, 'b1'), b);

    // An outage: neither the save nor the stale mark gets through, and the batch is dropped.
    let before = dropped.length;
    faults.failSave.add(tenantId);
    faults.failMark = true;
    await updateSite(a, { SiteName: 'a2' });
    await vi.waitFor(() => expect(dropped.length).toBeGreaterThan(before), {
      timeout: 10_000,
      interval: 100,
    });
    faults.failSave.clear();
    faults.failMark = false;
    expect(await indexed(top, 'a1')).toBe(a);

    // The next change of `a` comes with an old image (a2) the index never saw (a1): it rebuilds.
    await updateSite(a, { SiteName: 'a3' });
    await settled(() => indexed(top, 'a3'), a);
    expect(await indexed(top, 'a2')).toBe(-1);

    // On demand (the background task's call), whatever the stored index says.
    before = dropped.length;
    faults.failSave.add(tenantId);
    faults.failMark = true;
    await updateSite(b, { SiteName: 'b3' });
    await vi.waitFor(() => expect(dropped.length).toBeGreaterThan(before), {
      timeout: 10_000,
      interval: 100,
    });
    faults.failSave.clear();
    faults.failMark = false;
    expect(await indexed(top, 'b3')).not.toBe(b);
    expect((await rebuildTenantIndex(tenantId)).rebuilt).toBe(true);
    expect(await indexed(top, 'b3')).toBe(b);
  });
});
