import type { ReferenceType } from './definitions';
import { defaultEditorColumns, defaultGridColumns } from './layouts';
import { columnsOf } from './model';
import { canonicalColumnKeys, FELL_BACK, recordedColumns, WRITTEN } from './site-settings-columns';
import { recordedLink, setLinks } from './site-settings-links';
import {
  migrateSiteSettings,
  OLDEST_MIGRATED_VERSION,
  SITE_SETTINGS_VERSION,
} from './site-settings-migration';

/**
 * SiteSettings as the reference stores them (CONTRACT 11, reference/pleasanter-columns.md 1): migrated to
 * Version 1.017, then written as `SiteSettings.RecordingData` writes them, a diff against the built-in
 * definitions. What the column model does not know (screen-only properties, site-level keys it does not
 * read) is kept verbatim. Pure: the sites that load in the tenant are given by the caller.
 */

export { linkedSiteIds } from './site-settings-links';
export { SITE_SETTINGS_VERSION } from './site-settings-migration';

type Settings = Record<string, unknown>;

export interface SettingsProblem {
  readonly property: string;
  readonly problem: string;
}

export interface NormalizeOptions {
  readonly referenceType: ReferenceType;
  readonly siteId: number;
  /** Whether a `[[siteId]]` link target loads in the caller's tenant (`SetLinks` adds only those). */
  readonly loads: (siteId: number) => boolean;
  /** The columns whose Links are made again from their ChoicesText; all of them when absent. */
  readonly linksOf?: ReadonlySet<string>;
}

const LISTS = [
  'GridColumns',
  'FilterColumns',
  'HistoryColumns',
  'LinkColumns',
  'TitleColumns',
  'EditorColumns',
];
const OBJECT_LISTS = ['Columns', 'Links', 'Sections', 'Views', 'Aggregations', 'Formulas'];
/** Lists of settings the reference writes only when they hold something. */
const DROPPED_WHEN_EMPTY = [
  ...OBJECT_LISTS,
  ...['Tabs', 'Summaries', 'Processes', 'StatusControls', 'Notifications', 'Reminders', 'Exports'],
  ...['Styles', 'Scripts', 'Htmls', 'ServerScripts', 'BulkUpdateColumns', 'RelatingColumns'],
  ...['DashboardParts', 'IntegratedSites'],
];
const LAST_LEGACY_EDITOR_VERSION = 1.016;
const DROPPED_WHEN_ZERO = ['ViewLatestId', 'SectionLatestId', 'TabLatestId', 'GridView'];
const CANONICAL = new Map(
  [...LISTS, ...DROPPED_WHEN_EMPTY, ...DROPPED_WHEN_ZERO]
    .concat(['Version', 'ReferenceType', 'SiteId', 'EditorColumnHash', 'TitleSeparator', 'AutoVerUpType'])
    .map((key) => [key.toLowerCase(), key]),
);

const isObject = (value: unknown): value is Settings =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');
const sameList = (a: unknown, b: readonly string[]) =>
  Array.isArray(a) && a.length === b.length && a.every((item, index) => item === b[index]);

/** Known keys under their own spelling (names match without case, CONTRACT 1). */
function canonicalKeys(settings: Readonly<Settings>): Settings {
  const out: Settings = {};
  for (const [key, value] of Object.entries(settings)) out[CANONICAL.get(key.toLowerCase()) ?? key] = value;
  return out;
}

/** The version rule (lib/items/record-versions.ts): Default (1), Always (2) or Disabled (3). */
export const AUTO_VER_UP_TYPES = { Default: 1, Always: 2, Disabled: 3 } as const;
export type AutoVerUpType = keyof typeof AUTO_VER_UP_TYPES;

/** What SiteSettings.AutoVerUpType may hold: the reference's numbers, or their names in any case. */
export function parseAutoVerUpType(value: unknown): AutoVerUpType | undefined {
  if (value === undefined || value === null) return 'Default';
  for (const [name, number] of Object.entries(AUTO_VER_UP_TYPES)) {
    if (value === number || (typeof value === 'string' && value.toLowerCase() === name.toLowerCase())) {
      return name as AutoVerUpType;
    }
  }
  return undefined;
}

