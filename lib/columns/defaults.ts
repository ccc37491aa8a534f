import { startOfDay } from '../zoned-time';
import { choiceSources } from './choices';
import type { ReferenceType } from './definitions';
import { round } from './display';
import type { Column } from './model';

/**
 * DefaultInput on create (reference/pleasanter-columns.md 4, the reference's `SetDefault`): the value a
 * column takes when the create does not send it. Wikis take none (WikiModel has no SetDefault).
 *
 * A DefaultInput that does not parse for its column takes the reference's conversion rather than being
 * left unset: `ToInt`/`ToDecimal` read it as 0 (Status `abc` → 0, NumA `x` → 0, a date `x` → today),
 * `ToBool` as false; the reference stores those values, and a caller reading the record sees them alike.
 */

/** A default's value by what the record keeps: text, number, boolean, a user id, an instant (epoch ms). */
export type DefaultValue =
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'check'; readonly value: boolean }
  | { readonly kind: 'user'; readonly value: number }
  | { readonly kind: 'time'; readonly value: number };

export interface DefaultContext {
  readonly userId: number;
  readonly deptId?: number;
  /** The caller's IANA zone: a Ymd date default is a day of it. */
  readonly zone: string;
  readonly now: number;
}

/**
 * The record's own columns that a write body names at the top level (the A–Z families come in their hashes),
 * which are also the ones whose DefaultInput the reference's SetDefault applies by name.
 */
export const TOP_LEVEL_COLUMNS: ReadonlySet<string> = new Set([
  'Title',
  'Body',
  'Status',
  'Manager',
  'Owner',
  'StartTime',
  'CompletionTime',
  'WorkValue',
  'ProgressRate',
]);
const FAMILIES = new Set(['Class', 'Num', 'Date', 'Description', 'Check']);

/** Implem's `ToInt` of a text (`int.TryParse`): the integer it is, else 0 (`"7"` → 7, `"7.5"` and `"x"` → 0). */
export function toInt(text: string): number {
  const trimmed = text.trim();
  const number = /^[+-]?\d{1,10}$/.test(trimmed) ? Number(trimmed) : 0;
  return number >= -(2 ** 31) && number < 2 ** 31 ? number : 0;
}

/** `ToDecimal`: the number the text is, else 0. */
export function toDecimal(text: string): number {
  const trimmed = text.trim();
  const number = trimmed === '' ? 0 : Number(trimmed);
  return Number.isFinite(number) ? number : 0;
}

/** `ToBool` as SetDefault reads a CheckX default: `1`, `-1`, `true` and `on` (any case) are true. */
export function toBool(text: string): boolean {
  return ['1', '-1', 'true', 'on'].includes(text.trim().toLowerCase());
}

/** The default of one column, or undefined when it has none (empty DefaultInput, or a column SetDefault skips). */
export function defaultOf(column: Column, context: DefaultContext): DefaultValue | undefined {
  const text = column.defaultInput;
  if (text === '') return undefined;
  if (!TOP_LEVEL_COLUMNS.has(column.columnName) && !(column.family && FAMILIES.has(column.family)))
    return undefined;
  switch (column.kind) {
    case 'status':
      return { kind: 'number', value: toInt(text) };
    case 'user':
      return { kind: 'user', value: text === '[[Self]]' ? context.userId : toInt(text) };
    case 'number':
      return { kind: 'number', value: round(toDecimal(text), column.decimalPlaces, column.roundingType) };
    case 'check':
      return { kind: 'check', value: toBool(text) };
    case 'date':
      return { kind: 'time', value: defaultTime(column, text, context) };
    case 'text':
    case 'description':
      return selfDefault(column, text, context);
    default:
      return undefined;
  }
}

/**
 * `Column.DefaultTime`: a day offset. With the Ymd editor format, the caller's today plus N days at
 * midnight of their zone; otherwise now plus N days (the reference's `DateTime.Now.AddDays`).
 */
function defaultTime(column: Column, text: string, context: DefaultContext): number {
  const days = toInt(text);
  return (column.editorFormat ?? 'Ymd') === 'Ymd'
    ? startOfDay(context.now, context.zone, days)
    : context.now + days * 86_400_000;
}

/**
 * `GetDefaultInput`: `[[Self]]` in a choice column is the caller by the column's source (a user's or a
 * department's id; a JSON array with MultipleSelections). A group column's `[[Self]]` would be the
 * caller's groups, which the principal does not carry: it is left unset rather than guessed.
 */
function selfDefault(column: Column, text: string, context: DefaultContext): DefaultValue | undefined {
  if (text !== '[[Self]]') return { kind: 'text', value: text };
  const source = choiceSources(column.choices)[0];
  const id =
    source?.kind === 'users' ? context.userId : source?.kind === 'depts' ? context.deptId : undefined;
  if (id === undefined) return source ? undefined : { kind: 'text', value: text };
  return { kind: 'text', value: column.multipleSelections ? JSON.stringify([String(id)]) : String(id) };
}

/** Every column's default of a table, for a create: none for Wikis. */
export function defaultsOf(
  referenceType: ReferenceType,
  columns: readonly Column[],
  context: DefaultContext,
): Map<string, DefaultValue> {
  const defaults = new Map<string, DefaultValue>();
  if (referenceType === 'Wikis') return defaults;
  for (const column of columns) {
    const value = defaultOf(column, context);
    if (value) defaults.set(column.columnName, value);
  }
  return defaults;
}
