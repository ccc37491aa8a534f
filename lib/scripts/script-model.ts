import { editorColumnNames } from '../columns/layouts';
import type { ItemRecord } from '../items/model';
import { columnsOf, remainingWorkValue } from '../items/view/columns';
import type { ReferenceType, Site } from '../sites/model';
import { formatLocal, parseDateTime, UNSET_DATE } from '../zoned-time';
import type { FlatModel } from './model';

/** The reference names a record's id by its table. */
const ID_NAMES: Partial<Record<ReferenceType, string>> = {
  Issues: 'IssueId',
  Results: 'ResultId',
  Wikis: 'WikiId',
};

/**
 * `model` and `saved` as a condition's scripts see them (reference/pleasanter-script-objects.md 4): the
 * reference's keys with its values, not the API's answer. Dates are instants, ISO text here that the
 * prelude makes JS Dates (the reference's scripts get .NET DateTimes as UTC Dates); a date never set is
 * the reference's 1899-12-30 in the caller's zone. CompletionTime is the stored value, a date-only one a
 * day after what the API shows, as in the reference. `Attachments*` and `Comments` are JSON text.
 * A column of the site's editor that the record has no value for shows the reference's empty value ('',
 * 0 or null for a Nullable Num, false, the unset date), one outside the editor is absent. Kiroku has no
 * column access controls: the caller reads every column, so none is null for that reason.
 */
export function scriptModel(site: Site, record: ItemRecord, zone: string): FlatModel {
  const unset = parseDateTime(UNSET_DATE, zone) ?? 0;
  const instant = (time: number | undefined) => new Date(time ?? unset).toISOString();
  const { fields } = record;
  const attachments = Object.entries(fields.Attachments).map(([name, list]) => [name, JSON.stringify(list)]);
  const model: FlatModel = {
    ReadOnly: false,
    SiteId: record.siteId,
    Title: record.title,
    Body: record.body ?? '',
    Ver: record.version,
    Creator: record.creator,
    Updator: record.updator,
    CreatedTime: instant(record.createdAt),
    UpdatedTime: instant(record.updatedAt),
    ...fields.Class,
    ...fields.Num,
    ...Object.fromEntries(Object.entries(fields.Date).map(([name, iso]) => [name, instant(Date.parse(iso))])),
    ...fields.Description,
    ...fields.Check,
    ...Object.fromEntries(attachments),
    Comments: JSON.stringify(
      (record.comments ?? []).map((comment) => ({
        CommentId: comment.commentId,
        CreatedTime: formatLocal(comment.createdAt, zone),
        Creator: comment.creator,
        Body: comment.body,
      })),
    ),
    [ID_NAMES[site.referenceType] ?? 'RecordId']: record.recordId,
  };
  const columns = columnsOf(site);
  for (const name of editorColumnNames(site.referenceType, site.siteSettings)) {
    const family = /^(Class|Num|Date|Description|Check)[A-Z]$/.exec(name)?.[1];
    if (family === undefined || Object.hasOwn(model, name)) continue;
    model[name] = {
      Class: '',
      Num: columns.get(name)?.nullable ? null : 0,
      Date: instant(undefined),
      Description: '',
      Check: false,
    }[family];
  }
  if (site.referenceType === 'Issues') {
    Object.assign(model, {
      StartTime: instant(record.startTime),
      CompletionTime: instant(record.completionTime),
      WorkValue: record.workValue ?? 0,
      ProgressRate: record.progressRate ?? 0,
      RemainingWorkValue: remainingWorkValue(record) ?? 0,
    });
  }
  return {
    ...model,
    Status: record.status ?? 0,
    Manager: record.manager ?? 0,
    Owner: record.owner ?? 0,
    Locked: record.locked,
  };
}
