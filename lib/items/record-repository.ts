import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { now } from '../clock';
import { BadRequestError, ConcurrentChangeError, NotFoundError } from '../errors';
import { containerKeys, itemKeys, orderKey, recentKey, statusKey } from '../sites/keys';
import type { Site } from '../sites/model';
import { binWrites, expiryOf } from '../sites/recycle-bin-store';
import { toSite } from '../sites/repository';
import { batchGet, type Key, queryItems, queryKeys, recordsOf, table } from '../sites/store';
import { dynamo } from '../storage/clients';
import { failedConditions, isConditionFailure } from '../storage/conditions';
import { assertItemSize } from '../storage/queries';
import { isTransactionConflict } from '../storage/retry';
import { expireVersions, keepVersion } from './history-store';
import type { ItemRecord, RecordFields } from './model';
import { permissionRowWrites } from './record-permission-rows';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit on the parts of one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

const conditionErrors = new WeakMap<TransactItem, () => Error>();

/**
 * A transaction part whose failed condition means `error` for the caller (a NoDuplication value another
 * record holds: lib/items/record-unique.ts), whichever write it goes with.
 */
export function guarded(item: TransactItem, error: () => Error): TransactItem {
  conditionErrors.set(item, error);
  return item;
}

export type Item =
  | { readonly kind: 'site'; readonly site: Site }
  | { readonly kind: 'record'; readonly record: ItemRecord };

/** A site or a record of the tenant: `{id}` of `items/{id}/get` may be either. */
export async function findItem(tenantId: number, id: number): Promise<Item | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: table(), Key: itemKeys.item(tenantId, id), ConsistentRead: true }),
  );
  const item = result.Item;
  if (item?.Kind === 'site') return { kind: 'site', site: toSite(item) };
  if (item?.Kind === 'record') return { kind: 'record', record: toRecord(item) };
  return undefined;
}

/**
 * Creates the record in a live site and counts it, in one transaction, with `extra` writes that must go
 * with it (the rows of the files it takes), and an upsert's key `claim`: its failed condition means that
 * another request took the keys first (ConcurrentChangeError, to match again).
 */
export async function insertRecord(
  record: ItemRecord,
  extra: readonly TransactItem[] = [],
  claim?: TransactItem,
): Promise<void> {
  const items = [...newRecordWrites(record, fromRecord(record)), ...extra];
  if (claim) items.push(claim);
  await write(items, 'site', claim ? items.length - 1 : undefined);
}

