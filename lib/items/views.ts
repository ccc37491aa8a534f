import type { ReferenceType, Site } from '../sites/model';
import type { ItemRecord } from './model';

const iso = (time: number) => new Date(time).toISOString();

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
