import { choiceSources, staticChoices } from '../../lib/columns/choices';
import type { Column } from '../../lib/columns/model';
import { t } from './i18n';
import type { RecordData } from './model';

/**
 * The record form's values per column: read from a record (or a column's default for a new one), checked
 * as the reference's browser checks them (ValidateRequired, Min, Max: the API does not), and written into
 * the API's request (top-level fields, or the family's hash).
 */

export const UNSET_DATE = '1899-12-30T00:00:00';
const FAMILY_HASH: Record<string, string> = {
  Class: 'ClassHash',
  Num: 'NumHash',
  Date: 'DateHash',
  Description: 'DescriptionHash',
  Check: 'CheckHash',
  Attachments: 'AttachmentsHash',
};
/** Shown, never written by the form. */
const COMPUTED = new Set([
  'Creator',
  'Updator',
  'CreatedTime',
  'UpdatedTime',
  'RemainingWorkValue',
  'TitleBody',
]);

export type FormValue = string | boolean | readonly unknown[];

/**
 * RemainingWorkValue as the form's WorkValue and ProgressRate give it now, WorkValue × (100 − ProgressRate)
 * / 100 as the server computes it: '' while WorkValue is empty or not a number.
 */
export function remainingWork(values: Readonly<Record<string, FormValue>>): string {
  const work = Number(values.WorkValue);
  if (values.WorkValue === '' || values.WorkValue === undefined || !Number.isFinite(work)) return '';
  const rate = Number(values.ProgressRate || 0);
  return String((work * (100 - (Number.isFinite(rate) ? rate : 0))) / 100);
}

export function storedValue(record: RecordData | undefined, column: Column): unknown {
  if (!record) return undefined;
  const hash = column.family
    ? (record[FAMILY_HASH[column.family] as string] as Record<string, unknown>)
    : undefined;
  return hash?.[column.columnName] ?? record[column.columnName];
}

/**
 * Whether the column's editor takes a date without its time: its EditorFormat is the reference's Ymd (or
 * a display format without hours), not Ymdhm or Ymdhms.
 */
export function dateOnly(column: Column): boolean {
  return !/hm/.test(column.editorFormat ?? 'Ymd');
}

/**
 * `yyyy-MM-ddTHH:mm:ss` (the caller's zone) → the value of a date input (`yyyy-MM-dd`) or a datetime-local
 * one (`yyyy-MM-ddTHH:mm`), '' when unset.
 */
export function toInput(value: unknown, onlyDate = false): string {
  if (typeof value !== 'string' || value.startsWith('1899-12-30')) return '';
  return value.slice(0, onlyDate ? 10 : 16);
}

