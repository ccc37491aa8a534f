/**
 * ChoicesText, parsed once into typed entries (reference/pleasanter-columns.md 3). Static lines become
 * choices; the `[[...]]` lines and the JSON link form become sources that a later step resolves against
 * users, departments, groups or another site. Problems are returned as values so that a site whose
 * ChoicesText the reference would partly discard still loads, and the UI can show what was dropped.
 */

export interface StaticChoice {
  readonly kind: 'static';
  readonly value: string;
  readonly text: string;
  readonly textMini: string;
  readonly cssClass?: string;
  readonly style?: string;
}

/** `[[Users]]` (users with access to the site) or `[[Users*]]` (every user of the tenant). */
export interface UsersSource {
  readonly kind: 'users';
  readonly scope: 'site' | 'tenant';
  readonly showDeptName: boolean;
}
export interface DeptsSource {
  readonly kind: 'depts';
}
/** `[[Groups]]` (groups with access to the site) or `[[Groups*]]` (every group of the tenant). */
export interface GroupsSource {
  readonly kind: 'groups';
  readonly scope: 'site' | 'tenant';
}
export interface TimeZonesSource {
  readonly kind: 'timeZones';
}

export const LINK_OPTIONS = ['NoAddButton', 'AddSource', 'NotReturnParentRecord'] as const;
export type LinkOption = (typeof LINK_OPTIONS)[number];

/** `[[siteId]]`, `[[siteId,options]]`, or one object of the JSON form (kept whole in `settings`). */
export interface LinkSource {
  readonly kind: 'link';
  /** The target site; absent when a JSON link names `TableName` (Users, Depts or Groups) instead. */
  readonly siteId?: number;
  readonly tableName?: 'Users' | 'Depts' | 'Groups';
  readonly options: readonly LinkOption[];
  readonly json: boolean;
  readonly settings?: Readonly<Record<string, unknown>>;
}

export type ChoiceSource = UsersSource | DeptsSource | GroupsSource | TimeZonesSource | LinkSource;
export type ChoiceEntry = StaticChoice | ChoiceSource;

export interface ChoiceProblem {
  /** 1-based line of ChoicesText (0 for the JSON form as a whole). */
  readonly line: number;
  readonly text: string;
  readonly reason: string;
}

export interface ParsedChoices {
  readonly entries: readonly ChoiceEntry[];
  readonly problems: readonly ChoiceProblem[];
}

export const NO_CHOICES: ParsedChoices = { entries: [], problems: [] };

/** General.json ChoiceSplitRegexPattern: a comma not preceded by a backslash. */
const SPLIT = /(?<!\\),/;
const SPECIAL = /^\[\[(.*)\]\]$/;