/** The writes that put `item` (the record's stored form) into its live site as a new record and count it. */
function newRecordWrites(record: ItemRecord, item: Record<string, unknown>): TransactItem[] {
  assertItemSize(item);
  return [
    {
      ConditionCheck: {
        TableName: table(),
        Key: itemKeys.item(record.tenantId, record.siteId),
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(Deleting)',
      },
    },
    { Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    count(record, 1),
    statusCount(record, 1),
    ...permissionRowWrites(undefined, record),
  ];
}

/**
 * Saves the record if nobody changed it since `before` was read (its Ver), with `extra` writes; on a version
 * up (`after` has a higher version), `before` is kept as a history row in the same transaction.
 */
export async function updateRecord(
  before: ItemRecord,
  after: ItemRecord,
  extra: readonly TransactItem[] = [],
): Promise<void> {
  const item = fromRecord(after);
  assertItemSize(item);
  await write(
    [
      {
        Put: {
          TableName: table(),
          Item: item,
          ConditionExpression: 'Ver = :ver',
          ExpressionAttributeValues: { ':ver': before.ver },
        },
      },
      ...versionKept(before, after),
      ...((before.status ?? 0) === (after.status ?? 0)
        ? []
        : [statusCount(before, -1), statusCount(after, 1)]),
      ...permissionRowWrites(before, after),
      ...extra,
    ],
    'version',
  );
}

/**
 * Deletes the record if unchanged since read (its Ver), with `extra` writes (its NoDuplication values), and
 * keeps it in the recycle bin in the same transaction (lib/sites/recycle-bin-store.ts).
 */
export async function deleteRecord(
  record: ItemRecord,
  extra: readonly TransactItem[] = [],
  deleter?: number,
): Promise<void> {
  await write(
    [...deletion(record, deleter), count(record, -1), statusCount(record, -1), ...extra],
    'version',
  );
  await historyBinned([record]);
}

/**
 * The history of records just binned expires with their entries. After the transaction: should this fail,
 * the bin's stream still removes the history when the entry goes for good (functions/recycle-bin.ts).
 */
async function historyBinned(records: readonly ItemRecord[]): Promise<void> {
  const expiresAt = expiryOf(now());
  // A few at a time: a bulk delete of thousands of records reads as many histories (one Query each).
  for (let start = 0; start < records.length; start += 16) {
    await Promise.all(
      records
        .slice(start, start + 16)
        .map((record) => expireVersions(record.tenantId, record.siteId, record.recordId, expiresAt)),
    );
  }
}

/**
 * Deletes records of one site, each only if unchanged since read (its Ver), with their permission rows,
 * in transactions of at most 90 records and the site's counts: each transaction is whole, a later one may
 * still find a record changed (404).
 */
export async function deleteRecords(
  records: readonly ItemRecord[],
  extraOf: (record: ItemRecord) => readonly TransactItem[] = () => [],
  deleter?: number,
): Promise<void> {
  let part: ItemRecord[] = [];
  let size = 0;
  const flush = async () => {
    const [first] = part;
    if (first)
      await write(
        [
          ...part.flatMap((record) => [...deletion(record, deleter), ...extraOf(record)]),
          count(first, -part.length),
          ...statusCounts(part, -1),
        ],
        'version',
      );
    await historyBinned(part);
    part = [];
    size = 0;
  };
  for (const record of records) {
    // Room for the site count and one count per Status among them.
    const cost = deletion(record).length + extraOf(record).length + 1;
    if (size + cost > 90) await flush();
    part.push(record);
    size += cost;
  }
  await flush();
}

/** A record's deletion: its item, its permission rows, and its entry in the recycle bin. */
function deletion(record: ItemRecord, deleter?: number): TransactItem[] {
  return [
    ...binWrites(fromRecord(record), deleter === undefined ? {} : { deleter }),
    {
      Delete: {
        TableName: table(),
        Key: itemKeys.item(record.tenantId, record.recordId),
        ConditionExpression: 'Ver = :ver',
        ExpressionAttributeValues: { ':ver': record.ver },
      },
    },
    ...permissionRowWrites(record, undefined),
  ];
}

/**
 * Puts a binned record back (lib/items/recycle-bin.ts) in a live site, counted again, with its permission
 * rows and `extra` writes (its NoDuplication values taken again, its bin entry removed). `Restored` marks
 * the INSERT for the Items stream's consumers: notifications send no create notice for it.
 */
export async function restoreRecord(record: ItemRecord, extra: readonly TransactItem[]): Promise<void> {
  await write([...newRecordWrites(record, { ...fromRecord(record), Restored: true }), ...extra], 'site');
}

/**
 * Takes entries out of the recycle bin (a purge, or a site's restore) with the parts of
 * lib/sites/recycle-bin-store.ts unbinWrites; false when an entry changed or left meanwhile.
 */
export async function unbin(parts: readonly TransactItem[]): Promise<boolean> {
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: [...parts] }));
    return true;
  } catch (error) {
    if (isConditionFailure(error) || isTransactionConflict(error)) return false;
    throw error;
  }
}

/** A record to write in a batch: new (`before` absent) or replacing `before` if unchanged since read. */
export interface RecordWrite {
  readonly before?: ItemRecord;
  readonly after: ItemRecord;
  readonly extra: readonly TransactItem[];
}

/**
 * Writes records of one live site in transactions of up to 80 items, with the site's counts moved once
 * per transaction: each transaction is whole; a later one failing leaves the earlier ones written.
 */
