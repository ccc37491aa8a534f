import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../errors';
import { containerKeys, itemKeys, orderKey } from '../sites/keys';
import type { Site } from '../sites/model';
import { toSite } from '../sites/repository';
import { batchGet, type Key, queryKeys, recordsOf, table } from '../sites/store';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { assertItemSize } from '../storage/queries';
import type { ItemRecord, RecordFields } from './model';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

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
 * with it (the rows of the files it takes).
 */
export async function insertRecord(record: ItemRecord, extra: readonly TransactItem[] = []): Promise<void> {
  const item = fromRecord(record);
  assertItemSize(item);
  await write([
    {
      ConditionCheck: {
        TableName: table(),
        Key: itemKeys.item(record.tenantId, record.siteId),
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(Deleting)',
      },
    },
    { Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    count(record, 1),
    ...extra,
  ]);
}

/** Saves the record if nobody changed it since `before` was read (its Ver), with `extra` writes. */
export async function updateRecord(
  before: ItemRecord,
  after: ItemRecord,
  extra: readonly TransactItem[] = [],
): Promise<void> {
  const item = fromRecord(after);
  assertItemSize(item);
  await write([
    {
      Put: {
        TableName: table(),
        Item: item,
        ConditionExpression: 'Ver = :ver',
        ExpressionAttributeValues: { ':ver': before.ver },
      },
    },
    ...extra,
  ]);
}

export async function deleteRecord(record: ItemRecord): Promise<void> {
  await write([
    {
      Delete: {
        TableName: table(),
        Key: itemKeys.item(record.tenantId, record.recordId),
        ConditionExpression: 'Ver = :ver',
        ExpressionAttributeValues: { ':ver': record.ver },
      },
    },
    count(record, -1),
  ]);
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

async function write(items: TransactItem[]): Promise<void> {
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('the record or its site changed or vanished');
    throw error;
  }
}

export function fromRecord(record: ItemRecord): Record<string, unknown> {
  return {
    ...itemKeys.item(record.tenantId, record.recordId),
    Kind: 'record',
    ContainerKey: containerKeys.records(record.tenantId, record.siteId),
    OrderKey: orderKey(record.recordId),
    RecordId: record.recordId,
    TenantId: record.tenantId,
    SiteId: record.siteId,
    Title: record.title,
    Body: record.body,
    Status: record.status,
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
    locked: item.Locked === true,
    lockedBy: typeof item.LockedBy === 'number' ? item.LockedBy : undefined,
    lockedAt: typeof item.LockedAt === 'number' ? item.LockedAt : undefined,
    creator: Number(item.Creator),
    updator: Number(item.Updator),
    createdAt: Number(item.CreatedAt),
    updatedAt: Number(item.UpdatedAt),
    ver: Number(item.Ver),
  };
}
