import type { ReferenceType } from './definitions';

/**
 * The built-in column lists of a table (reference/pleasanter-columns.md 2, "Default column lists"): what
 * the grid, the editor and KeyValues use when the site's SiteSettings names none, in the reference's order.
 */

const ISSUE_WORK = ['StartTime', 'CompletionTime', 'WorkValue', 'ProgressRate', 'RemainingWorkValue'];

const GRID: Readonly<Record<ReferenceType, readonly string[]>> = {
  Issues: [
    'IssueId',
    'TitleBody',
    'Comments',
    ...ISSUE_WORK,
    'Status',
    'Manager',
    'Owner',
    'Updator',
    'UpdatedTime',
  ],
  Results: ['ResultId', 'TitleBody', 'Comments', 'Status', 'Manager', 'Owner', 'Updator', 'UpdatedTime'],
  Wikis: ['WikiId', 'TitleBody', 'Comments', 'Updator', 'UpdatedTime'],
  Sites: [],
  Dashboards: [],
};

const EDITOR: Readonly<Record<ReferenceType, readonly string[]>> = {
  Issues: ['IssueId', 'Ver', 'Title', 'Body', ...ISSUE_WORK, 'Status', 'Manager', 'Owner', 'Comments'],
  Results: ['ResultId', 'Ver', 'Title', 'Body', 'Status', 'Manager', 'Owner', 'Comments'],
  Wikis: ['WikiId', 'Ver', 'Title', 'Body', 'Comments'],
  Sites: [],
  Dashboards: [],
};

/** The grid's columns when SiteSettings has no GridColumns. */
export function defaultGridColumns(referenceType: ReferenceType): readonly string[] {
  return GRID[referenceType];
}

/** The editor's columns (its General tab) when SiteSettings has no EditorColumnHash. */
export function defaultEditorColumns(referenceType: ReferenceType): readonly string[] {
  return EDITOR[referenceType];
}

/** The names of the editor's columns, every tab of `EditorColumnHash` in order, else the built-in list. */
export function editorColumnNames(
  referenceType: ReferenceType,
  siteSettings: Readonly<Record<string, unknown>>,
): readonly string[] {
  const hash = siteSettings.EditorColumnHash;
  if (typeof hash === 'object' && hash !== null && !Array.isArray(hash)) {
    const names = Object.values(hash).flatMap((tab) =>
      Array.isArray(tab) ? tab.filter((name): name is string => typeof name === 'string') : [],
    );
    if (names.length > 0) return names;
  }
  return defaultEditorColumns(referenceType);
}
