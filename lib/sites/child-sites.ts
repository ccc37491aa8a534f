import type { Principal } from '../accounts/principal';
import type { Reading } from '../results';
import type { referenceTypes } from './model';
import { Permission, requirePermission, siteInTenant, sitePermission } from './permissions';
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
