import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock';
import { settings } from '../config/settings';
import { batchGet, batchWrite } from '../storage/batch';
import { dynamo } from '../storage/clients';
import { queryAll } from '../storage/queries';
import { tableName } from '../storage/tables';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The RecycleBin table (lib/storage/tables.ts, CONTRACT 15). A deleted record is kept whole, as its Items
 * item was, under its site (`T<tenant>#S#<site>`, `R#<id>`), so that a site's bin is one Query; a deleted
 * site likewise (`SITE`). A small locator (`T<tenant>#ID#<id>`, `BIN`) names the site of an id, for a read
 * or a restore by id: no secondary index, as a TTL table may have none (DynamoDB Local would never expire
 * it). Both carry the same `ExpiresAt`, so the TTL takes them together; reads also skip an entry past it,
 * since DynamoDB deletes expired items only within about two days.
 *
 * Keeping entries in a table of their own keeps them out of every query and index of current records and
 * out of the Items stream's consumers (search index, site-name index, notifications), so reads of current
 * records do not slow down and the consumers need no filter.
 */
const table = () => tableName('recycleBin');

const padded = (id: number) => String(id).padStart(15, '0');
const sitePk = (tenantId: number, siteId: number) => `T${tenantId}#S#${siteId}`;
const RECORD = 'R#';
const CHILD = 'C#';

export const binKeys = {
  record: (tenantId: number, siteId: number, recordId: number) => ({
    pk: sitePk(tenantId, siteId),
    sk: `${RECORD}${padded(recordId)}`,
  }),
  site: (tenantId: number, siteId: number) => ({ pk: sitePk(tenantId, siteId), sk: 'SITE' }),
  locator: (tenantId: number, id: number) => ({ pk: `T${tenantId}#ID#${id}`, sk: 'BIN' }),
  /** A deleted site's mark under its parent (0: the top level): what a folder's bin lists. */
  child: (tenantId: number, parentId: number, siteId: number) => ({
    pk: sitePk(tenantId, parentId),
    sk: `${CHILD}${padded(siteId)}`,
  }),
};

/** The Items table's index keys: an entry is found by its own keys, never by those indexes. */
const INDEX_ATTRIBUTES = ['ContainerKey', 'OrderKey', 'RecentKey', 'StatusKey', 'TenantSitesKey', 'Deleting'];

export interface Binning {
  /** Who deleted it, when known. */
  readonly deleter?: number;
  /** The site whose deletion took it (`deletesite`), restored with that site. */
  readonly siteDeletion?: number;
  /** On that site's own entry: the sites of its subtree, top-down, which its restore brings back. */
  readonly subtree?: readonly number[];
}

export interface Locator {
  readonly kind: 'record' | 'site';
  readonly siteId: number;
  readonly siteDeletion?: number;
}

/** When an entry binned now expires: Deletion.RetentionDays later, in the TTL's epoch seconds. */
export function expiryOf(deletedAt: number): number {
  return Math.floor((deletedAt + settings().Deletion.RetentionDays * 86_400_000) / 1000);
}

/** The entry and locator of `item` (a record's or site's Items item as stored), binned now. */
export function binItems(item: Record<string, unknown>, binning: Binning = {}): Record<string, unknown>[] {
  const tenantId = Number(item.TenantId);
  const kind = item.Kind === 'site' ? 'site' : 'record';
  const id = Number(kind === 'site' ? item.SiteId : item.RecordId);
  const siteId = Number(item.SiteId);
  const deletedAt = now();
  const marks = {
    DeletedAt: deletedAt,
    ExpiresAt: expiryOf(deletedAt),
    ...(binning.deleter !== undefined && { Deleter: binning.deleter }),
    ...(binning.siteDeletion !== undefined && { SiteDeletion: binning.siteDeletion }),
  };
  const subtree = kind === 'site' && binning.subtree ? { Subtree: [...binning.subtree] } : {};
  const entry: Record<string, unknown> = {
    ...item,
    ...(kind === 'site' ? binKeys.site(tenantId, id) : binKeys.record(tenantId, siteId, id)),
    ...marks,
    ...subtree,
  };
  for (const name of INDEX_ATTRIBUTES) delete entry[name];
  const locator = {
    ...binKeys.locator(tenantId, id),
    Kind: 'locator',
    BinKind: kind,
    SiteId: siteId,
    ...marks,
  };
  if (!isDeletedRoot(entry)) return [entry, locator];
  // The site the deletion named is restorable from its parent's bin, which lists it by this mark.
  const child = {
    ...binKeys.child(tenantId, Number(item.ParentId), id),
    Kind: 'binnedSite',
    SiteId: id,
    ...marks,
  };
  return [entry, locator, child];
}

/** A site entry of the site a `deletesite` named (not one of its subtree): the one a restore takes. */
const isDeletedRoot = (entry: Record<string, unknown>) =>
  entry.Kind === 'site' &&
  entry.SiteDeletion !== undefined &&
  Number(entry.SiteDeletion) === Number(entry.SiteId);

