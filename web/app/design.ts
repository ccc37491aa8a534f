import { definitionsOf, type ReferenceType } from '../../lib/columns/definitions';
import { defaultEditorColumns, defaultGridColumns } from '../../lib/columns/layouts';
import { type Column, columnsOf, mergeColumn, type ResolvedColumns } from '../../lib/columns/model';
import { language } from './i18n';
import type { Site } from './model';

/**
 * A table's design as the pages read and write it (CONTRACT 11): the column model of lib/columns over the
 * site's `Columns`, the editor's columns (`EditorColumnHash`, else the legacy `EditorColumns`, else the
 * reference's defaults), its sections (`_Section-N` entries named by `Sections`), and the grid's columns
 * (`GridColumns`, else the defaults). Writing back keeps every stored property the pages do not edit.
 */

export type TableType = Extract<ReferenceType, 'Issues' | 'Results' | 'Wikis'>;

export const SECTION = /^_Section-(\d+)$/;

export interface Section {
  readonly Id: number;
  readonly LabelText?: string;
  readonly [key: string]: unknown;
}

export interface Tab {
  readonly key: string;
  readonly label: string;
  readonly names: readonly string[];
}

export interface Design {
  readonly columns: ResolvedColumns;
  /** The General tab, then the others in their stored order. */
  readonly tabs: readonly Tab[];
  readonly sections: readonly Section[];
  readonly grid: readonly string[];
}

export function isTable(type: string): type is TableType {
  return type === 'Issues' || type === 'Results' || type === 'Wikis';
}

const names = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : undefined;

/** The site's `Columns` entries, as stored. */
export function columnEntries(site: Site): Record<string, unknown>[] {
  const columns = site.SiteSettings.Columns;
  return Array.isArray(columns)
    ? columns.filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null)
    : [];
}

export function sectionsOf(settings: Record<string, unknown>): Section[] {
  const sections = settings.Sections;
  return Array.isArray(sections)
    ? sections.filter((section): section is Section => typeof section?.Id === 'number')
    : [];
}

/** EditorColumnHash's tabs, the legacy flat list as General, or the defaults. */
export function editorTabs(settings: Record<string, unknown>, type: TableType): Tab[] {
  const hash = settings.EditorColumnHash;
  const tabLabels = new Map<string, string>();
  if (Array.isArray(settings.Tabs))
    for (const tab of settings.Tabs as { Id?: number; LabelText?: string }[])
      if (typeof tab?.Id === 'number') tabLabels.set(`_Tab-${tab.Id}`, tab.LabelText ?? `${tab.Id}`);
  if (typeof hash === 'object' && hash !== null && !Array.isArray(hash)) {
    const entries = Object.entries(hash as Record<string, unknown>);
    const general = names((hash as Record<string, unknown>).General) ?? [];
    return [
      { key: 'General', label: 'General', names: general },
      ...entries
        .filter(([key]) => key !== 'General')
        .map(([key, list]) => ({ key, label: tabLabels.get(key) ?? key, names: names(list) ?? [] })),
    ];
  }
  return [
    { key: 'General', label: 'General', names: names(settings.EditorColumns) ?? defaultEditorColumns(type) },
  ];
}

export function designOf(site: Site): Design {
  const type = site.ReferenceType as TableType;
  const settings = site.SiteSettings;
  return {
    columns: columnsOf(type, columnEntries(site), language()),
    tabs: editorTabs(settings, type),
    sections: sectionsOf(settings),
    grid: names(settings.GridColumns) ?? defaultGridColumns(type),
  };
}

/** A section's heading: its LabelText, else its entry name. */
export function sectionLabel(sections: readonly Section[], name: string): string {
  const id = Number(SECTION.exec(name)?.[1]);
  return sections.find((section) => section.Id === id)?.LabelText || name;
}

/** The properties the column editor sets, with the JSON type the reference stores. */
export const EDITED = {
  LabelText: 'string',
  ChoicesText: 'string',
  DefaultInput: 'string',
  ValidateRequired: 'boolean',
  Min: 'number',
  Max: 'number',
  Step: 'number',
  DecimalPlaces: 'number',
  Unit: 'string',
  MaxLength: 'number',
  Description: 'string',
  NoDuplication: 'boolean',
  MessageWhenDuplicated: 'string',
  ServerRegexValidation: 'string',
  RegexValidationMessage: 'string',
  Hide: 'boolean',
  EditorReadOnly: 'boolean',
  MultipleSelections: 'boolean',
  Nullable: 'boolean',
  RoundingType: 'number',
  EditorFormat: 'string',
} as const;
export type Edited = keyof typeof EDITED;

/** The column as the definition alone makes it: what an entry's property is compared with. */
export function definedColumn(type: TableType, columnName: string): Column | undefined {
  const definition = definitionsOf(type).find((entry) => entry.columnName === columnName);
  return definition ? mergeColumn(definition, language()) : undefined;
}

