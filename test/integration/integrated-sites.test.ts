import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type TestAccounts } from '../fixtures/accounts';
import { call } from '../fixtures/client';
import { createRecord, createSite } from '../fixtures/items';
import { type Stack, startStack } from '../fixtures/stack';

/**
 * Integrated sites (CONTRACT 4, reference 3) through `items/{siteId}/get`: which sites' records a site's
 * read shows. Names resolve through the stream-kept name index, so each case polls until the read settles.
 */

let stack: Stack;
let accounts: TestAccounts;
let admin: string;

interface Page {
  TotalCount: number;
  Data: { SiteId: number; ResultId: number }[];
}

const post = (path: string, body?: unknown) => call(stack.url, path, body);
const page = async (siteId: number, key = admin, body: object = {}) =>
  (await post(`/api/items/${siteId}/get`, { ApiKey: key, ...body })).body.Response as Page;
/** The sites whose records the read of `siteId` shows, ascending. */
const shown = async (siteId: number, key = admin) =>
  [...new Set((await page(siteId, key)).Data.map((record) => record.SiteId))].sort((a, b) => a - b);

/** A Results site at the top level with one record, so that its records show up or do not. */
async function table(body: object = {}, key = admin): Promise<number> {
  const id = await createSite(stack.url, key, 0, { ReferenceType: 'Results', Title: 'table', ...body });
  await createRecord(stack.url, key, id, { Title: `in ${id}` });
  return id;
}

const integrating = (entries: unknown, body: object = {}, key = admin) =>
  table({ SiteSettings: { IntegratedSites: entries }, ...body }, key);

/** Polls `probe` until it equals `expected` (the name index follows the sites through a stream). */
async function settles(probe: () => Promise<unknown>, expected: unknown): Promise<void> {
  const started = Date.now();
  let last: unknown;
  while (Date.now() - started < 10_000) {
    last = await probe();
    if (JSON.stringify(last) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(last).toEqual(expected);
}

const ascending = (...ids: number[]) => [...ids].sort((a, b) => a - b);

beforeAll(async () => {
  stack = await startStack({ streams: true });
  accounts = await seedAccounts(stack.url);
  admin = accounts.admin.apiKey;
});
afterAll(() => stack.close());

describe('integrated sites', () => {
  describe('items/{siteId}/get on a site', () => {
    it('shows only its own records when it lists none', async () => {
      const site = await table();
      expect(await shown(site)).toEqual([site]);
    });

    it('reads an entry as a name before a number: a site named "<id>" beats the site with that id', async () => {
      const numbered = await table();
      const named = await table({ SiteName: String(numbered) });
      const byNumber = await table();
      const main = await integrating([String(numbered), String(byNumber)]);
      await settles(() => shown(main), ascending(main, named, byNumber));
    });

    it('takes every site of a SiteGroupName, and splits, trims and de-duplicates entries', async () => {
      const first = await table({ SiteGroupName: 'group-a' });
      const second = await table({ SiteGroupName: 'group-a' });
      const named = await table({ SiteName: 'name-a' });
      const main = await integrating([' group-a , name-a', 'group-a', '', ',']);
      await settles(() => shown(main), ascending(main, first, second, named));
    });

    it('takes every site that shares a SiteName, with no nearest-site rule', async () => {
      const folder = await createSite(stack.url, admin, 0, { Title: 'folder' });
      const near = await createSite(stack.url, admin, folder, { ReferenceType: 'Results', SiteName: 'dup' });
      await createRecord(stack.url, admin, near);
      const far = await table({ SiteName: 'dup' });
      const main = await integrating('dup');
      await settles(() => shown(main), ascending(main, near, far));
    });

    it('keeps only sites of its own ReferenceType', async () => {
      const results = await table({ SiteName: 'kind' });
      const issues = await table({ SiteName: 'kind', ReferenceType: 'Issues' });
      const folder = await createSite(stack.url, admin, 0, { SiteName: 'kind' });
      const main = await integrating(['kind', String(issues), String(folder)]);
      await settles(() => shown(main), ascending(main, results));
    });

    it('keeps only sites the caller may read; privileged users pass', async () => {
      const reader = `User,${accounts.user.userId},1`;
      const open = await table({ SiteName: 'perm-open', Permissions: [reader] });
      const closed = await table({ SiteName: 'perm-closed' });
      const main = await integrating(['perm-open', 'perm-closed'], { Permissions: [reader] });
      await settles(() => shown(main), ascending(main, open, closed));
      expect(await shown(main, accounts.user.apiKey)).toEqual(ascending(main, open));
    });

    it('ignores an entry that names nothing and an id that is no site', async () => {
      const main = await integrating(['nobody-has-this-name', '987654321', '-5', '0', '1.5']);
      expect(await shown(main)).toEqual([main]);
      expect((await page(main)).TotalCount).toBe(1);
    });

    it("never reaches another tenant's sites, by name or by id", async () => {
      const ours = await table({ SiteName: 'iso' });
      const theirs = await table({ SiteName: 'iso' }, accounts.other.apiKey);
      const main = await integrating(['iso', String(theirs)]);
      const theirMain = await integrating(['iso', String(ours)], {}, accounts.other.apiKey);
      await settles(() => shown(main), ascending(main, ours));
      await settles(() => shown(theirMain, accounts.other.apiKey), ascending(theirMain, theirs));
    });

    it('merges the records in the default order (latest update first) and pages them as one list', async () => {
      const other = await createSite(stack.url, admin, 0, { ReferenceType: 'Results', SiteName: 'merge' });
      const main = await createSite(stack.url, admin, 0, {
        ReferenceType: 'Results',
        SiteSettings: { IntegratedSites: ['merge'] },
      });
      const ids: number[] = [];
      for (const site of [main, other, other, main, other, main]) {
        ids.push(await createRecord(stack.url, admin, site));
      }
      ids.reverse();
      const read = async (body: object) => {
        const result = await page(main, admin, body);
        return { TotalCount: result.TotalCount, Ids: result.Data.map((record) => record.ResultId) };
      };
      await settles(() => read({}), { TotalCount: 6, Ids: ids });
      expect(await read({ Offset: 2, PageSize: 3 })).toEqual({ TotalCount: 6, Ids: ids.slice(2, 5) });
      expect(await read({ Offset: 5, PageSize: 3 })).toEqual({ TotalCount: 6, Ids: ids.slice(5) });
      expect(await read({ Offset: 6 })).toEqual({ TotalCount: 6, Ids: [] });
      // The integrated site's own read shows its own records only: integration is one-way.
      expect((await page(other)).TotalCount).toBe(3);
    });

    it('shows one record by its id as before, whatever its site integrates', async () => {
      const main = await integrating(['merge']);
      const record = (await page(main)).Data.find((item) => item.SiteId === main);
      const one = await page(record?.ResultId ?? 0);
      expect(one.Data.map((item) => item.ResultId)).toEqual([record?.ResultId]);
    });
  });
});