export async function writeRecords(site: Site, writes: readonly RecordWrite[]): Promise<void> {
  let chunk: RecordWrite[] = [];
  let size = 0;
  // The keys the chunk's extra parts name: a transaction may name an item once (two records moving one
  // NoDuplication value, one letting it go and the other taking it, go in two transactions).
  const named = new Set<string>();
  const flush = async () => {
    if (chunk.length > 0) await write(recordWrites(site, chunk), 'version');
    chunk = [];
    size = 0;
    named.clear();
  };
  for (const next of writes) {
    const cost =
      1 +
      next.extra.length +
      permissionRowWrites(next.before, next.after).length +
      (next.before ? versionKept(next.before, next.after).length : 0);
    const keys = next.extra.flatMap(keyOf);
    const repeated =
      chunk.some((other) => other.after.recordId === next.after.recordId) ||
      keys.some((key) => named.has(key));
    if (repeated || size + cost > 80) await flush();
    chunk.push(next);
    size += cost;
    for (const key of keys) named.add(key);
  }
  await flush();
}

function recordWrites(site: Site, writes: readonly RecordWrite[]): TransactItem[] {
  const created = writes.filter((w) => !w.before).length;
  const statusDeltas = new Map<number, number>();
  const move = (record: ItemRecord, delta: number) =>
    statusDeltas.set(record.status ?? 0, (statusDeltas.get(record.status ?? 0) ?? 0) + delta);
  const items: TransactItem[] = [
    {
      ConditionCheck: {
        TableName: table(),
        Key: itemKeys.item(site.tenantId, site.siteId),
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(Deleting)',
      },
    },
  ];
  for (const { before, after, extra } of writes) {
    const item = fromRecord(after);
    assertItemSize(item);
    items.push({
      Put: before
        ? {
            TableName: table(),
            Item: item,
            ConditionExpression: 'Ver = :ver',
            ExpressionAttributeValues: { ':ver': before.ver },
          }
        : { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
    });
    items.push(...permissionRowWrites(before, after), ...extra);
    if (before) items.push(...versionKept(before, after));
    if (before) move(before, -1);
    move(after, 1);
  }
  const [first] = writes;
  if (first && created > 0) items.push(count(first.after, created));
  for (const [status, delta] of statusDeltas) {
    if (delta === 0) continue;
    items.push({
      Update: {
        TableName: table(),
        Key: itemKeys.statusCount(site.tenantId, site.siteId, status),
        UpdateExpression: 'ADD #count :delta',
        ExpressionAttributeNames: { '#count': 'Count' },
        ExpressionAttributeValues: { ':delta': delta },
      },
    });
  }
  return items;
}

/**
 * Records created in bulk outside transactions (an import's plain new records, lib/imports/page-writer.ts,
 * put by BatchWriteItem): their items, and the parts that check the site is live and move its counts once
 * for all of them, for the caller's own transaction.
 */
export function bulkCreation(
  site: Site,
  records: readonly ItemRecord[],
): { items: Record<string, unknown>[]; counts: TransactItem[] } {
  const [first] = records;
  if (!first) return { items: [], counts: [] };
  const items = records.map((record) => {
    const item = fromRecord(record);
    assertItemSize(item);
    return item;
  });
  const live: TransactItem = {
    ConditionCheck: {
      TableName: table(),
      Key: itemKeys.item(site.tenantId, site.siteId),
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(Deleting)',
    },
  };
  return { items, counts: [live, count(first, records.length), ...statusCounts(records, 1)] };
}

/** A record written plainly (no file, NoDuplication or permission rows go with it): bulkCreation may put it. */
export function isPlainCreation(write: RecordWrite): boolean {
  return (
    !write.before && write.extra.length === 0 && permissionRowWrites(undefined, write.after).length === 0
  );
}

export async function recordCount(site: Site): Promise<number> {
  const result = await dynamo().send(
    new GetCommand({ TableName: table(), Key: itemKeys.recordCount(site.tenantId, site.siteId) }),
  );
  return Math.max(0, Number(result.Item?.Count ?? 0));
}

/** One page of a site's records in id order: keys from the index, then the items by key. */
export async function recordPage(site: Site, offset: number, pageSize: number): Promise<ItemRecord[]> {
  return recordsByKeys(
    await queryKeys(recordsOf(site.tenantId, site.siteId), { skip: offset, limit: pageSize }),
  );
}

/** The keys of a site's first `limit` records, in id order (the Contents index sorts by id). */
export function recordKeys(site: Site, limit: number): Promise<Key[]> {
  return queryKeys(recordsOf(site.tenantId, site.siteId), { limit });
}

/** The records of `keys` that still exist, in id order. */
export async function recordsByKeys(keys: readonly Key[]): Promise<ItemRecord[]> {
  const items = await batchGet(keys);
  return items
    .filter((item) => item.Kind === 'record')
    .map(toRecord)
    .sort((a, b) => a.recordId - b.recordId);
}

/** The write that keeps `before` as a history row, when the update to `after` is a version up. */
function versionKept(before: ItemRecord, after: ItemRecord): TransactItem[] {
  return after.version > before.version ? [keepVersion(fromRecord(before))] : [];
}

function count(record: ItemRecord, delta: number): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: itemKeys.recordCount(record.tenantId, record.siteId),
      UpdateExpression: 'ADD #count :delta',
      ExpressionAttributeNames: { '#count': 'Count' },
      ExpressionAttributeValues: { ':delta': delta },
    },
  };
}