export function parseChoicesText(choicesText: string | undefined | null): ParsedChoices {
  if (!choicesText?.trim()) return NO_CHOICES;
  if (/^\s*\[\s*\{/.test(choicesText)) return parseJsonLinks(choicesText);
  const entries: ChoiceEntry[] = [];
  const problems: ChoiceProblem[] = [];
  const seen = new Set<string>();
  choicesText.split(/\r?\n/).forEach((raw, index) => {
    const text = raw.trim();
    if (!text) return;
    const line = index + 1;
    const special = SPECIAL.exec(text);
    if (special) {
      const source = parseSpecial(special[1] as string);
      if (typeof source === 'string') problems.push({ line, text, reason: source });
      else {
        entries.push(source.entry);
        for (const reason of source.warnings) problems.push({ line, text, reason });
      }
      return;
    }
    const choice = parsePlain(text);
    // The reference's choice hash keeps the first line of a value and drops the later ones.
    if (seen.has(choice.value)) {
      problems.push({ line, text, reason: `Duplicate value "${choice.value}" is ignored.` });
      return;
    }
    seen.add(choice.value);
    entries.push(choice);
  });
  return { entries, problems };
}

function parsePlain(text: string): StaticChoice {
  // Parts are not trimmed: the reference trims the line only, so "100, A" shows " A".
  const [value = '', text_, textMini, cssClass, style] = text
    .split(SPLIT)
    .map((part) => part.replaceAll('\\,', ','));
  const shown = text_ || value;
  return {
    kind: 'static',
    value,
    text: shown,
    textMini: textMini || shown,
    ...(cssClass ? { cssClass } : {}),
    ...(style ? { style } : {}),
  };
}

function parseSpecial(inner: string): { entry: ChoiceSource; warnings: string[] } | string {
  const [head = '', ...rest] = inner.split(',').map((part) => part.trim());
  const warnings: string[] = [];
  const onlyOptions = (allowed: readonly string[]) => {
    for (const option of rest)
      if (!allowed.includes(option)) warnings.push(`Unknown option "${option}" is ignored.`);
  };
  switch (head) {
    case 'Users':
    case 'Users*':
      onlyOptions(['ShowDeptName']);
      return {
        entry: {
          kind: 'users',
          scope: head === 'Users' ? 'site' : 'tenant',
          showDeptName: rest.includes('ShowDeptName'),
        },
        warnings,
      };
  }
  // The reference matches these lines whole, so an option makes the line something else.
  switch (inner) {
    case 'Depts':
      return { entry: { kind: 'depts' }, warnings };
    case 'Groups':
    case 'Groups*':
      return { entry: { kind: 'groups', scope: inner === 'Groups' ? 'site' : 'tenant' }, warnings };
    case 'TimeZones':
      return { entry: { kind: 'timeZones' }, warnings };
  }
  // The reference reads the site id with ToLong, so "123*" or "abc" is 0 and the link is discarded.
  if (!/^\d+$/.test(head) || Number(head) <= 0 || !Number.isSafeInteger(Number(head)))
    return `"[[${inner}]]" is neither a known source nor a site id.`;
  onlyOptions(LINK_OPTIONS);
  const options = LINK_OPTIONS.filter((option) => rest.includes(option));
  return { entry: { kind: 'link', siteId: Number(head), options, json: false }, warnings };
}

function parseJsonLinks(choicesText: string): ParsedChoices {
  let parsed: unknown;
  try {
    parsed = JSON.parse(choicesText);
  } catch {
    return {
      entries: [],
      problems: [{ line: 0, text: choicesText, reason: 'The JSON link form is not valid JSON.' }],
    };
  }
  if (!Array.isArray(parsed))
    return {
      entries: [],
      problems: [{ line: 0, text: choicesText, reason: 'The JSON link form must be an array.' }],
    };
  const entries: ChoiceEntry[] = [];
  const problems: ChoiceProblem[] = [];
  parsed.forEach((item, index) => {
    const text = JSON.stringify(item);
    const link = jsonLink(item);
    if (typeof link === 'string') problems.push({ line: 0, text, reason: `Link ${index + 1}: ${link}` });
    else entries.push(link);
  });
  return { entries, problems };
}

function jsonLink(item: unknown): LinkSource | string {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'must be an object.';
  const settings = item as Record<string, unknown>;
  const options = LINK_OPTIONS.filter((option) => settings[option] === true);
  const { SiteId, TableName } = settings;
  if (TableName !== undefined && TableName !== null) {
    if (TableName === 'Users' || TableName === 'Depts' || TableName === 'Groups')
      return { kind: 'link', tableName: TableName, options, json: true, settings };
    return `TableName ${JSON.stringify(TableName)} is not Users, Depts or Groups.`;
  }
  const siteId = typeof SiteId === 'string' && /^\d+$/.test(SiteId) ? Number(SiteId) : SiteId;
  if (typeof siteId !== 'number' || !Number.isSafeInteger(siteId) || siteId <= 0)
    return 'SiteId must be a positive integer.';
  return { kind: 'link', siteId, options, json: true, settings };
}

/** The static choices, in order. */
export function staticChoices(parsed: ParsedChoices): StaticChoice[] {
  return parsed.entries.filter((entry): entry is StaticChoice => entry.kind === 'static');
}

/** The dynamic sources (users, depts, groups, time zones, links) a later step must resolve. */
export function choiceSources(parsed: ParsedChoices): ChoiceSource[] {
  return parsed.entries.filter((entry): entry is ChoiceSource => entry.kind !== 'static');
}
