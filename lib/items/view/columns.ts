import { type ChoiceSource, choiceSources } from '../../columns/choices';
import type { Language } from '../../columns/definitions';
import {
  type Column as ModelColumn,
  columnsOf as modelColumnsOf,
  type ResolvedColumns,
} from '../../columns/model';
import type { Site } from '../../sites/model';
import { type ItemRecord, itemTitleOf } from '../model';

/**
 * The columns a View may name, by the site's kind, each with how the reference filters and sorts it
 * (its CsTypeSummary: numeric, date, bool or string, and for strings whether it has choices). Every
 * record column comes from the column model (lib/columns/model.ts): the site's `SiteSettings.Columns`
 * merged over the built-in definitions, so a Class column with choices filters as a choice column, and
 * Nullable, MultipleSelections and EditorFormat are the merged column's.
 */

export type ColumnKind = 'numeric' | 'user' | 'date' | 'bool' | 'text' | 'choices';

/** A value as filters and sorters see it: numbers, instants (epoch ms), booleans, text; absent = null. */
export type ColumnValue = number | boolean | string | undefined;

/** Whose names a column's values are: the manual forbids negative filters on these (pleasanter-columns.md 9). */
export type PeopleKind = 'User' | 'Group' | 'Dept';

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
  /** Records: the column model's column (label, choices, display). */
  readonly model?: ModelColumn;
  /** A Class column whose choices link to other sites: their ids. */
  readonly linkSiteIds?: readonly number[];
  /** A column of user, group or dept ids. */
  readonly people?: PeopleKind;
  /** A link column: sorted by its parent's title (View.cs OrderBy), where the parents were read. */
  readonly sortRead?: (record: R) => ColumnValue;
  /** TitleBody: the second sort key after the title. */
  readonly thenBy?: (record: R) => ColumnValue;
  /**
   * A parent's column (`ClassA~7,ClassB`): false where the record links to a parent the caller may not
   * read. Such a record never matches a filter on the column, negated or not.
   */
  readonly readable?: (record: R) => boolean;
}

const isoTime = (value: string | undefined) => (value === undefined ? undefined : Date.parse(value));

/** The id column's name by the site kind, as the reference names it. */
export function idColumnName(site: Pick<Site, 'referenceType'>): string {
  return site.referenceType === 'Issues' ? 'IssueId' : site.referenceType === 'Wikis' ? 'WikiId' : 'ResultId';
}

/** WorkValue × (100 − ProgressRate) / 100, as the reference computes it. */
export function remainingWorkValue(record: ItemRecord): number | undefined {
  if (record.workValue === undefined) return undefined;
  return (record.workValue * (100 - (record.progressRate ?? 0))) / 100;
}

type Reader = (record: ItemRecord) => ColumnValue;

/** How a built-in column is read from a record; the A–Z families are read by their family. */
const BUILT_IN: Readonly<Record<string, Reader>> = {
  Ver: (r) => r.version,
  Title: (r) => r.title,
  Body: (r) => r.body,
  Status: (r) => r.status,
  Manager: (r) => r.manager,
  Owner: (r) => r.owner,
  Creator: (r) => r.creator,
  Updator: (r) => r.updator,
  CreatedTime: (r) => r.createdAt,
  UpdatedTime: (r) => r.updatedAt,
  Locked: (r) => r.locked,
  StartTime: (r) => r.startTime,
  CompletionTime: (r) => r.completionTime,
  WorkValue: (r) => r.workValue,
  ProgressRate: (r) => r.progressRate,
  RemainingWorkValue: remainingWorkValue,
  TitleBody: (r) => r.title,
};

/** How a model column's value is read from a record; undefined for Comments and Attachments. */
export function readerOf(column: ModelColumn): Reader | undefined {
  const name = column.columnName;
  if (column.kind === 'id') return (r) => r.recordId;
  switch (column.family) {
    case 'Class':
      return (r) => r.fields.Class[name];
    case 'Num':
      return (r) => r.fields.Num[name];
    case 'Date':
      return (r) => isoTime(r.fields.Date[name]);
    case 'Description':
      return (r) => r.fields.Description[name];
    case 'Check':
      return (r) => r.fields.Check[name];
    case 'Attachments':
      return undefined;
  }
  return BUILT_IN[name];
}

function kindOf(column: ModelColumn): ColumnKind | undefined {
  switch (column.kind) {
    case 'id':
    case 'version':
    case 'number':
    case 'status':
      return 'numeric';
    case 'user':
      return 'user';
    case 'date':
      return 'date';
    case 'check':
      return 'bool';
    case 'text':
      return column.family === 'Class' && column.choices.entries.length > 0 ? 'choices' : 'text';
    case 'description':
    case 'titleBody':
      return 'text';
    default:
      // Comments and Attachments are not filtered or sorted.
      return undefined;
  }
}

