import type { Site } from './model';

const iso = (time: number) => new Date(time).toISOString();

/** A site as getsite shows it: the reference's site apiModel fields, PascalCase. */
export function siteView(site: Site): Record<string, unknown> {
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
    CreatedTime: iso(site.createdAt),
    UpdatedTime: iso(site.updatedAt),
    Ver: site.ver,
  };
}
