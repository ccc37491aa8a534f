import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { indexAgreesWith } from './index-consistency';
import { loadIndexForUpdate, markIndexStale, saveIndex } from './index-store';
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
  return new Map(tenantChangesOf(records).map((group) => [group.tenantId, group.changes]));
}

/** A tenant's changes in a batch, with the stream records they come from (a unit of a partial batch). */
export interface TenantChanges {
  readonly tenantId: number;
  readonly records: DynamoDBRecord[];
  readonly changes: SiteChange[];
}

/** The batch's site changes by tenant, tenants in the order of their first change. */
export function tenantChangesOf(records: readonly DynamoDBRecord[]): TenantChanges[] {
  const byTenant = new Map<number, TenantChanges>();
  for (const record of records) {
    const before = siteImage(record.dynamodb?.OldImage);
    const after = siteImage(record.dynamodb?.NewImage);
    const tenantId = after?.tenantId ?? before?.tenantId;
    if (tenantId === undefined) continue;
    let change: SiteChange | undefined;
    if (after) {
      if (!before || !sameEntry(before.entry, after.entry)) {
        change = { kind: 'put', site: after.entry, before: before?.entry };
      }
    } else if (before) change = { kind: 'remove', siteId: before.entry.siteId, before: before.entry };
    if (!change) continue;
    const group = byTenant.get(tenantId) ?? { tenantId, records: [], changes: [] };
    group.records.push(record);
    group.changes.push(change);
    byTenant.set(tenantId, group);
  }
  return [...byTenant.values()];
}

const ATTEMPTS = 5;

export interface IndexUpdate {
  readonly version: number;
  /** Built afresh from the sites table rather than changed in place. */
  readonly rebuilt: boolean;
}

/**
 * Applies the changes to the tenant's stored index as a new version. The index is built from the tenant's
 * sites instead when there is none yet, when a failed batch marked it stale, or when it does not hold the
 * changed sites as their old images show them (index-consistency.ts): then it missed changes. The changes
 * are applied on top of a build (the sites index may not show the newest write yet). A concurrent writer
 * makes the save fail; the changes are then applied again to what it stored.
 */
export async function updateTenantIndex(
  tenantId: number,
  changes: readonly SiteChange[],
): Promise<IndexUpdate> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await loadIndexForUpdate(tenantId);
    const reuse = current && !current.pointer.stale && indexAgreesWith(current.index, changes);
    const index = reuse ? current.index : await buildFromSites(tenantId);
    applySiteChanges(index, changes, (current?.pointer.version ?? 0) + 1);
    if (await saveIndex(tenantId, index, current?.pointer))
      return { version: index.version, rebuilt: !reuse };
  }
  throw new Error(
    `the site-name index of tenant ${tenantId} could not be saved: too many concurrent writers`,
  );
}

/** The repair: the tenant's index built afresh from the sites table, whatever the stored one holds. */
export async function rebuildTenantIndex(tenantId: number): Promise<IndexUpdate> {
  await markIndexStale(tenantId);
  return updateTenantIndex(tenantId, []);
}

async function buildFromSites(tenantId: number) {
  return buildNameIndex((await sitesOfTenant(tenantId)).map(entryOf), 0);
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
