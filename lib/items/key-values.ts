import { callerLanguage } from '../accounts/caller-language';
import type { Principal } from '../accounts/principal';
import type { Language } from '../columns/definitions';
import { type ChoiceResolver, displayValue, type Shown, type ValueForm } from '../columns/display';
import { defaultGridColumns } from '../columns/layouts';
import type { Column as ModelColumn } from '../columns/model';
import { UnsupportedInputError } from '../errors';
import type { Site } from '../sites/model';
import { formatLocal } from '../zoned-time';
import { type ChoiceNames, choiceNames, type LinkedSite, type SiteCache } from './choice-names';
import { type ItemRecord, itemTitleOf } from './model';
import { shownCompletionTime } from './record-people-and-times';
import { readerOf, recordColumns, siteModel, type Column as ViewColumn } from './view/columns';
import { isJoinedName, joinTarget, linkedId, pageParents } from './view/joins';

/**
 * `ApiDataType: "KeyValues"` (reference/pleasanter-columns.md 8): each record as one flat object of the
 * grid's columns (View.GridColumns, else the site's GridColumns, else the built-in grid), keyed by the
 * column model's LabelText in the caller's language or by ColumnName, valued by DisplayValue, Value or
 * Text (display.ts), per View and per column (ApiColumnHash). On a key clash the first column wins.
 * Names behind choices (users, depts, groups, linked records) are read in batches for the whole page.
 */

const KEY_TYPES: Record<string, 'label' | 'name'> = {
  labeltext: 'label',
  '0': 'label',
  columnname: 'name',
  '1': 'name',
};
const VALUE_TYPES: Record<string, ValueForm> = {
  displayvalue: 'DisplayValue',
  '0': 'DisplayValue',
  value: 'Value',
  '1': 'Value',
  text: 'Text',
  '2': 'Text',
};

export interface KeyValuesView {
  readonly GridColumns?: unknown;
  readonly ApiColumnKeyDisplayType?: unknown;
  readonly ApiColumnValueDisplayType?: unknown;
  readonly ApiColumnHash?: unknown;
}

function choose<T>(path: string, table: Record<string, T>, value: unknown, fallback: T): T {
  if (value === undefined || value === null) return fallback;
  const found = table[String(value).toLowerCase()];
  if (found === undefined)
    throw new UnsupportedInputError(`${path}: ${JSON.stringify(value)} is not available.`);
  return found;
}

/** One grid column: a column of the site, or a parent's column through a link (`ClassA~7,ClassB`). */
interface Planned {
  readonly name: string;
  readonly column: ModelColumn;
  readonly key: string;
  readonly form: ValueForm;
  readonly join?: {
    readonly link: ViewColumn;
    readonly linked: LinkedSite;
  };
}

/** What a View's KeyValues show, worked out before the page is read (so its site reads overlap the page's). */
export interface KeyValuesPlan {
  readonly principal: Principal;
  readonly site: Site;
  readonly zone: string;
  readonly language: Language;
  readonly columns: readonly Planned[];
  readonly names: ChoiceNames;
}

/** The grid's column names: the View's (each must exist), else the site's (unknown ones dropped), else the built-in list. */
function gridNames(site: Site, view: KeyValuesView, known: (name: string) => boolean): string[] {
  if (view.GridColumns !== undefined && view.GridColumns !== null) {
    if (!Array.isArray(view.GridColumns) || !view.GridColumns.every((name) => typeof name === 'string'))
      throw new UnsupportedInputError('View.GridColumns: expected a JSON list of column names.');
    return view.GridColumns;
  }
  const own = site.siteSettings.GridColumns;
  if (Array.isArray(own))
    return own.filter((name): name is string => typeof name === 'string' && known(name));
  return [...defaultGridColumns(site.referenceType)];
}

/** The records as KeyValues objects. */
export async function keyValues(
  principal: Principal,
  site: Site,
  records: readonly ItemRecord[],
  view: KeyValuesView,
  zone: string,
): Promise<Record<string, unknown>[]> {
  return keyValuesOf(await planKeyValues(principal, site, view, zone), records);
}

/**
 * The grid's columns with their keys and forms, each checked (a 400 names what is wrong); the sites their
 * links name are being read meanwhile.
 */
export async function planKeyValues(
  principal: Principal,
  site: Site,
  view: KeyValuesView,
  zone: string,
): Promise<KeyValuesPlan> {
  const language = callerLanguage(principal);
  const model = siteModel(site, language).byName;
  const viewColumns = recordColumns(site, language);
  const keyType = choose('View.ApiColumnKeyDisplayType', KEY_TYPES, view.ApiColumnKeyDisplayType, 'label');
  const valueType = choose(
    'View.ApiColumnValueDisplayType',
    VALUE_TYPES,
    view.ApiColumnValueDisplayType,
    'DisplayValue',
  );
  const perColumn = objectOf(view.ApiColumnHash);
  const names = gridNames(site, view, (name) => model.has(name) || isJoinedName(name));
  const plan: Planned[] = [];
  const sites: SiteCache = new Map();
  const lookups = choiceNames(principal, sites);
  for (const name of names) {
    const own = objectOf(perColumn[name]);
    const path = `View.ApiColumnHash.${name}`;
    const key = choose(`${path}.KeyDisplayType`, KEY_TYPES, own.KeyDisplayType, keyType);
    const form = choose(`${path}.ValueDisplayType`, VALUE_TYPES, own.ValueDisplayType, valueType);
    if (isJoinedName(name)) {
      const joined = joinTarget(principal, viewColumns, 'View.GridColumns', name, language, sites);
      // A parent's column the site's own GridColumns name that no longer resolves (its link changed) is
      // dropped, as the reference drops unknown grid columns; one the View names is refused.
      const fromView = view.GridColumns !== undefined && view.GridColumns !== null;
      const resolved = fromView ? await joined : await joined.catch(() => undefined);
      if (!resolved) continue;
      const { link, target, linked } = resolved;
      const column = target.model as ModelColumn;
      lookups.prepare(column);
      plan.push({
        name,
        column,
        key: key === 'name' ? name : column.labelText,
        form,
        join: { link, linked },
      });
      continue;
    }
    const column = model.get(name);
    if (!column) throw new UnsupportedInputError(`View.GridColumns: this site has no column ${name}.`);
    if (form !== 'Value') lookups.prepare(column);
    plan.push({ name, column, key: key === 'name' ? name : column.labelText, form });
  }
  return { principal, site, zone, language, columns: plan, names: lookups };
}

