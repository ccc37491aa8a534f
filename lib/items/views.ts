import type { ItemRecord, ReferenceType, Site } from './model';

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

/** The reference names a record's id by its table: IssueId, ResultId, WikiId. */
const idName: Partial<Record<ReferenceType, string>> = {
  Issues: 'IssueId',
  Results: 'ResultId',
  Wikis: 'WikiId',
};

/** A record as the reference's API returns it (ApiVersion 1.1): the field families as hashes. */
export function recordView(site: Site, record: ItemRecord): Record<string, unknown> {
  const { fields } = record;
  const hash = (values: Record<string, unknown>) => (Object.keys(values).length > 0 ? values : undefined);
  return {
    SiteId: record.siteId,
    [idName[site.referenceType] ?? 'RecordId']: record.recordId,
    Ver: record.ver,
    Title: record.title,
    Body: record.body,
    Status: record.status,
    Locked: record.locked,
    ClassHash: hash(fields.Class),
    NumHash: hash(fields.Num),
    DateHash: hash(fields.Date),
    DescriptionHash: hash(fields.Description),
    CheckHash: hash(fields.Check),
    AttachmentsHash: hash(fields.Attachments),
    Creator: record.creator,
    Updator: record.updator,
    CreatedTime: iso(record.createdAt),
    UpdatedTime: iso(record.updatedAt),
  };
}