function typeProblems(settings: Settings): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  const wrong = (key: string, problem: string) => problems.push({ property: `SiteSettings.${key}`, problem });
  for (const key of LISTS) {
    if (settings[key] != null && !isStrings(settings[key])) wrong(key, 'must be a list of column names');
  }
  for (const key of OBJECT_LISTS) {
    const value = settings[key];
    if (value != null && !(Array.isArray(value) && value.every(isObject)))
      wrong(key, 'must be a list of objects');
  }
  const hash = settings.EditorColumnHash;
  if (
    hash != null &&
    !(isObject(hash) && Object.values(hash).every((tab) => tab === null || isStrings(tab)))
  ) {
    wrong('EditorColumnHash', 'must map tab names to lists of column names');
  }
  if (settings.TitleSeparator != null && typeof settings.TitleSeparator !== 'string') {
    wrong('TitleSeparator', 'must be a string');
  }
  if (parseAutoVerUpType(settings.AutoVerUpType) === undefined) {
    wrong('AutoVerUpType', 'must be 1 (Default), 2 (Always) or 3 (Disabled)');
  }
  if (Array.isArray(settings.Columns)) {
    settings.Columns.forEach((entry, index) => {
      if (isObject(entry) && typeof entry.ColumnName !== 'string') {
        wrong(`Columns[${index}].ColumnName`, 'required: the name of a column');
      }
    });
  }
  return problems;
}

/**
 * The Version to migrate from. Without one, settings are today's form, unless they hold the legacy
 * EditorColumns list (and no EditorColumnHash): those are taken as the form that list belongs to, 1.016.
 */
function versionOf(settings: Settings): number | string {
  const value = settings.Version;
  if (value === undefined || value === null) {
    const legacy = settings.EditorColumns != null && settings.EditorColumnHash == null;
    return legacy ? LAST_LEGACY_EDITOR_VERSION : SITE_SETTINGS_VERSION;
  }
  const version = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof version !== 'number' || !Number.isFinite(version)) return 'must be a number such as 1.017';
  if (version < OLDEST_MIGRATED_VERSION) {
    return `${version} predates the forms Kiroku migrates (${OLDEST_MIGRATED_VERSION} and later)`;
  }
  return version;
}

/**
 * The settings as stored: migrated, Links derived, every part written only when it differs from its
 * default, Version, ReferenceType and SiteId always. Problems (wrong JSON types of what the model reads, a
 * Version too old) come back instead of settings; duplicates and entries naming no column of the table
 * are dropped, as the reference drops them, never refused.
 */
export function normalizeSiteSettings(
  input: Readonly<Settings>,
  options: NormalizeOptions,
): { settings: Settings; problems: readonly SettingsProblem[] } {
  const { referenceType } = options;
  const given = canonicalKeys(input);
  if (Array.isArray(given.Columns)) {
    given.Columns = given.Columns.map((entry) => (isObject(entry) ? canonicalColumnKeys(entry) : entry));
  }
  const problems = typeProblems(given);
  const version = versionOf(given);
  if (typeof version === 'string') problems.push({ property: 'SiteSettings.Version', problem: version });
  const entries = Array.isArray(given.Columns) ? given.Columns.filter(isObject) : [];
  for (const problem of columnsOf(referenceType, entries, 'ja').problems) {
    const index = entries.findIndex((entry) => entry.ColumnName === problem.columnName);
    if (problem.property && / must be an? /.test(problem.reason)) {
      problems.push({
        property: `SiteSettings.Columns[${index}].${problem.property}`,
        problem: problem.reason.replace(/; the default is used\.$/, ''),
      });
    }
  }
  if (problems.length > 0 || typeof version === 'string') return { settings: {}, problems };
  const migrated = migrateSiteSettings({ ...given, Columns: entries }, version, referenceType);
  const columns = (migrated.Columns as Settings[]).map((entry) => ({ ...entry }));
  const derive = options.linksOf
    ? columns.filter((column) => options.linksOf?.has(String(column.ColumnName)))
    : columns;
  const links = setLinks(derive, Array.isArray(migrated.Links) ? migrated.Links : [], options.loads);
  return { settings: recorded({ ...migrated, Columns: columns, Links: links }, options), problems: [] };
}