/** The page's records as KeyValues objects: parents and names read in batches, then every cell shown. */
export async function keyValuesOf(
  plan: KeyValuesPlan,
  records: readonly ItemRecord[],
): Promise<Record<string, unknown>[]> {
  const { principal, site, zone, language, names: lookups } = plan;
  const parentsOf = new Map(
    await Promise.all(
      plan.columns.flatMap((planned) =>
        planned.join
          ? [
              pageParents(principal, planned.join.link, planned.join.linked, records).then(
                (parents) => [planned, parents] as const,
              ),
            ]
          : [],
      ),
    ),
  );
  const rows = records.map((record) =>
    plan.columns.map((planned): Cell => {
      const source = sourceOf(planned, record, parentsOf.get(planned));
      if (source === undefined || source === 'unreadable') return source ?? 'none';
      // A parent's CompletionTime is shown by its own site's format.
      const from = planned.join ? (planned.join.linked.site as Site) : site;
      const value = rawValue(planned.column, source, planned.form, from, zone);
      if (planned.form !== 'Value') lookups.need(planned.column, value);
      return { value };
    }),
  );
  await lookups.load();
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    plan.columns.forEach((planned, at) => {
      // On a key clash the first column wins, as in the reference (AddIfNotConainsKey).
      if (planned.key in row) return;
      const cell = values[at];
      // A parent the caller may not read shows as an unreadable column does: "".
      if (cell === 'unreadable') row[planned.key] = '';
      else if (cell === 'none' || cell === undefined) row[planned.key] = null;
      else row[planned.key] = shown(planned, cell.value, language, lookups.resolve);
    });
    return row;
  });
}

/** A value to show, no parent to show it from, or a parent the caller may not read. */
type Cell = { readonly value: unknown } | 'none' | 'unreadable';

/** The record whose value a planned column shows: the record, its parent, none, or an unreadable one. */
function sourceOf(
  planned: Planned,
  record: ItemRecord,
  parents: ReadonlyMap<number, ItemRecord> | undefined,
): ItemRecord | undefined | 'unreadable' {
  const join = planned.join;
  if (!join) return record;
  const id = linkedId(join.link, record);
  if (id === undefined) return undefined;
  const parent = parents?.get(id);
  if (parent) return parent;
  return join.linked.canRead ? undefined : 'unreadable';
}

/** The value display.ts is given: dates as local wall times in the caller's zone, people as ids. */
function rawValue(
  column: ModelColumn,
  record: ItemRecord,
  form: ValueForm,
  site: Site,
  zone: string,
): unknown {
  const name = column.columnName;
  if (name === 'Title' || name === 'TitleBody') return form === 'Value' ? record.title : itemTitleOf(record);
  if (name === 'Comments') return commentsText(record, zone);
  if (column.family === 'Attachments') {
    const files = record.fields.Attachments[name];
    return files && files.length > 0 ? JSON.stringify(files) : undefined;
  }
  const value = readerOf(column)?.(record);
  if (column.kind === 'date') {
    if (typeof value !== 'number') return undefined;
    // CompletionTime shown as a date is stored a day later; Value answers it as stored (pleasanter-columns.md 8).
    const instant =
      name === 'CompletionTime' && form !== 'Value' ? shownCompletionTime(site, value, zone) : value;
    return formatLocal(instant, zone);
  }
  if (column.kind === 'user') return value ?? 0;
  if (column.kind === 'check') return value ?? false;
  return value;
}

function shown(planned: Planned, value: unknown, language: Language, resolve: ChoiceResolver): Shown {
  if (planned.column.columnName === 'Comments' || planned.column.family === 'Attachments')
    return (value as string | undefined) ?? null;
  return displayValue(planned.column, value, language, planned.form, resolve);
}

/** Comments as the record answer gives them: JSON text, newest first. */
function commentsText(record: ItemRecord, zone: string): string | undefined {
  if (!record.comments?.length) return undefined;
  return JSON.stringify(
    record.comments.map((comment) => ({
      CommentId: comment.commentId,
      CreatedTime: formatLocal(comment.createdAt, zone),
      Creator: comment.creator,
      Body: comment.body,
    })),
  );
}

function objectOf(value: unknown): Record<string, Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, Record<string, unknown>>)
    : {};
}
