import { formatLocal } from '../zoned-time';
import type { Site } from './model';

/**
 * A site as getsite shows it: the reference's site apiModel fields, PascalCase, its times in the caller's
 * zone without offset, as a record's (CONTRACT 5.1).
 */
export function siteView(site: Site, zone: string): Record<string, unknown> {
  return {
    SiteId: site.siteId,
    TenantId: site.tenantId,
    Title: site.title,
    SiteName: site.siteName,
    SiteGroupName: site.siteGroupName,
    ReferenceType: site.referenceType,
    ParentId: site.parentId,
    InheritPermission: site.inheritPermission,
    Permissions: site.permissions,
    SiteSettings: site.siteSettings,
    Creator: site.creator,
    Updator: site.updator,
    CreatedTime: formatLocal(site.createdAt, zone),
    UpdatedTime: formatLocal(site.updatedAt, zone),
    Ver: site.ver,
  };
}