/** The definition's value of a property, in the entry's form ('' or undefined when it has none). */
export function definedValue(column: Column, property: Edited): string | number | boolean | undefined {
  switch (property) {
    case 'LabelText':
      return column.labelTextDefault;
    case 'ChoicesText':
      return column.choicesText;
    case 'DefaultInput':
      return column.defaultInput;
    case 'ValidateRequired':
      return column.validateRequired;
    case 'Min':
      return column.min;
    case 'Max':
      return column.max;
    case 'Step':
      return column.step;
    case 'DecimalPlaces':
      return column.decimalPlaces;
    case 'Unit':
      return column.unit;
    case 'MaxLength':
      return undefined;
    case 'Description':
    case 'MessageWhenDuplicated':
    case 'ServerRegexValidation':
    case 'RegexValidationMessage':
      return '';
    case 'EditorReadOnly':
      return column.editorReadOnly;
    case 'NoDuplication':
    case 'Hide':
    case 'MultipleSelections':
    case 'Nullable':
      return false;
    case 'RoundingType':
      return 10;
    case 'EditorFormat':
      return column.editorFormat ?? '';
  }
}

/**
 * The entry with one property set as the reference records it: a value equal to the definition's (or an
 * emptied text or number field where "empty" means "the default") is removed, anything else is written.
 * A DefaultInput emptied where the definition has one is kept as `""`, which turns the default off.
 */
export function setProperty(
  entry: Record<string, unknown>,
  defined: Column,
  property: Edited,
  value: string | boolean,
): Record<string, unknown> {
  const next = { ...entry };
  const kind = EDITED[property];
  const base = definedValue(defined, property);
  let stored: unknown;
  if (kind === 'boolean') stored = value === true;
  else if (kind === 'number') stored = value === '' ? undefined : Number(value);
  else stored = value;
  const emptied = stored === undefined || (stored === '' && property !== 'DefaultInput');
  if (emptied || stored === base) delete next[property];
  else next[property] = stored;
  return next;
}

/** The stored entries without those left holding only their ColumnName. */
export function compactEntries(entries: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return entries.filter((entry) => Object.keys(entry).some((key) => key !== 'ColumnName'));
}

/** Every column a design can place in the editor (no grid-only or computed ones), in the reference's order. */
export function editorCandidates(type: TableType): string[] {
  return definitionsOf(type)
    .filter((definition) => !['titleBody'].includes(definition.kind))
    .filter(
      (definition) => !['Creator', 'Updator', 'CreatedTime', 'UpdatedTime'].includes(definition.columnName),
    )
    .map((definition) => definition.columnName);
}

/** Every column a grid can show. */
export function gridCandidates(type: TableType): string[] {
  return definitionsOf(type).map((definition) => definition.columnName);
}

/** What the site settings page edits of the design, as it will be written back. */
export interface DesignState {
  readonly entries: readonly Record<string, unknown>[];
  readonly general: readonly string[];
  readonly sections: readonly Section[];
  readonly grid: readonly string[];
}

export function designState(site: Site): DesignState {
  const type = site.ReferenceType as TableType;
  const settings = site.SiteSettings;
  return {
    entries: columnEntries(site).map((entry) => ({ ...entry })),
    general: editorTabs(settings, type)[0]?.names ?? [],
    sections: sectionsOf(settings),
    grid: names(settings.GridColumns) ?? defaultGridColumns(type),
  };
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((name, index) => name === b[index]);

/**
 * The SiteSettings with the design written in: Columns, EditorColumnHash (its other tabs kept; a legacy
 * EditorColumns list becomes its General tab, as the reference migrates it), Sections and GridColumns,
 * each only when stored before or when it differs from the defaults (the reference's diff form).
 */
export function withDesign(
  settings: Record<string, unknown>,
  type: TableType,
  state: DesignState,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...settings, Columns: compactEntries(state.entries) };
  const hash = settings.EditorColumnHash;
  const storedHash = typeof hash === 'object' && hash !== null && !Array.isArray(hash);
  if (
    storedHash ||
    settings.EditorColumns !== undefined ||
    !same(state.general, defaultEditorColumns(type))
  ) {
    next.EditorColumnHash = {
      ...(storedHash ? (hash as Record<string, unknown>) : {}),
      General: [...state.general],
    };
    delete next.EditorColumns;
  }
  const everywhere = [
    ...state.general,
    ...editorTabs(settings, type)
      .slice(1)
      .flatMap((tab) => tab.names),
  ];
  const placed = new Set(everywhere.map((name) => Number(SECTION.exec(name)?.[1])));
  const sections = state.sections.filter((section) => placed.has(section.Id));
  if (settings.Sections !== undefined || sections.length > 0) next.Sections = sections;
  if (settings.GridColumns !== undefined || !same(state.grid, defaultGridColumns(type)))
    next.GridColumns = [...state.grid];
  return next;
}
