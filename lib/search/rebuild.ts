import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { settings } from '../config/settings';
import { recordCount, recordsByKeys } from '../items/record-repository';
import { containerKeys, idOfItemKey, orderKey, tenantSitesKey } from '../sites/keys';
import type { Site } from '../sites/model';
import { getSite, sitesOfTenant } from '../sites/repository';
import { existingItemIds, table as itemsTable, queryKeys } from '../sites/store';
import { dynamo } from '../storage/clients';
import type { Task, TaskKind } from '../tasks/model';
import { recordDocument, siteDocument, UserNames } from './full-text';
import { DELETED_VER, documentPage, putSegmentPageEnd, segmentPageEnd } from './index-store';
import { applyDocuments, tombstone } from './index-writer';
import { indexPage } from './rebuild-writer';

/**
 * The RebuildSearchIndexes task: scope 0 is every site of the tenant and their records, a site id that
 * site and its own records (not its child sites). Sites go in id order, each site's document with its
 * first page, then its records in id order, PAGE_SIZE per page. A document is written only where it
 * differs from the stored one (the index is older than the item's last change, a rename of the site or of
 * a user, or a write left pending); the page's postings are written whole (lib/search/rebuild-writer.ts),
 * so a page done twice writes the same rows again.
 *
 * A page never ends before the same page (same site, same id after which it starts) ended when a rebuild
 * last wrote it: its rows are overwritten whole, and the records past a shorter page's end would lose
 * their postings, still named by their directory entries, until their own page is written. A page ends
 * earlier after CreateSearchIndexLot was lowered (a deleted record moves the end later, a new one is
 * always last); the page then takes the records up to the old end as well.
 */

/** Records per page: the reference's lot of search-index rows per run, BackgroundTask.CreateSearchIndexLot. */
export const pageSize = () => settings().BackgroundTask.CreateSearchIndexLot;

interface Cursor {
  /** The site in progress (0: none left). */
  readonly site: number;
  /** The last record id done in it; 0 before its first page, which also does the site's own document. */
  readonly after: number;
  /** Set once every site is done: the last document id checked for a deleted item. */
  readonly sweep?: number;
}

export const rebuildSearchIndexes: TaskKind = {
  async start(task) {
    const sites =
      task.scopeId === 0
        ? await sitesOfTenant(task.tenantId)
        : [await getSite(task.tenantId, task.scopeId)].filter((site) => site !== undefined);
    const counts = await Promise.all(sites.map((site) => recordCount(site as Site)));
    const total = sites.length + counts.reduce((sum, count) => sum + count, 0);
    const first = task.scopeId === 0 ? (sites[0]?.siteId ?? 0) : task.scopeId;
    return { total, cursor: { site: first, after: 0 } satisfies Cursor };
  },

  async page(task, value) {
    const cursor = value as Cursor;
    if (cursor.sweep !== undefined) return sweepPage(task, cursor.sweep);
    if (cursor.site === 0) return { done: 0, cursor: { site: 0, after: 0, sweep: 0 } };
    const site = await getSite(task.tenantId, cursor.site);
    if (!site) return { done: 0, cursor: await nextSiteCursor(task, cursor.site) };
    const users = new UserNames();
    const container = containerKeys.records(task.tenantId, site.siteId);
    const keys = await queryKeys(
      {
        IndexName: 'Contents',
        KeyConditionExpression: 'ContainerKey = :container AND OrderKey > :after',
        ExpressionAttributeValues: { ':container': container, ':after': orderKey(cursor.after) },
      },
      { limit: pageSize() },
    );
    // A full page may end before this page's last end (a short page holds every record left anyway).
    const end =
      keys.length === pageSize() ? await segmentPageEnd(task.tenantId, site.siteId, cursor.after) : undefined;
    if (end !== undefined && idOf(keys.at(-1)) < end) {
      const rest = await queryKeys({
        IndexName: 'Contents',
        KeyConditionExpression: 'ContainerKey = :container AND OrderKey BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':container': container,
          ':from': orderKey(idOf(keys.at(-1)) + 1),
          ':to': orderKey(end),
        },
      });
      keys.push(...rest);
    }
    const records = await recordsByKeys(keys);
    const docs = await Promise.all(records.map((record) => recordDocument(record, site.title, users)));
    if (cursor.after === 0) docs.push(await siteDocument(site, users));
    await indexPage(task.tenantId, site.siteId, cursor.after, docs);
    const lastId = idOf(keys.at(-1));
    if (keys.length > 0) await putSegmentPageEnd(task.tenantId, site.siteId, cursor.after, lastId);
    const next =
      keys.length >= pageSize()
        ? { site: site.siteId, after: lastId }
        : await nextSiteCursor(task, site.siteId);
    return { done: keys.length + (cursor.after === 0 ? 1 : 0), cursor: next };
  },
};

/** The record id of an Items key; 0 for none. */
const idOf = (key: { readonly pk: string } | undefined) => (key ? idOfItemKey(key.pk) : 0);

/** The first page of the next site in id order (tenant scope), or the sweep once none is left. */
async function nextSiteCursor(task: Task, siteId: number): Promise<Cursor> {
  if (task.scopeId !== 0) return { site: 0, after: 0, sweep: 0 };
  const page = await dynamo().send(
    new QueryCommand({
      TableName: itemsTable(),
      IndexName: 'TenantSites',
      KeyConditionExpression: 'TenantSitesKey = :tenant AND OrderKey > :after',
      ExpressionAttributeValues: { ':tenant': tenantSitesKey(task.tenantId), ':after': orderKey(siteId) },
      Limit: 1,
    }),
  );
  const next = page.Items?.[0];
  return next ? { site: Number(next.SiteId), after: 0 } : { site: 0, after: 0, sweep: 0 };
}

/**
 * After the sites, the tenant's documents in id order, a page at a time: a document of the task's scope
 * (the tenant, or the site and its own records) whose site or record is gone (deleted while
 * Search.CreateIndexes was off, or while the stream handler was down) becomes a tombstone, so that the
 * search stops finding it. Counts nothing towards Done: Total counts items.
 */
async function sweepPage(task: Task, afterId: number): Promise<{ done: number; cursor?: Cursor }> {
  const tenantId = task.tenantId;
  const { documents, lastId } = await documentPage(tenantId, afterId, pageSize());
  const live = documents.filter(
    (doc) => doc.ver !== DELETED_VER && (task.scopeId === 0 || doc.siteId === task.scopeId),
  );
  const existing = await existingItemIds(
    tenantId,
    live.map((doc) => doc.id),
  );
  const gone = live.filter((doc) => !existing.has(doc.id));
  if (gone.length > 0)
    await applyDocuments(
      tenantId,
      gone.map((doc) => tombstone(doc.id, doc.siteId, doc.updatedAt)),
    );
  return { done: 0, cursor: lastId === undefined ? undefined : { site: 0, after: 0, sweep: lastId } };
}
