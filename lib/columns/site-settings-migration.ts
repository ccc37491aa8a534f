import type { ReferenceType } from './definitions';
import { defaultEditorColumns } from './layouts';

/**
 * The reference's `SiteSettingsMigrator` (Libraries/Migrators/SiteSettings/Version1_0NN.cs) for the steps
 * that change stored keys from Version 1.009 on: the oldest form the reference's own templates carry.
 * Pure: a new object is returned, the input is left alone.
 */

/** `SiteSettingsUtilities.Version`: the form Kiroku stores and answers. */
export const SITE_SETTINGS_VERSION = 1.017;
/** The oldest Version whose steps Kiroku runs; older settings name keys (GridColumnsOrder...) it never reads. */
export const OLDEST_MIGRATED_VERSION = 1.009;

type Settings = Record<string, unknown>;
type Step = (settings: Settings, referenceType: ReferenceType) => void;

const records = (value: unknown): Settings[] =>
  Array.isArray(value)
    ? value.filter(
        (item): item is Settings => typeof item === 'object' && item !== null && !Array.isArray(item),
      )
    : [];
const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;

/** 1.010: the legacy editor list gains Comments when it lacks it. */
const comments: Step = (settings) => {
  const editor = strings(settings.EditorColumns);
  if (editor && !editor.includes('Comments')) settings.EditorColumns = [...editor, 'Comments'];
};

/** 1.011: ViewLatestId is the highest view id (0 without views). */
const viewLatestId: Step = (settings) => {
  const ids = records(settings.Views).map((view) => Number(view.Id) || 0);
  settings.ViewLatestId = ids.length > 0 ? Math.max(...ids) : 0;
};

/** 1.012: the single New/Edit/Grid style and script texts become the Styles and Scripts lists. */
const stylesAndScripts: Step = (settings) => {
  for (const [list, prefix, title] of [
    ['Styles', 'Style', 'Style'],
    ['Scripts', 'Script', 'Script'],
  ] as const) {
    const items: Settings[] = [];
    for (const [key, flag] of [
      [`New${prefix}`, 'New'],
      [`Edit${prefix}`, 'Edit'],
      [`Grid${prefix}`, 'Index'],
    ] as const) {
      const body = settings[key];
      if (typeof body === 'string' && body !== '') {
        const id = items.length + 1;
        items.push({ Id: id, Title: `${title}${id}`, [flag]: true, Body: body });
      }
      delete settings[key];
    }
    settings[list] = items;
  }
};

/** 1.013: a view's CalendarColumn becomes CalendarFromTo. */
const calendarFromTo: Step = (settings) => {
  for (const view of records(settings.Views)) {
    view.CalendarFromTo = view.CalendarColumn;
    delete view.CalendarColumn;
    if (view.CalendarFromTo === undefined || view.CalendarFromTo === null) delete view.CalendarFromTo;
  }
};

/** 1.014: a column access control's AllowedUsers become RecordUsers. */
const recordUsers: Step = (settings) => {
  for (const key of [
    'CreateColumnAccessControls',
    'ReadColumnAccessControls',
    'UpdateColumnAccessControls',
  ]) {
    for (const control of records(settings[key])) {
      const allowed = strings(control.AllowedUsers) ?? [];
      if (allowed.length > 0) control.RecordUsers = [...(strings(control.RecordUsers) ?? []), ...allowed];
      delete control.AllowedUsers;
    }
  }
};

/** 1.015: an export's Join list is folded into its columns' names (`ClassA~12,Title`). */
const exportJoins: Step = (settings) => {
  for (const exported of records(settings.Exports)) {
    const joins = records(exported.Join).filter((join) => Number(join.SiteId) > 0);
    const siteIds = joins.map((join) => Number(join.SiteId));
    for (const column of records(exported.Columns)) {
      const index = siteIds.indexOf(Number(column.SiteId)) + 1;
      if (index > 0) {
        const path = joins
          .slice(0, index)
          .map((join) => `${join.ColumnName}~${join.SiteId}`)
          .join('-');
        column.ColumnName = `${path},${column.ColumnName}`;
      }
      delete column.SiteId;
    }
    delete exported.Join;
  }
};

/** 1.016: EditInDialog becomes GridEditorType Dialog (20). */
const gridEditorType: Step = (settings) => {
  if (settings.EditInDialog === true) settings.GridEditorType = 20;
  delete settings.EditInDialog;
};

/**
 * 1.017: the flat EditorColumns list becomes the General tab of EditorColumnHash. A column whose entry
 * has a Section text is preceded by a new section of that text (one per such column, as the reference
 * does), and Section leaves the column entries. A General tab left empty holds the default editor.
 */
const editorColumnHash: Step = (settings, referenceType) => {
  const columns = records(settings.Columns);
  const sectionOf = (name: string) => columns.find((column) => column.ColumnName === name)?.Section;
  const sections = records(settings.Sections);
  let latest = Number(settings.SectionLatestId) || 0;
  const general: string[] = [];
  for (const name of strings(settings.EditorColumns) ?? []) {
    const text = sectionOf(name);
    if (typeof text === 'string' && text !== '') {
      latest += 1;
      sections.push({ Id: latest, LabelText: text });
      general.push(`_Section-${latest}`);
    }
    general.push(name);
  }
  const hash = isObject(settings.EditorColumnHash) ? { ...settings.EditorColumnHash } : {};
  hash.General = general;
  if (Object.values(hash).every((tab) => !Array.isArray(tab) || tab.length === 0)) {
    hash.General = [...defaultEditorColumns(referenceType)];
  }
  settings.EditorColumnHash = hash;
  if (latest > 0) {
    settings.SectionLatestId = latest;
    settings.Sections = sections;
  }
  for (const column of columns) delete column.Section;
  delete settings.EditorColumns;
};

const STEPS: readonly (readonly [number, Step])[] = [
  [1.01, comments],
  [1.011, viewLatestId],
  [1.012, stylesAndScripts],
  [1.013, calendarFromTo],
  [1.014, recordUsers],
  [1.015, exportJoins],
  [1.016, gridEditorType],
  [1.017, editorColumnHash],
];

function isObject(value: unknown): value is Settings {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The settings brought to Version 1.017: each step whose version is above `version` runs, in order. A
 * missing Version is taken as the current form (a Kiroku caller writing today's keys), not as the
 * reference's Version 0, whose first steps would replace the lists with defaults.
 */
export function migrateSiteSettings(
  settings: Readonly<Settings>,
  version: number,
  referenceType: ReferenceType,
): Settings {
  if (version >= SITE_SETTINGS_VERSION) return settings as Settings;
  const copy = structuredClone(settings) as Settings;
  for (const [stepVersion, step] of STEPS) if (version < stepVersion) step(copy, referenceType);
  return copy;
}
