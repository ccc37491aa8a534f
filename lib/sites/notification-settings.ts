import iconv from 'iconv-lite';
import type { ReferenceType } from '../columns/definitions';
import { columnsOf } from '../columns/model';

/**
 * A site's `SiteSettings.Notifications` (CONTRACT 14, reference/pleasanter-export-import.md 5): the entries
 * read in one shape, and the check that refuses, on save, an entry that could never be sent as written. It
 * sits with the sites because createsite, updatesite, updatesitesettings and packages check settings here;
 * lib/notifications builds the notices from the same entries.
 */

export interface NotificationSetting {
  readonly Id: number;
  readonly Type: number;
  readonly Prefix?: string;
  readonly Subject?: string;
  readonly Address?: string;
  readonly CcAddress?: string;
  readonly BccAddress?: string;
  readonly Token?: string;
  /** Get 1, Post 2, Put 3, Delete 4; a stored entry without one is Get, as the reference reads it. */
  readonly MethodType?: number;
  readonly Encoding?: string;
  readonly MediaType?: string;
  /** A JSON object of header names and values, as text. */
  readonly Headers?: string;
  readonly UseCustomFormat?: boolean;
  readonly Format?: string;
  /** null: every editor column. */
  readonly MonitorChangesColumns?: readonly string[];
  /** View ids of the site's Views; 0 or absent: none. */
  readonly BeforeCondition?: number;
  readonly AfterCondition?: number;
  /** Or 1, And 2. */
  readonly Expression?: number;
  readonly AfterCreate?: boolean;
  readonly AfterUpdate?: boolean;
  readonly AfterDelete?: boolean;
  readonly AfterCopy?: boolean;
  readonly AfterBulkUpdate?: boolean;
  readonly AfterBulkDelete?: boolean;
  readonly AfterImport?: boolean;
  readonly Disabled?: boolean;
}

type Kind = 'string' | 'number' | 'boolean' | 'strings';
const FIELDS: Readonly<Record<keyof NotificationSetting, Kind>> = {
  Id: 'number',
  Type: 'number',
  Prefix: 'string',
  Subject: 'string',
  Address: 'string',
  CcAddress: 'string',
  BccAddress: 'string',
  Token: 'string',
  MethodType: 'number',
  Encoding: 'string',
  MediaType: 'string',
  Headers: 'string',
  UseCustomFormat: 'boolean',
  Format: 'string',
  MonitorChangesColumns: 'strings',
  BeforeCondition: 'number',
  AfterCondition: 'number',
  Expression: 'number',
  AfterCreate: 'boolean',
  AfterUpdate: 'boolean',
  AfterDelete: 'boolean',
  AfterCopy: 'boolean',
  AfterBulkUpdate: 'boolean',
  AfterBulkDelete: 'boolean',
  AfterImport: 'boolean',
  Disabled: 'boolean',
};
const CANONICAL = new Map(Object.keys(FIELDS).map((name) => [name.toLowerCase(), name]));

/** The reference's types by number; Line, LineGroup and LineWorks Kiroku cannot send. */
export const NOTIFICATION_TYPES: Readonly<Record<number, string>> = {
  1: 'Mail',
  2: 'Slack',
  3: 'ChatWork',
  4: 'Line',
  5: 'LineGroup',
  6: 'Teams',
  7: 'RocketChat',
  8: 'InCircle',
  9: 'HttpClient',
  10: 'LineWorks',
};
const UNSENDABLE = new Set([4, 5, 10]);
const URL_TYPES = new Set([2, 3, 6, 7, 8, 9]);

export interface NotificationProblem {
  readonly property: string;
  readonly problem: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An entry's fields under their canonical names (names match without case, CONTRACT 1); others dropped. */
function canonical(entry: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    const name = CANONICAL.get(key.toLowerCase());
    if (name !== undefined && value !== null && value !== undefined) out[name] = value;
  }
  return out;
}

function listOf(settings: Readonly<Record<string, unknown>>): unknown[] {
  const key = Object.keys(settings).find((name) => name.toLowerCase() === 'notifications');
  const list = key === undefined ? undefined : settings[key];
  return Array.isArray(list) ? list : [];
}

/**
 * The site's notifications as stored (the check let them in): numbers written as text taken as numbers,
 * 1 and 0 as booleans, entries that are no object left out.
 */
export function notificationsOf(settings: Readonly<Record<string, unknown>>): NotificationSetting[] {
  return listOf(settings)
    .filter(isObject)
    .map((entry) => {
      const fields = canonical(entry);
      for (const [name, kind] of Object.entries(FIELDS)) {
        const value = fields[name];
        if (value === undefined) continue;
        if (kind === 'number') fields[name] = Number(value);
        if (kind === 'boolean') fields[name] = value === true || value === 1 || value === 'true';
      }
      return fields as unknown as NotificationSetting;
    });
}

