import type { Principal } from '../accounts/principal';
import { DATE_FORMATS, type DateFormat, type Language } from '../columns/definitions';
import { defaultEditorColumns, defaultGridColumns } from '../columns/layouts';
import type { Column, ResolvedColumns } from '../columns/model';
import { UnsupportedInputError } from '../errors';
import { tableDesign } from '../items/record-design';
import type { Site } from '../sites/model';
import type { ExportColumnPlan, ExportForm } from './cells';
import type { ExportSettings } from './schemas';

/**
 * Which export runs (reference note §1, `api.Export ?? ss.GetExport(ExportId)`): the body's inline Export
 * as given, else the site's saved `SiteSettings.Exports` entry of that Id that the caller may use, else
 * the standard export (the editor's and the grid's columns, then Creator, Updator and UpdatedTime; no
 * Ver). Whatever it cannot apply exactly is a 400 naming it (an inline Export without Columns, an unknown
 * column, a Type or Format it does not know), where the reference fails with a 500 or skips it.
 */

export interface ExportDefinition {
  /** The export's Name, part of the file's name (the standard export has none). */
  readonly name: string;
  readonly type: 'csv' | 'json';
  readonly header: boolean;
  readonly delimiter: ',' | '\t';
  readonly quote: boolean;
  readonly columns: readonly ExportColumnPlan[];
}

const TYPES: Readonly<Record<string, 'csv' | 'json'>> = { csv: 'csv', '0': 'csv', json: 'json', '1': 'json' };
const DELIMITERS: Readonly<Record<string, ',' | '\t'>> = { comma: ',', '0': ',', tab: '\t', '1': '\t' };
// ExportColumn.Types: Text 0 (the default), Value 1, TextMini 2.
const FORMS: Readonly<Record<string, ExportForm>> = {
  text: 'Text',
  '0': 'Text',
  value: 'Value',
  '1': 'Value',
  textmini: 'TextMini',
  '2': 'TextMini',
};

function pick<T>(path: string, table: Readonly<Record<string, T>>, value: unknown, fallback: T): T {
  if (value === undefined || value === null) return fallback;
  const found = table[String(value).trim().toLowerCase()];
  if (found === undefined) {
    const known = [...new Set(Object.keys(table).filter((key) => !/^\d$/.test(key)))].join(', ');
    throw new UnsupportedInputError(`${path}: ${JSON.stringify(value)} is not one of ${known}.`);
  }
  return found;
}

export function exportDefinition(
  principal: Principal,
  site: Site,
  language: Language,
  input: { readonly Export?: ExportSettings | null; readonly ExportId?: number },
): ExportDefinition {
  const { columns } = tableDesign(site, language);
  if (input.Export) return fromSettings(input.Export, columns, 'Export');
  const saved = savedExport(principal, site, input.ExportId);
  if (saved) return fromSettings(saved.settings, columns, saved.path, true);
  return standardExport(site, columns);
}

function fromSettings(
  settings: ExportSettings,
  columns: ResolvedColumns,
  path: string,
  saved = false,
): ExportDefinition {
  if (!settings.Columns) throw new UnsupportedInputError(`${path}.Columns: required, the columns to export.`);
  const plans = settings.Columns.flatMap((entry, index): ExportColumnPlan[] => {
    const at = `${path}.Columns[${index}]`;
    const column = columns.byName.get(String(entry.ColumnName));
    if (!column) {
      // A saved export may outlive a column; the body's own must name real ones.
      if (saved) return [];
      throw new UnsupportedInputError(`${at}.ColumnName: this site has no column ${entry.ColumnName}.`);
    }
    if (column.kind === 'attachments') return [];
    return [
      {
        column,
        label: entry.LabelText ?? column.labelText,
        form: pick(`${at}.Type`, FORMS, entry.Type, 'Text'),
        format: formatOf(`${at}.Format`, entry.Format),
        outputClassColumn: entry.OutputClassColumn === true,
        jsonFormat: entry.ExportJsonFormat === true,
      },
    ];
  });
  return {
    name: settings.Name ?? '',
    type: pick(`${path}.Type`, TYPES, settings.Type, 'csv'),
    header: settings.Header ?? true,
    delimiter: pick(`${path}.DelimiterType`, DELIMITERS, settings.DelimiterType, ','),
    quote: settings.EncloseDoubleQuotes ?? true,
    columns: plans,
  };
}

function formatOf(path: string, value: string | null | undefined): DateFormat | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const found = DATE_FORMATS.find((format) => format.toLowerCase() === value.trim().toLowerCase());
  if (!found) throw new UnsupportedInputError(`${path}: ${value} is not one of ${DATE_FORMATS.join(', ')}.`);
  return found;
}

/**
 * The saved export of that Id the caller may use: one whose Users, Groups and Depts lists are all empty,
 * or whose Users list names them (Kiroku does not read the caller's groups and depts here: such an entry
 * is not offered, and the standard export runs, as the reference falls back for an inaccessible one).
 */
function savedExport(
  principal: Principal,
  site: Site,
  id: number | undefined,
): { settings: ExportSettings; path: string } | undefined {
  if (id === undefined || id === 0) return undefined;
  const exports = site.siteSettings.Exports;
  if (!Array.isArray(exports)) return undefined;
  const index = exports.findIndex(
    (entry) => typeof entry === 'object' && entry !== null && Number((entry as { Id?: unknown }).Id) === id,
  );
  const entry = exports[index] as Record<string, unknown> | undefined;
  if (!entry) return undefined;
  const listed = (key: string) => (Array.isArray(entry[key]) ? (entry[key] as unknown[]) : []);
  const open = listed('Users').length + listed('Groups').length + listed('Depts').length === 0;
  const named = listed('Users').some((user) => Number(user) === principal.userId);
  if (!open && !named && !principal.tenantManager && !principal.privileged) return undefined;
  return { settings: entry as ExportSettings, path: `SiteSettings.Exports[${index}]` };
}

/** The editor's columns, then the grid's, then Creator, Updator and UpdatedTime, each once; no Ver. */
function standardExport(site: Site, columns: ResolvedColumns): ExportDefinition {
  const settings = site.siteSettings;
  const editor = editorNames(settings.EditorColumnHash) ?? defaultEditorColumns(site.referenceType);
  const grid = Array.isArray(settings.GridColumns)
    ? settings.GridColumns.filter((name): name is string => typeof name === 'string')
    : defaultGridColumns(site.referenceType);
  const names = new Set<string>();
  const plans: ExportColumnPlan[] = [];
  for (const name of [...editor, ...grid, 'Creator', 'Updator', 'UpdatedTime']) {
    const column: Column | undefined = columns.byName.get(name === 'TitleBody' ? 'Title' : name);
    if (!column || names.has(column.columnName)) continue;
    if (column.kind === 'version' || column.kind === 'attachments') continue;
    names.add(column.columnName);
    plans.push({
      column,
      label: column.labelText,
      form: 'Text',
      outputClassColumn: false,
      jsonFormat: false,
    });
  }
  return { name: '', type: 'csv', header: true, delimiter: ',', quote: true, columns: plans };
}

function editorNames(hash: unknown): string[] | undefined {
  if (typeof hash !== 'object' || hash === null || Array.isArray(hash)) return undefined;
  return Object.values(hash as Record<string, unknown>).flatMap((tab) =>
    Array.isArray(tab) ? tab.filter((name): name is string => typeof name === 'string') : [],
  );
}