/** The transaction parts that bin `item`, with the deletion of it from the Items table. */
export function binWrites(item: Record<string, unknown>, binning: Binning = {}): TransactItem[] {
  // A Put, not a conditional one: an entry of the same id left by an earlier deletion (a record restored
  // and deleted again) is replaced by the newer one.
  return binItems(item, binning).map((kept) => ({ Put: { TableName: table(), Item: kept } }));
}

/** Bins many items at once, outside a transaction (a site's records): before they leave the Items table. */
export async function binAll(items: readonly Record<string, unknown>[], binning: Binning): Promise<void> {
  await batchWrite(
    table(),
    items.flatMap((item) => binItems(item, binning)).map((Item) => ({ PutRequest: { Item } })),
  );
}

const live = (item: Record<string, unknown> | undefined) =>
  item && Number(item.ExpiresAt) * 1000 > now() ? item : undefined;

/** Where the bin keeps `id` of the tenant, if it does and the entry has not expired. */
export async function locate(tenantId: number, id: number): Promise<Locator | undefined> {
  const item = live(await getItem(binKeys.locator(tenantId, id)));
  if (!item) return undefined;
  return {
    kind: item.BinKind === 'site' ? 'site' : 'record',
    siteId: Number(item.SiteId),
    ...(item.SiteDeletion !== undefined && { siteDeletion: Number(item.SiteDeletion) }),
  };
}

/** A binned record's entry (the record's item and the bin's marks), if kept and not expired. */
export async function recordEntry(
  tenantId: number,
  siteId: number,
  recordId: number,
): Promise<Record<string, unknown> | undefined> {
  return live(await getItem(binKeys.record(tenantId, siteId, recordId)));
}

export async function siteEntry(
  tenantId: number,
  siteId: number,
): Promise<Record<string, unknown> | undefined> {
  return live(await getItem(binKeys.site(tenantId, siteId)));
}

/** A site's binned records, in id order, those not expired. */
export async function* recordEntries(
  tenantId: number,
  siteId: number,
): AsyncGenerator<Record<string, unknown>> {
  for await (const item of queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': sitePk(tenantId, siteId), ':prefix': RECORD },
    ConsistentRead: true,
  })) {
    if (live(item)) yield item;
  }
}

/**
 * The parts that take an entry out of the bin (a restore, a purge): the entry, on condition that it is
 * the one read (its DeletedAt), and its locator.
 */
export function unbinWrites(entry: Record<string, unknown>): TransactItem[] {
  const tenantId = Number(entry.TenantId);
  const id = Number(entry.Kind === 'site' ? entry.SiteId : entry.RecordId);
  return [
    {
      Delete: {
        TableName: table(),
        Key: { pk: entry.pk, sk: entry.sk },
        ConditionExpression: 'DeletedAt = :at',
        ExpressionAttributeValues: { ':at': entry.DeletedAt },
      },
    },
    { Delete: { TableName: table(), Key: binKeys.locator(tenantId, id) } },
    ...(isDeletedRoot(entry)
      ? [{ Delete: { TableName: table(), Key: binKeys.child(tenantId, Number(entry.ParentId), id) } }]
      : []),
  ];
}

/**
 * The entries of the sites deleted directly under `parentId` (0: the top level) by a `deletesite` that
 * named them, in id order, those not expired: a folder's bin.
 */
export async function deletedChildEntries(
  tenantId: number,
  parentId: number,
): Promise<Record<string, unknown>[]> {
  const ids: number[] = [];
  for await (const mark of queryAll({
    TableName: table(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': sitePk(tenantId, parentId), ':prefix': CHILD },
    ConsistentRead: true,
  })) {
    if (live(mark)) ids.push(Number(mark.SiteId));
  }
  const entries = await batchGet(
    table(),
    ids.map((id) => binKeys.site(tenantId, id)),
    { consistent: true },
  );
  // A mark left behind (its entry replaced by a later deletion elsewhere) lists nothing.
  return entries
    .filter((entry) => live(entry) && isDeletedRoot(entry) && Number(entry.ParentId) === parentId)
    .sort((a, b) => Number(a.SiteId) - Number(b.SiteId));
}

/** Whether the bin still holds the record (expired or not): its files and history must then stay. */
export async function holdsRecord(tenantId: number, siteId: number, recordId: number): Promise<boolean> {
  return (await getItem(binKeys.record(tenantId, siteId, recordId))) !== undefined;
}

/** The bin's own items without their keys and marks: what the Items table held. */
export function storedItemOf(entry: Record<string, unknown>): Record<string, unknown> {
  const { pk: _pk, sk: _sk, DeletedAt, ExpiresAt, Deleter, SiteDeletion, Subtree, ...item } = entry;
  return item;
}

async function getItem(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }));
  return result.Item;
}
