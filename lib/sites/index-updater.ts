import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { loadIndexForUpdate, saveIndex } from './index-store';
import type { Site } from './model';
import { buildNameIndex, type SiteEntry } from './name-index';
import { applySiteChanges, type SiteChange } from './name-index-updates';
import { sitesOfTenant } from './repository';

/**
 * Keeps each tenant's site-name index current from the Items table's stream: a site created, renamed,
 * regrouped, moved, re-typed or deleted changes its tenant's index; anything else (records, counters, a
 * site's title or permissions, which lookups check on the live site) is ignored.
 */

/** The changes a batch of stream records makes to each tenant's index, in stream order. */
export function siteChangesOf(records: readonly DynamoDBRecord[]): Map<number, SiteChange[]> {
  const byTenant = new Map<number, SiteChange[]>();
  for (const record of records) {
    const before = siteImage(record.dynamodb?.OldImage);
    const after = siteImage(record.dynamodb?.NewImage);
    const tenantId = after?.tenantId ?? before?.tenantId;
    if (tenantId === undefined) continue;
    let change: SiteChange | undefined;
    if (after) {
      if (!before || !sameEntry(before.entry, after.entry)) change = { kind: 'put', site: after.entry };
    } else if (before) change = { kind: 'remove', siteId: before.entry.siteId };
    if (!change) continue;
    const list = byTenant.get(tenantId) ?? [];
    list.push(change);
    byTenant.set(tenantId, list);
  }
  return byTenant;
}

const ATTEMPTS = 5;

/**
 * Applies the changes to the tenant's stored index as a new version. The first index of a tenant is built
 * from its sites (the changes are applied on top: the sites index may not show the newest write yet).
 * A concurrent writer makes the save fail; the changes are then applied again to what it stored.
 */
export async function updateTenantIndex(tenantId: number, changes: readonly SiteChange[]): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await loadIndexForUpdate(tenantId);
    const index = current?.index ?? buildNameIndex((await sitesOfTenant(tenantId)).map(entryOf), 0);
    applySiteChanges(index, changes, (current?.pointer.version ?? 0) + 1);
    if (await saveIndex(tenantId, index, current?.pointer)) return index.version;
  }
  throw new Error(
    `the site-name index of tenant ${tenantId} could not be saved: too many concurrent writers`,
  );
}

function siteImage(image: Record<string, AttributeValue> | undefined) {
  if (!image) return undefined;
  const item = unmarshall(image as Record<string, SdkAttributeValue>);
  if (item.Kind !== 'site') return undefined;
  return { tenantId: Number(item.TenantId), entry: entryOfItem(item) };
}

/** A site as the index sees it, from the domain type (a rebuild) ... */
function entryOf(
  site: Pick<Site, 'siteId' | 'parentId' | 'referenceType' | 'siteName' | 'siteGroupName'>,
): SiteEntry {
  const { siteId, parentId, referenceType, siteName, siteGroupName } = site;
  return { siteId, parentId, referenceType, siteName, siteGroupName };
}

/** ... or from a stream image of the Items table (lib/sites/repository.ts fromSite). */
function entryOfItem(item: Record<string, unknown>): SiteEntry {
  return {
    siteId: Number(item.SiteId),
    parentId: Number(item.ParentId ?? 0),
    referenceType: String(item.ReferenceType),
    siteName: textOrUndefined(item.SiteName),
    siteGroupName: textOrUndefined(item.SiteGroupName),
  };
}

function textOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function sameEntry(a: SiteEntry, b: SiteEntry): boolean {
  return (
    a.parentId === b.parentId &&
    a.referenceType === b.referenceType &&
    a.siteName === b.siteName &&
    a.siteGroupName === b.siteGroupName
  );
}
