import { parseChoicesText } from './choices';

/**
 * `SiteSettings.Links` as the reference keeps it: derived from a column's ChoicesText by `SetLinks`, and
 * written by `Link.GetRecordingData`. Pure; which sites load in the tenant is the caller's question.
 */

type Entry = Record<string, unknown>;

const isObject = (value: unknown): value is Entry =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON link form: a ChoicesText that is a JSON array of objects. */
function jsonLinks(choicesText: string): Entry[] | undefined {
  if (!/^\s*\[/.test(choicesText)) return undefined;
  try {
    const parsed: unknown = JSON.parse(choicesText);
    return Array.isArray(parsed) && parsed.every(isObject) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The `[[siteId]]` lines of a ChoicesText (the JSON form carries its own links). */
function siteLinks(choicesText: string) {
  return parseChoicesText(choicesText).entries.flatMap((entry) =>
    entry.kind === 'link' && !entry.json && entry.siteId !== undefined
      ? [{ siteId: entry.siteId, options: entry.options }]
      : [],
  );
}

/** Every site a `[[siteId]]` line of the entries names: the sites whose loading decides their links. */
export function linkedSiteIds(columns: readonly Entry[]): number[] {
  const ids = new Set<number>();
  for (const column of columns) {
    if (typeof column.ChoicesText === 'string' && !jsonLinks(column.ChoicesText)) {
      for (const link of siteLinks(column.ChoicesText)) ids.add(link.siteId);
    }
  }
  return [...ids];
}

/**
 * `SetLinks` for each entry that has a ChoicesText: its links are dropped and made again, the JSON form's
 * with all their settings (`JsonFormat: true`), a `[[siteId,options]]` line's only when the site loads in
 * the tenant. A link given before for the same column and site keeps its other settings (LinkActions,
 * View...): the reference drops them when its UI saves the column, which would lose what a caller stored.
 * The entry's `Link` flag says whether it has `[[siteId]]` lines. Entries and links are changed in place of
 * copies; the result is the new Links list.
 */
export function setLinks(
  columns: Entry[],
  links: readonly Entry[],
  loads: (siteId: number) => boolean,
): Entry[] {
  let result = [...links];
  for (const column of columns) {
    const name = column.ColumnName;
    const text = column.ChoicesText;
    if (typeof text !== 'string' || text === '') continue;
    delete column.Link;
    const previous = result.filter((link) => link.ColumnName === name && link.JsonFormat !== true);
    result = result.filter((link) => link.ColumnName !== name);
    const json = jsonLinks(text);
    if (json) {
      result.push(...json.map((link) => ({ ...link, ColumnName: name, JsonFormat: true })));
      continue;
    }
    for (const { siteId, options } of siteLinks(text)) {
      column.Link = true;
      const known = result.some((link) => link.ColumnName === name && Number(link.SiteId) === siteId);
      if (!known && loads(siteId)) {
        const before = previous.find((link) => Number(link.SiteId) === siteId);
        result.push({
          ...before,
          ColumnName: name,
          SiteId: siteId,
          ...Object.fromEntries(options.map((o) => [o, true])),
        });
      }
    }
  }
  return result;
}

const FLAGS = [
  'NoAddButton',
  'AddSource',
  'NotReturnParentRecord',
  'ExcludeMe',
  'MembersOnly',
  'SelectNewLink',
];

/** `Link.GetRecordingData`: the fields a link keeps, each only when it says something. */
export function recordedLink(link: Entry): Entry {
  const out: Entry = {};
  const text = (key: string) => {
    if (typeof link[key] === 'string' && link[key] !== '') out[key] = link[key];
  };
  text('TableName');
  text('ColumnName');
  const siteId = typeof link.SiteId === 'string' ? Number(link.SiteId) : link.SiteId;
  out.SiteId = typeof siteId === 'number' && Number.isSafeInteger(siteId) ? siteId : 0;
  if (typeof link.Priority === 'number' && link.Priority > 0) out.Priority = link.Priority;
  for (const flag of FLAGS) if (link[flag] === true) out[flag] = true;
  text('SearchFormat');
  for (const key of ['View', 'Lookups', 'LinkActions']) {
    if (link[key] !== undefined && link[key] !== null) out[key] = link[key];
  }
  if (link.JsonFormat === true) out.JsonFormat = true;
  return out;
}
