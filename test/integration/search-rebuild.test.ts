import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings, useSettings } from '../../lib/config/settings';
import type { ItemRecord } from '../../lib/items/model';
import { findItem } from '../../lib/items/record-repository';
import { recordDocument, UserNames } from '../../lib/search/full-text';
import { getDocuments } from '../../lib/search/index-store';
import { applyDocuments } from '../../lib/search/index-writer';
import { searchIndex } from '../../lib/search/query';
import { rebuildSearchIndexes } from '../../lib/search/rebuild';
import { indexPage } from '../../lib/search/rebuild-writer';
import { runStep } from '../../lib/tasks/worker';
import { seedAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * The rebuild as a repair, through the running stack (no stream poller: what reaches the index is what
 * these tests hand it): a site-scoped rebuild drops the records of its site that are gone, and a rebuild
 * page computed from a read older than a live change leaves that change in place.
 */

let stack: Stack;
let admin: string;

beforeAll(async () => {
  stack = await startStack();
  admin = (await seedAccounts(stack.url)).admin.apiKey;
});
afterAll(() => stack.close());

/** The ids POST /api/search answers for `text`, in its order, and its TotalCount. */
async function search(text: string): Promise<{ ids: number[]; total: number }> {
  const result = await call(stack.url, '/api/search', { ApiKey: admin, SearchText: text });
  const response = result.body.Response as { TotalCount: number; Data: { Id: number }[] };
  return { ids: response.Data.map((hit) => hit.Id), total: response.TotalCount };
}

/** The ids the index itself holds for `text` in tenant 1, ascending: what a search starts from. */
async function indexed(text: string): Promise<number[]> {
  return (await searchIndex(1, text)).map((match) => match.id).sort((a, b) => a - b);
}

async function rebuildToEnd(path: string): Promise<void> {
  const started = await call(stack.url, path, { ApiKey: admin });
  while (await runStep(String(started.body.TaskId))) {}
}

async function recordOf(id: number): Promise<ItemRecord> {
  const item = await findItem(1, id);
  if (item?.kind !== 'record') throw new Error(`no record ${id}`);
  return item.record;
}

describe('a site-scoped rebuild', () => {
  it('drops the index entries of its records that no longer exist, and only of its own site', async () => {
    const site = await createSite(stack.url, admin, 0, { Title: 'Sweep site', ReferenceType: 'Issues' });
    const neighbour = await createSite(stack.url, admin, 0, { Title: 'Neighbour', ReferenceType: 'Issues' });
    const gone = await createRecord(stack.url, admin, site, { Title: 'vanishing ghostword' });
    const kept = await createRecord(stack.url, admin, site, { Title: 'staying ghostword' });
    const elsewhere = await createRecord(stack.url, admin, neighbour, { Title: 'neighbour ghostword' });
    await rebuildToEnd('/api/BackgroundTasks/RebuildSearchIndexes');
    expect((await search('ghostword')).ids.sort()).toEqual([gone, kept, elsewhere].sort());

    // Deleted while the live path is away (no poller here): the index still has them (the search
    // answers only what exists, whatever the index says).
    await call(stack.url, `/api/items/${gone}/delete`, { ApiKey: admin });
    await call(stack.url, `/api/items/${elsewhere}/delete`, { ApiKey: admin });
    expect(await indexed('ghostword')).toEqual([gone, kept, elsewhere].sort());
    expect((await search('ghostword')).ids).toEqual([kept]);

    await rebuildToEnd(`/api/BackgroundTasks/${site}/RebuildSearchIndexes`);
    // The site's gone record is dropped; the neighbour's is not in this task's scope.
    expect(await indexed('ghostword')).toEqual([kept, elsewhere].sort());
    expect(await indexed('vanishing')).toEqual([]);
  });
});

describe('POST /api/search with the stream stalled', () => {
  it('never answers a deleted record, and pages and counts only what exists', async () => {
    const site = await createSite(stack.url, admin, 0, { Title: 'Stalled', ReferenceType: 'Issues' });
    const ids: number[] = [];
    for (let index = 0; index < 4; index++) {
      ids.push(await createRecord(stack.url, admin, site, { Title: `stalledword ${index}` }));
    }
    // The index is written by a rebuild; no stream brings it the deletes that follow.
    await rebuildToEnd('/api/BackgroundTasks/RebuildSearchIndexes');
    const [first, second, third, fourth] = ids as [number, number, number, number];
    expect(await search('stalledword')).toEqual({ ids: [fourth, third, second, first], total: 4 });

    await call(stack.url, `/api/items/${fourth}/delete`, { ApiKey: admin });
    await call(stack.url, `/api/items/${second}/delete`, { ApiKey: admin });
    expect(await indexed('stalledword')).toEqual(ids);
    expect(await search('stalledword')).toEqual({ ids: [third, first], total: 2 });
    const page = await call(stack.url, '/api/search', {
      ApiKey: admin,
      SearchText: 'stalledword',
      Offset: 1,
      PageSize: 1,
    });
    expect(page.body.Response).toMatchObject({
      Offset: 1,
      PageSize: 1,
      TotalCount: 2,
      Data: [{ Id: first }],
    });
  });
});

describe('a rebuild page from a stale read', () => {
  it('does not overwrite a newer live change of a record', async () => {
    const site = await createSite(stack.url, admin, 0, { Title: 'Race site', ReferenceType: 'Issues' });
    const id = await createRecord(stack.url, admin, site, { Title: 'oldtitleword' });
    const siteTitle = 'Race site';
    // The page reads the record at its first version...
    const stale = await recordDocument(await recordOf(id), siteTitle, new UserNames());
    // ...then the record changes and the live path indexes the change...
    await call(stack.url, `/api/items/${id}/update`, { ApiKey: admin, Title: 'newtitleword' });
    const fresh = await recordDocument(await recordOf(id), siteTitle, new UserNames());
    expect(fresh.ver).toBeGreaterThan(stale.ver);
    await applyDocuments(1, [fresh]);
    // ...and only then does the page write what it read.
    await indexPage(1, site, 0, [stale]);

    expect((await getDocuments(1, [id])).get(id)).toMatchObject({ ver: fresh.ver, text: fresh.text });
    expect(await search('newtitleword')).toEqual({ ids: [id], total: 1 });
    expect(await search('oldtitleword')).toEqual({ ids: [], total: 0 });
    // Short words are answered from the postings alone: the stale page's n-grams must not count.
    expect((await search('old')).ids).not.toContain(id);
  });

  it('a whole rebuild task run after the change agrees with it', async () => {
    const site = await createSite(stack.url, admin, 0, { Title: 'Race two', ReferenceType: 'Issues' });
    const id = await createRecord(stack.url, admin, site, { Title: 'firstword' });
    await call(stack.url, `/api/items/${id}/update`, { ApiKey: admin, Title: 'secondword' });
    const task = { tenantId: 1, scopeId: site } as Parameters<typeof rebuildSearchIndexes.page>[0];
    const { cursor } = await rebuildSearchIndexes.start(task);
    await rebuildSearchIndexes.page(task, cursor);
    expect(await search('secondword')).toEqual({ ids: [id], total: 1 });
    expect(await search('firstword')).toEqual({ ids: [], total: 0 });
  });
});

describe('a rebuild whose pages end earlier than the last one', () => {
  afterEach(() => useSettings(undefined));
  const lot = (size: number) =>
    useSettings(loadSettings({ KIROKU_PARAM_BackgroundTask_CreateSearchIndexLot: String(size) }));

  const found = async (word: string) => (await search(word)).ids.sort((a, b) => a - b);

  /** The site's rebuild, one page at a time; with `expected`, the search checked after each page. */
  async function rebuildSite(site: number, word: string, expected?: readonly number[]): Promise<void> {
    const task = { tenantId: 1, scopeId: site } as Parameters<typeof rebuildSearchIndexes.page>[0];
    let { cursor } = await rebuildSearchIndexes.start(task);
    for (let step = 0; cursor !== undefined && step < 20; step++) {
      ({ cursor } = await rebuildSearchIndexes.page(task, cursor));
      if (expected) expect(await found(word), `after page ${step + 1}`).toEqual(expected);
    }
  }

  it('finds every record after every page when CreateSearchIndexLot was lowered', async () => {
    const word = 'pagedwordlowered';
    const site = await createSite(stack.url, admin, 0, { Title: 'Paged site', ReferenceType: 'Issues' });
    const ids = [];
    for (let index = 0; index < 7; index++) {
      ids.push(await createRecord(stack.url, admin, site, { Title: `record ${index} ${word}` }));
    }
    // No stream poller here: the first rebuild is what indexes them, three to a page.
    lot(3);
    await rebuildSite(site, word);
    expect(await found(word)).toEqual(ids);
    // Two to a page: the page after 0 would end at the second record, the third still named by it.
    lot(2);
    await rebuildSite(site, word, ids);
  });
});