/** What in the site's Notifications could never be sent as written, each named `Notifications[i].X`. */
export function notificationProblems(
  settings: Readonly<Record<string, unknown>>,
  referenceType: ReferenceType,
): NotificationProblem[] {
  const list = listOf(settings);
  if (list.length === 0) return [];
  const columns = columnsOf(referenceType, Array.isArray(settings.Columns) ? settings.Columns : [], 'en');
  const viewIds = new Set(
    (Array.isArray(settings.Views) ? settings.Views : []).filter(isObject).map((view) => Number(view.Id)),
  );
  const problems: NotificationProblem[] = [];
  const ids = new Set<number>();
  list.forEach((entry, index) => {
    const wrong = (name: string, problem: string) =>
      problems.push({ property: `SiteSettings.Notifications[${index}]${name && `.${name}`}`, problem });
    if (!isObject(entry)) {
      wrong('', 'must be an object');
      return;
    }
    const fields = canonical(entry);
    const typed = Object.entries(fields).filter(([name, value]) => {
      const problem = typeProblem(FIELDS[name as keyof NotificationSetting], value);
      if (problem) wrong(name, problem);
      return problem === undefined;
    });
    if (typed.length < Object.keys(fields).length) return;
    const n = notificationsOf({ Notifications: [entry] })[0] as NotificationSetting;
    if (!Number.isInteger(n.Id) || n.Id < 1) wrong('Id', 'required: a whole number from 1');
    else if (ids.has(n.Id)) wrong('Id', `${n.Id} is the Id of an earlier notification`);
    ids.add(n.Id);
    const typeName = NOTIFICATION_TYPES[n.Type];
    if (typeName === undefined) wrong('Type', `${fields.Type ?? 'none'} is no notification type (1 to 10)`);
    else if (UNSENDABLE.has(n.Type))
      wrong('Type', `${typeName} (${n.Type}) notifications cannot be sent by Kiroku; use Mail or a URL type`);
    else if (URL_TYPES.has(n.Type)) {
      const urls = n.Type === 6 ? (n.Address ?? '').split(',') : [n.Address ?? ''];
      const bad = urls.find((url) => !isHttpUrl(url.trim()));
      if (bad !== undefined)
        wrong('Address', `${typeName} posts to a URL: ${JSON.stringify(bad.trim())} is no http(s) URL`);
    }
    if (n.Type === 8 && !/^[^:]+:[^:]+$/.test(n.Token ?? ''))
      wrong('Token', 'InCircle needs the Token as ticketno:token_id');
    if (n.MethodType !== undefined && ![1, 2, 3, 4].includes(n.MethodType))
      wrong('MethodType', `${fields.MethodType} is no method (Get 1, Post 2, Put 3, Delete 4)`);
    if (n.Encoding && !iconv.encodingExists(n.Encoding))
      wrong('Encoding', `${JSON.stringify(n.Encoding)} is no encoding Kiroku can write`);
    if (n.Headers && headersOf(n.Headers) === undefined)
      wrong('Headers', 'must be the text of a JSON object of header names and text values');
    for (const name of n.MonitorChangesColumns ?? []) {
      if (!columns.byName.has(name)) wrong('MonitorChangesColumns', `${referenceType} has no column ${name}`);
    }
    for (const name of ['BeforeCondition', 'AfterCondition'] as const) {
      const id = n[name];
      if (id !== undefined && id !== 0 && !viewIds.has(id))
        wrong(name, `no View of the site has the Id ${id}`);
    }
    if (n.Expression !== undefined && n.Expression !== 1 && n.Expression !== 2)
      wrong('Expression', `${fields.Expression} is neither Or (1) nor And (2)`);
  });
  return problems;
}

function typeProblem(kind: Kind | undefined, value: unknown): string | undefined {
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? undefined : 'must be text';
    case 'number':
      return typeof value === 'number' || (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value))
        ? undefined
        : 'must be a whole number';
    case 'boolean':
      return typeof value === 'boolean' || value === 0 || value === 1 ? undefined : 'must be true or false';
    case 'strings':
      return Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? undefined
        : 'must be a list of column names';
    default:
      return undefined;
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The Headers text as header names and values; undefined when it is no JSON object of text values. */
export function headersOf(text: string | undefined): Record<string, string> | undefined {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isObject(parsed)) return undefined;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value !== 'string' && typeof value !== 'number') return undefined;
      if (!/^[!#$%&'*+.^`|~\w-]+$/.test(name)) return undefined;
      headers[name] = String(value);
    }
    return headers;
  } catch {
    return undefined;
  }
}
