import type { ReferenceType, Site } from '../sites/model';
import { formatLocal, UNSET_DATE } from '../zoned-time';
import { type ItemRecord, itemTitleOf } from './model';
import { shownCompletionTime } from './record-people-and-times';
import { remainingWorkValue } from './view/columns';

/** The reference names a record's id by its table: IssueId, ResultId, WikiId. */
const idName: Partial<Record<ReferenceType, string>> = {
  Issues: 'IssueId',
  Results: 'ResultId',
  Wikis: 'WikiId',
};

/**
 * A record as the reference's API returns it (ApiVersion 1.1), in its property order: the field families
 * as hashes, dates as wall times of the caller's zone without offset (CONTRACT 5.1).
 */
export function recordView(site: Site, record: ItemRecord, zone: string): Record<string, unknown> {
  const { fields } = record;
  const hash = (values: Record<string, unknown>) => (Object.keys(values).length > 0 ? values : undefined);
  const time = (instant: number | undefined) =>
    instant === undefined ? UNSET_DATE : formatLocal(instant, zone, true);
  const issues = site.referenceType === 'Issues';
  const dates = Object.fromEntries(
    Object.entries(fields.Date).map(([name, iso]) => [name, formatLocal(Date.parse(iso), zone)]),
  );
  return {
    SiteId: record.siteId,
    UpdatedTime: time(record.updatedAt),
    [idName[site.referenceType] ?? 'RecordId']: record.recordId,
    Ver: record.version,
    Title: record.title,
    Body: record.body,
    ...(issues && {
      StartTime: time(record.startTime),
      CompletionTime: time(
        record.completionTime === undefined
          ? undefined
          : shownCompletionTime(site, record.completionTime, zone),
      ),
      WorkValue: record.workValue ?? 0,
      ProgressRate: record.progressRate ?? 0,
      RemainingWorkValue: remainingWorkValue(record) ?? 0,
    }),
    Status: record.status,
    Manager: record.manager ?? 0,
    Owner: record.owner ?? 0,
    Locked: record.locked,
    // JSON text, newest first, as the reference answers it.
    Comments: record.comments?.length
      ? JSON.stringify(
          record.comments.map((comment) => ({
            CommentId: comment.commentId,
            CreatedTime: formatLocal(comment.createdAt, zone),
            Creator: comment.creator,
            Body: comment.body,
          })),
        )
      : undefined,
    Creator: record.creator,
    Updator: record.updator,
    CreatedTime: time(record.createdAt),
    ItemTitle: itemTitleOf(record),
    // Set by the read that knows the version asked; here only to hold its place in the order.
    ApiVersion: undefined,
    ClassHash: hash(fields.Class),
    NumHash: hash(fields.Num),
    DateHash: hash(dates),
    DescriptionHash: hash(fields.Description),
    CheckHash: hash(fields.Check),
    AttachmentsHash: hash(fields.Attachments),
  };
}

const hashNames = ['ClassHash', 'NumHash', 'DateHash', 'DescriptionHash', 'CheckHash', 'AttachmentsHash'];

/**
 * A record as ApiVersion below 1.1 answers it (reference 1.2): the hashes' entries as flat properties
 * (`ClassA`, `NumB`...), attachments as a JSON string, the hashes dropped.
 */
export function legacyRecordView(view: Record<string, unknown>): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(view)) {
    if (!hashNames.includes(name)) {
      flat[name] = value;
      continue;
    }
    for (const [column, entry] of Object.entries((value ?? {}) as Record<string, unknown>)) {
      flat[column] = name === 'AttachmentsHash' ? JSON.stringify(entry) : entry;
    }
  }
  return flat;
}
