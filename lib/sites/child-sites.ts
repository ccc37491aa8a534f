import { callerZone } from '../accounts/caller-zone';
import type { Principal } from '../accounts/principal';
import type { Reading } from '../results';
import { formatLocal } from '../zoned-time';
import type { referenceTypes } from './model';
import { Permission, requirePermission, siteInTenant, sitePermission } from './permissions';
import { deletedChildEntries, storedItemOf } from './recycle-bin-store';
import * as repository from './repository';

/** One child site as the site tree shows it, with what the caller may do there. */
export interface ChildSite {
  readonly SiteId: number;
  readonly ParentId: number;
  readonly Title: string;
  readonly ReferenceType: (typeof referenceTypes)[number];
  readonly SiteName?: string;
  /** The caller's permission bits on the site (lib/sites/permissions.ts). */
  readonly Permission: number;
  /** A deleted site's: when, in the caller's zone, and by whom. */
  readonly DeletedTime?: string;
  readonly Deleter?: number;
}

/**
 * `items/{id}/childsites` (Kiroku's addition, for the browser UI's site tree): the sites directly under
 * `{id}` (0: the top level) that the caller can read, in id order. Reading the folder itself needs Read,
 * as getsite does; the top level is every user's.
 */
export async function childSites(
  principal: Principal,
  parentId: number,
): Promise<Reading<{ Data: ChildSite[] }>> {
  if (parentId !== 0)
    await requirePermission(principal, await siteInTenant(principal, parentId), Permission.Read);
  const children = (await repository.sitesOfTenant(principal.tenantId)).filter(
    (site) => site.parentId === parentId && !site.deleting,
  );
  const data: ChildSite[] = [];
  for (const child of children) {
    const bits = await sitePermission(principal, { ...child, siteSettings: {} });
    if ((bits & Permission.Read) === 0) continue;
    data.push({
      SiteId: child.siteId,
      ParentId: child.parentId,
      Title: child.title,
      ReferenceType: child.referenceType,
      SiteName: child.siteName,
      Permission: bits,
    });
  }
  return { response: { Data: data } };
}

/**
 * `items/{id}/childsites` with `TableType: "Deleted"`: the folder's recycle bin (CONTRACT 15), the sites a
 * `deletesite` took from directly under `{id}` (0: the top level), with when and by whom, those the caller
 * may restore (ManageSite on the site, as `restore` asks: lib/items/recycle-bin.ts), in id order. Reading
 * the folder itself needs Read, as for its current sites.
 */
export async function deletedChildSites(
  principal: Principal,
  parentId: number,
): Promise<Reading<{ Data: ChildSite[] }>> {
  if (parentId !== 0)
    await requirePermission(principal, await siteInTenant(principal, parentId), Permission.Read);
  const zone = callerZone(principal);
  const data: ChildSite[] = [];
  for (const entry of await deletedChildEntries(principal.tenantId, parentId)) {
    const site = repository.toSite(storedItemOf(entry));
    const bits = await sitePermission(principal, site);
    if ((bits & Permission.ManageSite) === 0) continue;
    data.push({
      SiteId: site.siteId,
      ParentId: site.parentId,
      Title: site.title,
      ReferenceType: site.referenceType,
      SiteName: site.siteName,
      Permission: bits,
      DeletedTime: formatLocal(Number(entry.DeletedAt), zone),
      ...(entry.Deleter !== undefined && { Deleter: Number(entry.Deleter) }),
    });
  }
  return { response: { Data: data } };
}