export function fromInput(value: string): string {
  if (!value) return UNSET_DATE;
  if (value.length === 10) return `${value}T00:00:00`;
  return value.length === 16 ? `${value}:00` : value;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date DefaultInput is a day offset from today (reference 4). */
function dayFromToday(days: number, onlyDate: boolean): string {
  const day = new Date();
  day.setDate(day.getDate() + days);
  const date = `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
  return onlyDate ? date : `${date}T00:00`;
}

/** The form's value of a column: the record's, or for a new record the column's DefaultInput. */
export function initialValue(column: Column, record: RecordData | undefined, userId: number): FormValue {
  const stored = storedValue(record, column);
  const fallback = record ? undefined : column.defaultInput;
  switch (column.kind) {
    case 'check':
      return record ? stored === true : ['1', '-1', 'true', 'on'].includes((fallback ?? '').toLowerCase());
    case 'date':
      if (record) return toInput(stored, dateOnly(column));
      return fallback && /^-?\d+$/.test(fallback.trim())
        ? dayFromToday(Number(fallback), dateOnly(column))
        : '';
    case 'attachments':
      return (stored as unknown[] | undefined) ?? [];
    case 'user':
      if (record) return String(stored ?? 0);
      return fallback === '[[Self]]' ? String(userId) : fallback && /^\d+$/.test(fallback) ? fallback : '0';
    case 'comments':
      return '';
    default:
      if (record) return stored === undefined || stored === null ? '' : String(stored);
      if (
        column.kind === 'text' &&
        fallback === '[[Self]]' &&
        choiceSources(column.choices).some((s) => s.kind === 'users')
      )
        return String(userId);
      return fallback ?? '';
  }
}

/** Whether the form writes the column: placed, not read-only, and not one the server computes. */
export function writable(column: Column): boolean {
  return (
    !column.editorReadOnly &&
    column.kind !== 'id' &&
    column.kind !== 'version' &&
    column.kind !== 'titleBody' &&
    !COMPUTED.has(column.columnName)
  );
}

const blank = (value: FormValue | undefined) =>
  value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** The reference's client-side messages by column name, for the columns that fail. */
export function validate(columns: readonly Column[], values: Record<string, FormValue>): Map<string, string> {
  const words = t();
  const problems = new Map<string, string>();
  for (const column of columns) {
    if (!writable(column)) continue;
    const value = values[column.columnName];
    const empty = blank(value) || (column.kind === 'user' && value === '0');
    if (column.validateRequired && column.kind !== 'check' && empty) {
      problems.set(column.columnName, words.validateRequired);
      continue;
    }
    if (column.kind === 'number' && !empty) {
      const number = Number(value);
      if (column.min !== undefined && number < column.min)
        problems.set(column.columnName, words.validateMinNumber);
      else if (column.max !== undefined && number > column.max)
        problems.set(column.columnName, words.validateMaxNumber);
    }
  }
  return problems;
}

/** The request fields of the writable columns placed on the form. */
export function requestFields(
  columns: readonly Column[],
  values: Record<string, FormValue>,
  record: RecordData | undefined,
): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const column of columns) {
    if (!writable(column)) continue;
    const name = column.columnName;
    const value = values[name];
    let target = request;
    if (column.family) {
      const hash = FAMILY_HASH[column.family] as string;
      target = (request[hash] ?? {}) as Record<string, unknown>;
      request[hash] = target;
    }
    switch (column.kind) {
      case 'comments':
        if (value) request.Comments = value;
        break;
      case 'date':
        target[name] = fromInput(String(value ?? ''));
        break;
      case 'number':
        if (value !== '' && value !== undefined) target[name] = Number(value);
        else if (column.nullable) target[name] = null;
        break;
      case 'status':
        if (value !== '' && value !== undefined) target[name] = Number(value);
        break;
      case 'user':
        target[name] = Number(value ?? 0);
        break;
      case 'check':
        target[name] = value === true;
        break;
      case 'attachments':
        target[name] = attachmentsRequest(value as AttachmentValue[], storedValue(record, column));
        break;
      default:
        target[name] = value ?? '';
    }
  }
  return request;
}

interface AttachmentValue {
  readonly Guid: string;
  readonly Name: string;
  readonly Added?: boolean;
}

/** A write keeps the files it does not name, so a file taken off the list is named as deleted. */
function attachmentsRequest(entries: readonly AttachmentValue[], stored: unknown): unknown[] {
  const kept = new Set(entries.map((entry) => entry.Guid));
  return [
    ...entries.map((entry) =>
      entry.Added
        ? { Guid: entry.Guid, Name: entry.Name, Added: true }
        : { Guid: entry.Guid, Name: entry.Name },
    ),
    ...((stored as AttachmentValue[] | undefined) ?? [])
      .filter((entry) => !kept.has(entry.Guid))
      .map((entry) => ({ Guid: entry.Guid, Deleted: true })),
  ];
}

/** The static choices of a column as options, the stored value kept when the list no longer has it. */
export function choiceOptions(column: Column, value: string): { value: string; text: string }[] {
  const options = staticChoices(column.choices).map((choice) => ({ value: choice.value, text: choice.text }));
  if (value !== '' && !options.some((option) => option.value === value))
    options.unshift({ value, text: `? ${value}` });
  return options;
}

/**
 * The column a refusal of the API is about, found by the message the reference gives (reference 5): a
 * 409 names the column's label or gives its MessageWhenDuplicated, a 422 gives its RegexValidationMessage
 * or `Please enter within {MaxLength} characters.`. Undefined when no placed column gives that message.
 */
export function refusedColumn(
  columns: readonly Column[],
  statusCode: number,
  message: string,
): string | undefined {
  const found = columns.find((column) => {
    if (statusCode === 409)
      return (
        column.noDuplication &&
        (message === column.messageWhenDuplicated ||
          message === `Cannot be updated because ${column.labelText} is duplicated.` ||
          message === `Cannot be updated because ${column.labelTextDefault} is duplicated.`)
      );
    if (statusCode === 422)
      return (
        (column.serverRegexValidation !== undefined && message === column.regexValidationMessage) ||
        (column.maxLength !== undefined && message === `Please enter within ${column.maxLength} characters.`)
      );
    return false;
  });
  return found?.columnName;
}
