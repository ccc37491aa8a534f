import { getUser } from '../accounts/repository';
import { UnsupportedInputError } from '../errors';
import type { Site } from '../sites/model';
import { formatLocal, wallTime } from '../zoned-time';
import type { ItemRecord } from './model';
import { shownCompletionTime } from './record-people-and-times';
import { type Column, columnsOf, idColumnName } from './view/columns';

/**
 * `ApiDataType: "KeyValues"` (reference/pleasanter-items-api.md 2.3): each record as one flat object of
 * the grid's columns, keyed by label or column name, valued by display value or raw value, per View or
 * per column (ApiColumnHash). The grid text display type (2) is not available and is refused.
 */

const KEY_TYPES: Record<string, 'label' | 'name'> = {
  labeltext: 'label',
  '0': 'label',
  columnname: 'name',
  '1': 'name',
};
const VALUE_TYPES: Record<string, 'display' | 'value'> = {
  displayvalue: 'display',
  '0': 'display',
  value: 'value',
  '1': 'value',
};

/** The reference's English default labels of the built-in columns. */
const LABELS: Record<string, string> = {
  ResultId: 'ID',
  IssueId: 'ID',
  WikiId: 'ID',
  Ver: 'Ver',
  Title: 'Title',
  Body: 'Content',
  Status: 'Status',
  Manager: 'Manager',
  Owner: 'Owner',
  Creator: 'Created by',
  Updator: 'Updated by',
  CreatedTime: 'Created',
  UpdatedTime: 'Updated',
  Locked: 'Lock',
  StartTime: 'Start',
  CompletionTime: 'Completion time',
  WorkValue: 'Work value',
  ProgressRate: 'Progress rate',
  RemainingWorkValue: 'Remaining work value',
};
const FAMILY_LABELS: Record<string, string> = {
  Class: 'Classification',
  Num: 'Numeric',
  Date: 'Date',
  Description: 'Description',
  Check: 'Check',
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

function columnSettings(site: Site): Map<string, Record<string, unknown>> {
  const list = Array.isArray(site.siteSettings.Columns) ? site.siteSettings.Columns : [];
  return new Map(
    list
      .filter((entry): entry is Record<string, unknown> => typeof entry?.ColumnName === 'string')
      .map((entry) => [entry.ColumnName as string, entry]),
  );
}

function gridColumns(site: Site, view: KeyValuesView, columns: ReadonlyMap<string, Column>): Column[] {
  const given = view.GridColumns ?? site.siteSettings.GridColumns;
  const names = Array.isArray(given)
    ? given.map(String)
    : [idColumnName(site), 'Title', 'Status', 'Manager', 'Owner', 'UpdatedTime'];
  return names.map((name) => {
    const column = columns.get(name);
    if (!column) throw new UnsupportedInputError(`View.GridColumns: this site has no column ${name}.`);
    return column;
  });
}

/** The records as KeyValues objects. */
export async function keyValues(
  site: Site,
  records: readonly ItemRecord[],
  view: KeyValuesView,
  zone: string,
): Promise<Record<string, unknown>[]> {
  const columns = columnsOf(site);
  const settings = columnSettings(site);
  const grid = gridColumns(site, view, columns);
  const keyType = choose('View.ApiColumnKeyDisplayType', KEY_TYPES, view.ApiColumnKeyDisplayType, 'label');
  const valueType = choose(
    'View.ApiColumnValueDisplayType',
    VALUE_TYPES,
    view.ApiColumnValueDisplayType,
    'display',
  );
  const perColumn = (view.ApiColumnHash ?? {}) as Record<
    string,
    { KeyDisplayType?: unknown; ValueDisplayType?: unknown }
  >;
  const plan = grid.map((column) => {
    const own = perColumn[column.name] ?? {};
    const path = `View.ApiColumnHash.${column.name}`;
    const key = choose(`${path}.KeyDisplayType`, KEY_TYPES, own.KeyDisplayType, keyType);
    const label = settings.get(column.name)?.LabelText;
    return {
      column,
      key: key === 'name' ? column.name : typeof label === 'string' ? label : defaultLabel(column.name),
      value: choose(`${path}.ValueDisplayType`, VALUE_TYPES, own.ValueDisplayType, valueType),
      choices: choicesOf(settings.get(column.name)?.ChoicesText),
      format: String(settings.get(column.name)?.EditorFormat ?? 'Ymd'),
    };
  });
  const names = new Map<number, string>();
  for (const record of records) {
    for (const { column, value } of plan) {
      const id = column.read(record);
      if (
        value === 'display' &&
        column.kind === 'user' &&
        typeof id === 'number' &&
        id > 0 &&
        !names.has(id)
      ) {
        const user = await getUser(id);
        names.set(id, user && user.tenantId === site.tenantId ? user.name : '');
      }
    }
  }
  return records.map((record) => {
    const row: Record<string, unknown> = {};
    for (const { column, key, value, choices, format } of plan) {
      // On a key clash the first column wins, as in the reference.
      if (key in row) continue;
      row[key] = cell(site, record, column, value, choices, format, names, zone);
    }
    return row;
  });
}

function cell(
  site: Site,
  record: ItemRecord,
  column: Column,
  type: 'display' | 'value',
  choices: ReadonlyMap<string, string>,
  format: string,
  names: ReadonlyMap<number, string>,
  zone: string,
): unknown {
  let raw = column.read(record);
  if (column.kind === 'date') {
    // Null, left out of the answer (CONTRACT 1).
    if (typeof raw !== 'number') return null;
    if (column.name === 'CompletionTime') raw = shownCompletionTime(site, raw, zone);
    return type === 'value' ? formatLocal(raw, zone) : displayDate(raw, format, zone);
  }
  // A number that is not nullable is 0 when empty, as the reference stores it.
  if (raw === undefined && (column.kind === 'numeric' || column.kind === 'user') && !column.nullable) raw = 0;
  if (column.kind === 'user' && type === 'display')
    return typeof raw === 'number' ? (names.get(raw) ?? '') : '';
  if (type === 'value' || raw === undefined) return raw ?? null;
  if (column.kind === 'choices' || choices.size > 0) return choices.get(String(raw)) ?? raw;
  return raw;
}

/** Choices as `value,text` lines; a line without a comma is both. */
function choicesOf(text: unknown): Map<string, string> {
  const choices = new Map<string, string>();
  if (typeof text !== 'string') return choices;
  for (const line of text.split('\n')) {
    const [value = '', label] = line.split(',');
    if (value.trim() !== '') choices.set(value.trim(), (label ?? value).trim());
  }
  return choices;
}

function displayDate(instant: number, format: string, zone: string): string {
  const t = wallTime(instant, zone);
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${t.year}/${pad(t.month)}/${pad(t.day)}`;
  if (format === 'Ymdhm') return `${date} ${pad(t.hour)}:${pad(t.minute)}`;
  if (format === 'Ymdhms') return `${date} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
  return date;
}

function defaultLabel(name: string): string {
  const own = LABELS[name];
  if (own) return own;
  const family = name.slice(0, -1);
  return `${FAMILY_LABELS[family] ?? family} ${name.slice(-1)}`;
}