/** User, group or dept ids: the person columns, and Class columns whose choices are such a list. */
export function peopleOf(column: ModelColumn): PeopleKind | undefined {
  if (column.kind === 'user') return 'User';
  if (column.family !== 'Class') return undefined;
  const kinds = choiceSources(column.choices).map(peopleSource);
  return kinds.find((kind) => kind !== undefined);
}

function peopleSource(source: ChoiceSource): PeopleKind | undefined {
  if (source.kind === 'users') return 'User';
  if (source.kind === 'groups') return 'Group';
  if (source.kind === 'depts') return 'Dept';
  if (source.kind === 'link' && source.tableName) return source.tableName.slice(0, -1) as PeopleKind;
  return undefined;
}

/** The sites a Class column's choices link to (`[[7]]`, or the JSON form's SiteId). */
export function linkSiteIdsOf(column: ModelColumn): number[] {
  return choiceSources(column.choices).flatMap((source) =>
    source.kind === 'link' && source.siteId !== undefined ? [source.siteId] : [],
  );
}

/**
 * A site's merged columns (the column model) in a language. Merging parses every column's ChoicesText,
 * so the answer is kept by the site's Columns as text: a request reads its site afresh, but a table's
 * design changes rarely. The newest designs are kept, a bounded number.
 */
export function siteModel(
  site: Pick<Site, 'referenceType' | 'siteSettings'>,
  language: Language,
): ResolvedColumns {
  const siteColumns = Array.isArray(site.siteSettings.Columns) ? site.siteSettings.Columns : undefined;
  if (!siteColumns || siteColumns.length === 0)
    return modelColumnsOf(site.referenceType, undefined, language);
  const key = `${site.referenceType}:${language}:${JSON.stringify(siteColumns)}`;
  let model = models.get(key);
  if (model) models.delete(key);
  else model = modelColumnsOf(site.referenceType, siteColumns, language);
  models.set(key, model);
  if (models.size > MODELS_KEPT) models.delete(models.keys().next().value as string);
  return model;
}

const MODELS_KEPT = 200;
const models = new Map<string, ResolvedColumns>();

/** The record columns of a site in the model's order, for views (Title as its composite ItemTitle). */
export function recordColumns(
  site: Pick<Site, 'referenceType' | 'siteSettings'>,
  language: Language = 'ja',
  title: 'raw' | 'item' = 'raw',
): ReadonlyMap<string, Column> {
  const model = siteModel(site, language);
  const key = `${language}:${title}`;
  const known = viewColumns.get(model)?.get(key);
  if (known) return known;
  const columns = buildColumns(model, title);
  const byKey = viewColumns.get(model) ?? new Map<string, ReadonlyMap<string, Column>>();
  byKey.set(key, columns);
  viewColumns.set(model, byKey);
  return columns;
}

/** The view columns of each kept model, by language and title reading. */
const viewColumns = new WeakMap<ResolvedColumns, Map<string, ReadonlyMap<string, Column>>>();

function buildColumns(model: ResolvedColumns, title: 'raw' | 'item'): ReadonlyMap<string, Column> {
  const columns = new Map<string, Column>();
  for (const column of model.list) {
    const kind = kindOf(column);
    let read = readerOf(column);
    if (!kind || !read) continue;
    // The reference filters and sorts Title on Items.Title, the composite title (Column.TableItemTitleCases).
    if (title === 'item' && (column.columnName === 'Title' || column.columnName === 'TitleBody'))
      read = itemTitleOf;
    const searchType = searchTypeOf(column.site?.SearchType) ?? 1;
    const links = column.family === 'Class' ? linkSiteIdsOf(column) : [];
    const people = peopleOf(column);
    columns.set(column.columnName, {
      name: column.columnName,
      kind,
      nullable: column.nullable,
      multiple: column.multipleSelections,
      searchType,
      dateOnly: column.editorFormat === 'Ymd',
      read,
      model: column,
      ...(links.length > 0 && { linkSiteIds: links }),
      ...(people && { people }),
      ...(column.columnName === 'TitleBody' && { thenBy: (r: ItemRecord) => r.body }),
    });
  }
  return columns;
}

/**
 * Every column of the site's kind, by name (names are case-sensitive, as the reference's lookup), with
 * Title read as stored: what upsert Keys compare (the reference's upsert matches Title, not ItemTitle).
 */
export function columnsOf(site: Pick<Site, 'referenceType' | 'siteSettings'>): ReadonlyMap<string, Column> {
  return recordColumns(site);
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
