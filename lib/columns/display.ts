import { type ChoiceSource, choiceSources, type ParsedChoices, staticChoices } from './choices';
import type { DateFormat, Language } from './definitions';
import type { Column, RoundingType } from './model';

/**
 * One place for how a stored value is shown (reference/pleasanter-columns.md 8, the KeyValues table):
 * `Value` is the stored value, `DisplayValue` what the API answers by default, `Text` the grid text.
 * Names that need a lookup (users, departments, groups, linked records' titles) come from the caller's
 * `resolve`; without it such a value is shown as stored. The composite Title (TitleColumns) is the
 * caller's too.
 */
export type ValueForm = 'DisplayValue' | 'Value' | 'Text';
export type Shown = string | number | boolean | null;

/** A dynamic choice's text: a user's, department's or group's name, a linked record's title; undefined if unknown. */
export type ChoiceResolver = (source: ChoiceSource, value: string) => string | undefined;

const SITE_USERS: ChoiceSource = { kind: 'users', scope: 'site', showDeptName: false };

/** App_Data/Displays/{format}Format.json, ja and the default (en) bodies. */
const DATE_PATTERNS: Readonly<Record<Language, Readonly<Record<DateFormat, string>>>> = {
  ja: {
    Ymd: 'yyyy/MM/dd',
    Ymdhm: 'yyyy/MM/dd HH:mm',
    Ymdhms: 'yyyy/MM/dd HH:mm:ss',
    Ymda: 'yyyy/MM/dd ddd',
    Ymdahm: 'yyyy/MM/dd ddd HH:mm',
    Ymdahms: 'yyyy/MM/dd ddd HH:mm:ss',
  },
  en: {
    Ymd: 'MM/dd/yyyy',
    // The reference's default body of YmdhmFormat.json is year first, unlike its Ymd and Ymdhms.
    Ymdhm: 'yyyy/MM/dd HH:mm',
    Ymdhms: 'MM/dd/yyyy HH:mm:ss',
    Ymda: 'ddd, MM/dd/yyyy',
    Ymdahm: 'ddd, MM/dd/yyyy HH:mm',
    Ymdahms: 'yyyy/MM/dd ddd HH:mm:ss',
  },
};
/** .NET's abbreviated day names of ja-JP and en-US, Sunday first. */
const DAY_NAMES: Readonly<Record<Language, readonly string[]>> = {
  ja: ['日', '月', '火', '水', '木', '金', '土'],
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
};
/** Columns whose DisplayValue is the local date-time itself, not a formatted string. */
const RAW_TIMES = new Set(['CompletionTime', 'CreatedTime', 'UpdatedTime']);

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

export function displayValue(
  column: Column,
  value: unknown,
  language: Language,
  form: ValueForm = 'DisplayValue',
  resolve?: ChoiceResolver,
): Shown {
  if (form === 'Value') return isEmpty(value) && value !== '' ? null : (value as Shown);
  switch (column.kind) {
    case 'status':
      return isEmpty(value) ? null : (choiceText(column, String(Number(value))) ?? null);
    case 'number':
      return numberShown(column, value, form);
    case 'check':
      return form === 'Text' ? (value === true ? 'True' : 'False') : value === true;
    case 'date':
      return dateShown(column, value, language, form);
    case 'user':
      return userShown(column, value, resolve);
    case 'text':
      return column.choices.entries.length > 0
        ? choiceShown(column, value, resolve)
        : isEmpty(value)
          ? null
          : String(value);
    default:
      return isEmpty(value) ? null : (value as Shown);
  }
}

/** The static choices' texts by value, built once per parsed ChoicesText (a page shows each many times). */
const textsByValue = new WeakMap<ParsedChoices, ReadonlyMap<string, string>>();

function staticTexts(choices: ParsedChoices): ReadonlyMap<string, string> {
  let texts = textsByValue.get(choices);
  if (!texts) {
    const map = new Map<string, string>();
    for (const choice of staticChoices(choices))
      if (!map.has(choice.value)) map.set(choice.value, choice.text);
    texts = map;
    textsByValue.set(choices, texts);
  }
  return texts;
}

const sourcesByChoices = new WeakMap<ParsedChoices, readonly ChoiceSource[]>();

function sourcesOf(choices: ParsedChoices): readonly ChoiceSource[] {
  let sources = sourcesByChoices.get(choices);
  if (!sources) {
    sources = choiceSources(choices);
    sourcesByChoices.set(choices, sources);
  }
  return sources;
}

function choiceText(column: Column, value: string, resolve?: ChoiceResolver): string | undefined {
  const found = staticTexts(column.choices).get(value);
  if (found !== undefined || !resolve) return found;
  for (const source of sourcesOf(column.choices)) {
    const name = resolve(source, value);
    if (name !== undefined) return name;
  }
  return undefined;
}