function recorded(settings: Settings, { referenceType, siteId }: NormalizeOptions): Settings {
  const out: Settings = { Version: SITE_SETTINGS_VERSION, ReferenceType: referenceType, SiteId: siteId };
  for (const [key, value] of Object.entries(settings)) {
    if (key in out || value === undefined || value === null) continue;
    if (DROPPED_WHEN_EMPTY.includes(key) && Array.isArray(value) && value.length === 0) continue;
    if (DROPPED_WHEN_ZERO.includes(key) && value === 0) continue;
    out[key] = value;
  }
  if (sameList(out.GridColumns, defaultGridColumns(referenceType))) delete out.GridColumns;
  if (sameList(out.TitleColumns, ['Title'])) delete out.TitleColumns;
  if (out.TitleSeparator === ')') delete out.TitleSeparator;
  if (isObject(out.EditorColumnHash) && editorIsDefault(out.EditorColumnHash, referenceType)) {
    delete out.EditorColumnHash;
  }
  const columns = recordedColumns(settings.Columns as Settings[], referenceType);
  if (columns.length > 0) out.Columns = columns;
  else delete out.Columns;
  const links = (settings.Links as Settings[]).map(recordedLink);
  if (links.length > 0) out.Links = links;
  else delete out.Links;
  return out;
}

/** `RecordingData`: the General tab equal to the default editor and no other tab holding columns. */
function editorIsDefault(hash: Settings, referenceType: ReferenceType): boolean {
  const tabs = Object.entries(hash);
  if (tabs.every(([, tab]) => !Array.isArray(tab) || tab.length === 0)) return true;
  return (
    sameList(hash.General, defaultEditorColumns(referenceType)) &&
    tabs.every(([name, tab]) => name === 'General' || !Array.isArray(tab) || tab.length === 0)
  );
}

/**
 * What a table design means, whatever form its settings are in: each column as the model merges it (the
 * site's screen-only properties beside it), the lists in effect (the defaults where none is given), the
 * Links, and every other key as given. Two settings with the same design behave the same; the round trip
 * of a template (createsite, getsite, createsite) is checked with it.
 */
export function designOf(
  input: Readonly<Settings>,
  referenceType: ReferenceType,
  language: 'ja' | 'en',
  /** Whether a `[[siteId]]` target loads, as for normalizeSiteSettings. */
  loads: (siteId: number) => boolean = () => false,
): Settings {
  const given = canonicalKeys(input);
  const version = versionOf(given);
  const entries = (Array.isArray(given.Columns) ? given.Columns.filter(isObject) : []).map(
    canonicalColumnKeys,
  );
  const migrated = migrateSiteSettings(
    { ...given, Columns: entries },
    typeof version === 'number' ? version : SITE_SETTINGS_VERSION,
    referenceType,
  );
  const columns = columnsOf(referenceType, migrated.Columns as Settings[], language).list.map((column) => {
    const { site, ...merged } = column;
    const field = (key: string) => (merged as Record<string, unknown>)[WRITTEN[key]?.[0] ?? ''];
    const screen = Object.entries(site ?? {}).filter(
      ([key, value]) =>
        value !== null &&
        !['ColumnName', 'Section', 'Link'].includes(key) &&
        (!WRITTEN[key] || (FELL_BACK.includes(key) && value !== field(key))),
    );
    return {
      ...merged,
      fieldCss: merged.fieldCss === 'field-normal' ? undefined : merged.fieldCss,
      screen: Object.fromEntries(screen),
    };
  });
  const design: Settings = {};
  for (const [key, value] of Object.entries(migrated)) {
    if (['Version', 'SiteId', 'Columns', 'Links'].includes(key) || value === null || value === undefined)
      continue;
    if (DROPPED_WHEN_EMPTY.includes(key) && Array.isArray(value) && value.length === 0) continue;
    if (DROPPED_WHEN_ZERO.includes(key) && value === 0) continue;
    design[key] = value;
  }
  const editor = isObject(migrated.EditorColumnHash) ? migrated.EditorColumnHash : {};
  return {
    ...design,
    ReferenceType: referenceType,
    GridColumns: migrated.GridColumns ?? defaultGridColumns(referenceType),
    EditorColumnHash: editorIsDefault(editor, referenceType)
      ? { General: defaultEditorColumns(referenceType) }
      : editor,
    TitleColumns: migrated.TitleColumns ?? ['Title'],
    TitleSeparator: migrated.TitleSeparator ?? ')',
    Columns: columns,
    Links: setLinks(
      (migrated.Columns as Settings[]).map((entry) => ({ ...entry })),
      Array.isArray(migrated.Links) ? migrated.Links.filter(isObject) : [],
      loads,
    ).map(recordedLink),
  };
}