/** A site's count of records of one Status (keys.ts statusCount), moved with the record writes. */
function statusCount(record: ItemRecord, delta: number): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: itemKeys.statusCount(record.tenantId, record.siteId, record.status ?? 0),
      UpdateExpression: 'ADD #count :delta',
      ExpressionAttributeNames: { '#count': 'Count' },
      ExpressionAttributeValues: { ':delta': delta },
    },
  };
}

/** One count update per Status among `records` (a transaction may name an item once). */
function statusCounts(records: readonly ItemRecord[], sign: number): TransactItem[] {
  const byStatus = new Map<number, { record: ItemRecord; count: number }>();
  for (const record of records) {
    const entry = byStatus.get(record.status ?? 0) ?? { record, count: 0 };
    entry.count++;
    byStatus.set(record.status ?? 0, entry);
  }
  return [...byStatus.values()].map(({ record, count }) => statusCount(record, sign * count));
}

/** The Status values the site's records have (those whose count is above 0). */
export async function statusesOf(site: Site): Promise<number[]> {
  const prefix = 'RECORDCOUNT#S';
  const result = await queryItems({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': itemKeys.item(site.tenantId, site.siteId).pk, ':prefix': prefix },
  });
  return result
    .filter((item) => Number(item.Count) > 0)
    .map((item) => Number(String(item.sk).slice(prefix.length)));
}

/** The counts of a site's records with each of `statuses`, summed. */
export async function statusCountOf(site: Site, statuses: readonly number[]): Promise<number> {
  const items = await batchGet(
    statuses.map((status) => itemKeys.statusCount(site.tenantId, site.siteId, status)),
  );
  return items.reduce((sum, item) => sum + Math.max(0, Number(item.Count ?? 0)), 0);
}

/**
 * A failed condition means the site is gone (an insert) or the record changed since it was read (its
 * Ver: an update or a delete, which the caller then re-reads and re-applies). A transaction conflict is a
 * race lost to another writer either way.
 */
async function write(items: TransactItem[], checked: 'site' | 'version', racedAt?: number): Promise<void> {
  if (items.length > MAX_TRANSACTION_ITEMS) {
    throw new BadRequestError(
      `the write takes ${items.length} parts of one transaction, over the ${MAX_TRANSACTION_ITEMS} DynamoDB allows: change fewer files at once`,
    );
  }
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (isTransactionConflict(error)) throw new ConcurrentChangeError('a concurrent transaction');
    if (!isConditionFailure(error)) throw error;
    // A guarded part's error when only guarded parts failed; any other failure (the record changed, an
    // upsert's keys taken) is a race the caller re-reads for, which decides the guarded parts again.
    const failed = failedConditions(error).map((index) => {
      const part = items[index];
      return part && conditionErrors.get(part);
    });
    const [guard] = failed;
    if (guard && failed.every(Boolean)) throw guard();
    if (racedAt !== undefined && failedConditions(error).includes(racedAt))
      throw new ConcurrentChangeError('another request claimed the upsert keys');
    if (checked === 'site') throw new NotFoundError('the site vanished or is being deleted');
    throw new ConcurrentChangeError('the record changed since it was read');
  }
}