/**
 * A value missing from the choices is shown as `? value`, as the reference shows a stale choice or a
 * link to a record that is gone; without a resolver a dynamic column's value is shown as stored.
 */
function choiceShown(column: Column, value: unknown, resolve?: ChoiceResolver): string | null {
  if (isEmpty(value)) return null;
  const text = String(value);
  const dynamic = sourcesOf(column.choices).length > 0;
  const missing = (part: string) => (dynamic && !resolve ? part : `? ${part}`);
  const one = (part: string) => choiceText(column, part, resolve) ?? missing(part);
  if (!column.multipleSelections) return one(text);
  const parts = multiple(text);
  return parts ? parts.map((part) => choiceText(column, part, resolve) ?? part).join(', ') : one(text);
}

/**
 * Manager, Owner, Creator, Updator: the user's name by the column's source ([[Users]] unless changed); 0
 * is nobody, shown as nothing.
 */
function userShown(column: Column, value: unknown, resolve?: ChoiceResolver): Shown {
  if (isEmpty(value) || Number(value) === 0) return null;
  const id = String(value);
  const sources = sourcesOf(column.choices);
  for (const source of sources.length > 0 ? sources : [SITE_USERS]) {
    const name = resolve?.(source, id);
    if (name !== undefined) return name;
  }
  return value as Shown;
}

function multiple(text: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : undefined;
  } catch {
    return undefined;
  }
}

function numberShown(column: Column, value: unknown, form: ValueForm): Shown {
  const number = isEmpty(value) ? undefined : Number(value);
  if (number === undefined || !Number.isFinite(number)) {
    if (column.nullable) return null;
    return form === 'Text' ? `0${column.unit}` : 0;
  }
  if (form !== 'Text') return number;
  return `${round(number, column.decimalPlaces, column.roundingType)}${column.unit}`;
}

/** `Column.Round`: DecimalPlaces digits by RoundingType (10 AwayFromZero … 50 ToEven). */
export function round(value: number, places: number, type: RoundingType = 10): number {
  // Whole numbers (every one beyond 2^53 too) are already rounded at any number of places.
  if (!Number.isFinite(value) || Number.isInteger(value)) return Object.is(value, -0) ? 0 : value;
  // Scaling by the decimal text (`1.005e2`) rather than by multiplying keeps 1.005 from reading as
  // 100.49999…; a value JavaScript writes in exponent form (1e-7, 1e21) is scaled by multiplying.
  const text = String(Math.abs(value));
  const scaled = text.includes('e') ? Math.abs(value) * 10 ** places : Number(`${text}e${places}`);
  const sign = Math.sign(value) || 1;
  const rounders: Record<RoundingType, (x: number) => number> = {
    10: (x) => Math.round(x),
    20: (x) => (sign > 0 ? Math.ceil(x) : Math.floor(x)),
    30: (x) => Math.trunc(x),
    40: (x) => (sign > 0 ? Math.floor(x) : Math.ceil(x)),
    50: (x) => (x % 1 === 0.5 ? (Math.floor(x) % 2 === 0 ? Math.floor(x) : Math.ceil(x)) : Math.round(x)),
  };
  const rounded = rounders[type](scaled);
  const back = String(rounded).includes('e') ? rounded / 10 ** places : Number(`${rounded}e-${places}`);
  const result = sign * back;
  return Object.is(result, -0) ? 0 : result;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/;

function dateShown(column: Column, value: unknown, language: Language, form: ValueForm): Shown {
  if (isEmpty(value)) return form === 'Text' ? '' : null;
  if (form === 'DisplayValue' && RAW_TIMES.has(column.columnName)) return String(value);
  return formatDate(String(value), column.editorFormat ?? 'Ymd', language);
}

/**
 * A local date-time (`yyyy-MM-ddTHH:mm:ss`) in a Displays format. Outside 1900–2100 the reference shows
 * nothing (its "not set" date is 1899-12-30), and so does a value that is no date at all.
 */
export function formatDate(local: string, format: DateFormat, language: Language): string {
  const match = LOCAL.exec(local);
  if (!match) return '';
  const [, yyyy = '', MM = '', dd = '', HH = '00', mm = '00', ss = '00'] = match;
  const year = Number(yyyy);
  if (year < 1900 || year > 2100) return '';
  const day = new Date(Date.UTC(year, Number(MM) - 1, Number(dd))).getUTCDay();
  const parts: Record<string, string> = { yyyy, MM, dd, HH, mm, ss, ddd: DAY_NAMES[language][day] ?? '' };
  return DATE_PATTERNS[language][format].replace(
    /yyyy|MM|dd{0,2}|HH|mm|ss/g,
    (token) => parts[token] ?? token,
  );
}
