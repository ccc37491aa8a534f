import {
  GetCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConcurrentChangeError, NotFoundError } from '../errors';
import { batchGet as batchGetItems } from '../storage/batch';
import { dynamo } from '../storage/clients';
import { isConditionFailure } from '../storage/conditions';
import { assertItemSize, queryAll } from '../storage/queries';
import { isTransactionConflict } from '../storage/retry';
import { containerKeys, itemKeys, orderKey, tenantSitesKey } from './keys';
import type { ReferenceType, Site } from './model';
import { type Binning, binAll } from './recycle-bin-store';
import { batchDelete, queryKeys, recordsOf, table } from './store';
import type { Ancestor } from './tree';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export async function getSite(tenantId: number, siteId: number): Promise<Site | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: table(), Key: itemKeys.item(tenantId, siteId), ConsistentRead: true }),
  );
  return result.Item?.Kind === 'site' ? toSite(result.Item) : undefined;
}

/** Creates the site; its parent (unless top level) must still exist and not be on its way out. */
export async function insertSite(site: Site): Promise<void> {
  const item = fromSite(site);
  assertItemSize(item);
  await write(
    [
      { Put: { TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      ...parentCheck(site),
    ],
    () => new NotFoundError(`parent ${site.parentId} vanished or is being deleted`),
  );
}

/**
 * Saves the site if nobody changed it since `before` was read (its Ver). A move also gives `above`: the new
 * parent and every site above it as read, none of them the site itself. The transaction checks that each
 * still has that parent (and the new parent is live), so two concurrent moves cannot close a cycle between
 * them: whichever commits second finds a ParentId changed and the caller re-reads (ConcurrentChangeError).
 */
export async function updateSite(before: Site, after: Site, above: readonly Ancestor[] = []): Promise<void> {
  const item = fromSite(after);
  assertItemSize(item);
  await write(
    [
      {
        Put: {
          TableName: table(),
          Item: item,
          ConditionExpression: 'Ver = :ver AND attribute_not_exists(Deleting)',
          ExpressionAttributeValues: { ':ver': before.ver },
        },
      },
      ...above.map((ancestor) => ancestorCheck(after.tenantId, ancestor, ancestor.siteId === after.parentId)),
    ],
    () => new ConcurrentChangeError(`site ${after.siteId} or a site above its parent changed`),
  );
}

function ancestorCheck(tenantId: number, ancestor: Ancestor, isParent: boolean): TransactItem {
  return {
    ConditionCheck: {
      TableName: table(),
      Key: itemKeys.item(tenantId, ancestor.siteId),
      ConditionExpression: `ParentId = :parent${isParent ? ' AND attribute_not_exists(Deleting)' : ''}`,
      ExpressionAttributeValues: { ':parent': ancestor.parentId },
    },
  };
}

/** Flags the site so that no record or child site is created in it any more; false if it is gone. */
export async function markDeleting(tenantId: number, siteId: number): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: itemKeys.item(tenantId, siteId),
        UpdateExpression: 'SET Deleting = :true',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':true': true },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Counts one API call on the site for the day, unless that would pass `limit`: one conditional update, so
 * concurrent calls cannot both take the last one. The new count, or undefined when over the limit.
 */
export async function countApiCall(site: Site, day: string, limit: number): Promise<number | undefined> {
  try {
    const result = await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: itemKeys.apiCount(site.tenantId, site.siteId, day),
        UpdateExpression: 'ADD #count :one',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'Count' },
        ExpressionAttributeValues: { ':one': 1, ':limit': limit },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(result.Attributes?.Count);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** The ids of a site's child sites (0: the top-level sites), ascending. */
export async function childSiteIds(tenantId: number, parentId: number): Promise<number[]> {
  const keys = await queryKeys({
    IndexName: 'Contents',
    KeyConditionExpression: 'ContainerKey = :container',
    ExpressionAttributeValues: { ':container': containerKeys.children(tenantId, parentId) },
  });
  return keys.map((key) => Number(key.pk.slice(key.pk.lastIndexOf('#') + 1)));
}

/**
 * Removes everything stored beside the site (counters), then the site item itself, last, kept in the
 * recycle bin first (the counters, permission rows and NoDuplication values are made again by a restore).
 */
export async function deleteSiteItems(tenantId: number, siteId: number, binning: Binning): Promise<void> {
  const siteKey = itemKeys.item(tenantId, siteId);
  const site = await dynamo().send(
    new GetCommand({ TableName: table(), Key: siteKey, ConsistentRead: true }),
  );
  if (site.Item?.Kind === 'site') await binAll([site.Item], binning);
  const beside = await queryKeys({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': siteKey.pk },
  });
  await batchDelete(beside.filter((key) => key.sk !== siteKey.sk));
  await batchDelete([siteKey]);
}

/** Every site of the tenant, without SiteSettings, in id order: what a site tree is built from. */
export async function sitesOfTenant(tenantId: number): Promise<Omit<Site, 'siteSettings'>[]> {
  const sites: Omit<Site, 'siteSettings'>[] = [];
  for await (const item of queryAll({
    TableName: table(),
    IndexName: 'TenantSites',
    KeyConditionExpression: 'TenantSitesKey = :tenant',
    ExpressionAttributeValues: { ':tenant': tenantSitesKey(tenantId) },
  })) {
    sites.push(toSite(item));
  }
  return sites;
}

function parentCheck(site: Site): TransactItem[] {
  if (site.parentId === 0) return [];
  return [
    {
      ConditionCheck: {
        TableName: table(),
        Key: itemKeys.item(site.tenantId, site.parentId),
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(Deleting)',
      },
    },
  ];
}

async function write(items: TransactItem[], onConditionFailure: () => Error): Promise<void> {
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (isTransactionConflict(error)) throw new ConcurrentChangeError('a concurrent transaction');
    if (isConditionFailure(error)) throw onConditionFailure();
    throw error;
  }
}

/** SiteSettings is kept as JSON text: stored exactly as given, whatever its depth or its keys. */
export function fromSite(site: Site): Record<string, unknown> {
  return {
    ...itemKeys.item(site.tenantId, site.siteId),
    Kind: 'site',
    ContainerKey: containerKeys.children(site.tenantId, site.parentId),
    OrderKey: orderKey(site.siteId),
    TenantSitesKey: tenantSitesKey(site.tenantId),
    SiteId: site.siteId,
    TenantId: site.tenantId,
    Title: site.title,
    ReferenceType: site.referenceType,
    SiteName: site.siteName,
    SiteGroupName: site.siteGroupName,
    ParentId: site.parentId,
    InheritPermission: site.inheritPermission,
    Permissions: [...site.permissions],
    SiteSettings: JSON.stringify(site.siteSettings),
    Creator: site.creator,
    Updator: site.updator,
    CreatedAt: site.createdAt,
    UpdatedAt: site.updatedAt,
    Ver: site.ver,
    Deleting: site.deleting || undefined,
  };
}

export function toSite(item: Record<string, unknown>): Site {
  return {
    siteId: Number(item.SiteId),
    tenantId: Number(item.TenantId),
    title: String(item.Title),
    referenceType: item.ReferenceType as ReferenceType,
    siteName: typeof item.SiteName === 'string' ? item.SiteName : undefined,
    siteGroupName: typeof item.SiteGroupName === 'string' ? item.SiteGroupName : undefined,
    parentId: Number(item.ParentId),
    inheritPermission: Number(item.InheritPermission),
    permissions: Array.isArray(item.Permissions) ? item.Permissions.map(String) : [],
    siteSettings: typeof item.SiteSettings === 'string' ? JSON.parse(item.SiteSettings) : {},
    creator: Number(item.Creator),
    updator: Number(item.Updator),
    createdAt: Number(item.CreatedAt),
    updatedAt: Number(item.UpdatedAt),
    ver: Number(item.Ver),
    deleting: item.Deleting === true,
  };
}

/**
 * Deletes every record of the site, a batch at a time, until the index lists none: each batch is kept in
 * the recycle bin before it leaves the Items table, so a failure between the two loses nothing.
 */
export async function deleteRecordsOf(tenantId: number, siteId: number, binning: Binning): Promise<void> {
  for (;;) {
    const keys = await queryKeys(recordsOf(tenantId, siteId), { limit: 1000 });
    if (keys.length === 0) return;
    const items = await batchGetItems(table(), keys, { consistent: true });
    await binAll(
      items.filter((item) => item.Kind === 'record'),
      binning,
    );
    await batchDelete(keys);
  }
}
