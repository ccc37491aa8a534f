import type { Language } from '../columns/definitions';
import { type ChoiceResolver, displayValue, formatDate } from '../columns/display';
import type { Column } from '../columns/model';
import type { ItemRecord } from '../items/model';
import { readerOf } from '../items/view/columns';
import { formatLocal } from '../zoned-time';

/**
 * A record's value as a notice shows it (the reference's `ToNotice`): the column model's text in the
 * site's language and the zone, names behind ids through `resolve`; nothing for an empty value.
 */
export interface ValueContext {
  readonly language: Language;
  readonly zone: string;
  readonly resolve?: ChoiceResolver;
}

export function noticeValue(column: Column, record: ItemRecord, context: ValueContext): string {
  if (column.kind === 'comments') return record.comments?.[0]?.body ?? '';
  if (column.kind === 'attachments') {
    const files = record.fields.Attachments[column.columnName] ?? [];
    return files.map((file) => file.Name).join(', ');
  }
  const raw = readerOf(column)?.(record);
  if (raw === undefined || raw === null) return '';
  if (column.kind === 'date') {
    if (typeof raw !== 'number') return '';
    return formatDate(formatLocal(raw, context.zone), column.editorFormat ?? 'Ymd', context.language);
  }
  if (column.kind === 'check') return raw === true ? '✓' : '';
  const shown = displayValue(column, raw, context.language, 'Text', context.resolve);
  return shown === null ? '' : String(shown);
}

/** The stored value's identity, to tell whether an update changed the column. */
export function valueKey(column: Column, record: ItemRecord | undefined): string {
  if (!record) return '';
  if (column.kind === 'comments') return JSON.stringify(record.comments?.map((c) => [c.commentId, c.body]));
  if (column.kind === 'attachments')
    return JSON.stringify(record.fields.Attachments[column.columnName]?.map((file) => file.Guid) ?? []);
  const raw = readerOf(column)?.(record);
  return raw === undefined || raw === null || raw === '' ? '' : JSON.stringify(raw);
}
