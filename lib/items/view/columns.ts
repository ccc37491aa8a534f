import type { Site } from '../../sites/model';
import type { ItemRecord } from '../model';

/**
 * The columns a View may name, by the site's kind, each with how the reference filters and sorts it
 * (its CsTypeSummary: numeric, date, bool or string, and for strings whether it has choices). A column's
 * settings come from `SiteSettings.Columns` (`[{ColumnName, ChoicesText, MultipleSelections, Nullable,
 * SearchType, EditorFormat}]`), as the reference's site settings store them.
 */

export type ColumnKind = 'numeric' | 'user' | 'date' | 'bool' | 'text' | 'choices';

/** A value as filters and sorters see it: numbers, instants (epoch ms), booleans, text; absent = null. */
export type ColumnValue = number | boolean | string | undefined;

/** A column of any table the View filters: records, and the tenant's users, groups and depts. */
export interface Column<R = ItemRecord> {
  readonly name: string;
  readonly kind: ColumnKind;
  /** Numbers: an empty value is NULL rather than 0 (the column setting Nullable). */
  readonly nullable: boolean;
  /** Choices: the stored value is a JSON array of the chosen values. */
  readonly multiple: boolean;
  /** Text: the column's own search type, 1 (PartialMatch) unless set. */
  readonly searchType: number;
  /** CompletionTime shown as a date: stored one day later, so a date bound moves one day too. */
  readonly dateOnly: boolean;
  readonly read: (record: R) => ColumnValue;
}

const LETTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

interface ColumnSettings {
  readonly ChoicesText?: unknown;
  readonly MultipleSelections?: unknown;
  readonly Nullable?: unknown;
  readonly SearchType?: unknown;
  readonly EditorFormat?: unknown;
}

const isoTime = (value: string | undefined) => (value === undefined ? undefined : Date.parse(value));

/** The id column's name by the site kind, as the reference names it. */
export function idColumnName(site: Site): string {
  return site.referenceType === 'Issues' ? 'IssueId' : site.referenceType === 'Wikis' ? 'WikiId' : 'ResultId';
}

/** Every column of the site's kind, by name (names are case-sensitive, as the reference's lookup). */
export function columnsOf(site: Site): ReadonlyMap<string, Column> {
  const settings = settingsByColumn(site.siteSettings);
  const columns = new Map<string, Column>();
  const add = (name: string, kind: ColumnKind, read: Column['read']) => {
    const own = settings.get(name) ?? {};
    const choices = typeof own.ChoicesText === 'string' && own.ChoicesText.trim() !== '';
    columns.set(name, {
      name,
      kind: kind === 'text' && choices ? 'choices' : kind,
      nullable: own.Nullable === true,
      multiple: own.MultipleSelections === true,
      searchType: searchTypeOf(own.SearchType) ?? 1,
      dateOnly: !['Ymdhm', 'Ymdhms'].includes(String(own.EditorFormat ?? 'Ymd')),
      read,
    });
  };
  add(idColumnName(site), 'numeric', (r) => r.recordId);
  add('Ver', 'numeric', (r) => r.ver);
  add('Title', 'text', (r) => r.title);
  add('Body', 'text', (r) => r.body);
  add('Status', 'numeric', (r) => r.status);
  add('Manager', 'user', (r) => r.manager);
  add('Owner', 'user', (r) => r.owner);
  add('Creator', 'user', (r) => r.creator);
  add('Updator', 'user', (r) => r.updator);
  add('CreatedTime', 'date', (r) => r.createdAt);
  add('UpdatedTime', 'date', (r) => r.updatedAt);
  add('Locked', 'bool', (r) => r.locked);
  if (site.referenceType === 'Issues') {
    add('StartTime', 'date', (r) => r.startTime);
    add('CompletionTime', 'date', (r) => r.completionTime);
    add('WorkValue', 'numeric', (r) => r.workValue);
    add('ProgressRate', 'numeric', (r) => r.progressRate);
    add('RemainingWorkValue', 'numeric', remainingWorkValue);
  }
  for (const letter of LETTERS) {
    add(`Class${letter}`, 'text', (r) => r.fields.Class[`Class${letter}`]);
    add(`Num${letter}`, 'numeric', (r) => r.fields.Num[`Num${letter}`]);
    add(`Date${letter}`, 'date', (r) => isoTime(r.fields.Date[`Date${letter}`]));
    add(`Description${letter}`, 'text', (r) => r.fields.Description[`Description${letter}`]);
    add(`Check${letter}`, 'bool', (r) => r.fields.Check[`Check${letter}`]);
  }
  return columns;
}

/** WorkValue × (100 − ProgressRate) / 100, as the reference computes it. */
export function remainingWorkValue(record: ItemRecord): number | undefined {
  if (record.workValue === undefined) return undefined;
  return (record.workValue * (100 - (record.progressRate ?? 0))) / 100;
}

function settingsByColumn(siteSettings: Record<string, unknown>): Map<string, ColumnSettings> {
  const list = Array.isArray(siteSettings.Columns) ? siteSettings.Columns : [];
  const byName = new Map<string, ColumnSettings>();
  for (const entry of list) {
    if (typeof entry === 'object' && entry !== null && typeof entry.ColumnName === 'string') {
      byName.set(entry.ColumnName, entry as ColumnSettings);
    }
  }
  return byName;
}

/** The reference's Column.SearchTypes, by name (any case) or number. */
export const searchTypes: Readonly<Record<string, number>> = {
  partialmatch: 1,
  exactmatch: 2,
  forwardmatch: 3,
  partialmatchmultiple: 11,
  exactmatchmultiple: 12,
  forwardmatchmultiple: 13,
};

export function searchTypeOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Object.values(searchTypes).includes(value) ? value : undefined;
  if (typeof value === 'string') {
    if (/^\d+$/.test(value)) return searchTypeOf(Number(value));
    return searchTypes[value.toLowerCase()];
  }
  return undefined;
}