/** The `pk`/`sk` a Put, Delete or Update part names. */
function keyOf(item: TransactItem): string[] {
  const key = item.Put?.Item ?? item.Delete?.Key ?? item.Update?.Key ?? item.ConditionCheck?.Key;
  return key ? [`${String(key.pk)}\n${String(key.sk)}`] : [];
}

export function fromRecord(record: ItemRecord): Record<string, unknown> {
  return {
    ...itemKeys.item(record.tenantId, record.recordId),
    Kind: 'record',
    ContainerKey: containerKeys.records(record.tenantId, record.siteId),
    OrderKey: orderKey(record.recordId),
    RecentKey: recentKey(record.updatedAt, record.recordId),
    StatusKey: statusKey(record.tenantId, record.siteId, record.status ?? 0),
    RecordId: record.recordId,
    TenantId: record.tenantId,
    SiteId: record.siteId,
    Title: record.title,
    ItemTitle: record.itemTitle,
    Body: record.body,
    Status: record.status,
    Manager: record.manager,
    Owner: record.owner,
    StartTime: record.startTime,
    CompletionTime: record.completionTime,
    WorkValue: record.workValue,
    ProgressRate: record.progressRate,
    Comments: record.comments?.length ? record.comments : undefined,
    RecordPermissions: record.permissions?.length ? [...record.permissions] : undefined,
    // Empty maps are left out (toRecord restores them): the local stream poller's SDK reads an empty map
    // back as no value at all, which stream handlers then fail to unmarshall.
    Fields: nonEmpty(record.fields),
    Locked: record.locked,
    LockedBy: record.lockedBy,
    LockedAt: record.lockedAt,
    Creator: record.creator,
    Updator: record.updator,
    CreatedAt: record.createdAt,
    UpdatedAt: record.updatedAt,
    Ver: record.ver,
    Version: record.version,
  };
}

function nonEmpty(fields: RecordFields): Partial<RecordFields> | undefined {
  const families = Object.entries(fields).filter(([, values]) => Object.keys(values).length > 0);
  return families.length > 0 ? Object.fromEntries(families) : undefined;
}

export function toRecord(item: Record<string, unknown>): ItemRecord {
  const fields = (item.Fields ?? {}) as Partial<RecordFields>;
  return {
    recordId: Number(item.RecordId),
    tenantId: Number(item.TenantId),
    siteId: Number(item.SiteId),
    title: String(item.Title ?? ''),
    ...(typeof item.ItemTitle === 'string' && { itemTitle: item.ItemTitle }),
    body: typeof item.Body === 'string' ? item.Body : undefined,
    status: typeof item.Status === 'number' ? item.Status : undefined,
    fields: {
      Class: fields.Class ?? {},
      Num: fields.Num ?? {},
      Date: fields.Date ?? {},
      Description: fields.Description ?? {},
      Check: fields.Check ?? {},
      Attachments: fields.Attachments ?? {},
    },
    manager: optionalNumber(item.Manager),
    owner: optionalNumber(item.Owner),
    startTime: optionalNumber(item.StartTime),
    completionTime: optionalNumber(item.CompletionTime),
    workValue: optionalNumber(item.WorkValue),
    progressRate: optionalNumber(item.ProgressRate),
    comments: Array.isArray(item.Comments) ? (item.Comments as ItemRecord['comments']) : undefined,
    permissions: Array.isArray(item.RecordPermissions) ? item.RecordPermissions.map(String) : undefined,
    locked: item.Locked === true,
    lockedBy: typeof item.LockedBy === 'number' ? item.LockedBy : undefined,
    lockedAt: typeof item.LockedAt === 'number' ? item.LockedAt : undefined,
    creator: Number(item.Creator),
    updator: Number(item.Updator),
    createdAt: Number(item.CreatedAt),
    updatedAt: Number(item.UpdatedAt),
    ver: Number(item.Ver),
    // Records written before versions were kept answered their write counter as Ver: they go on from it.
    version: Number(item.Version ?? item.Ver),
  };
}

function optionalNumber(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}
