import { DECIMAL, MAX_LENGTH } from '../bounds';
import { choiceSources, staticChoices } from '../columns/choices';
import type { Column } from '../columns/model';
import { parseDateTime } from '../zoned-time';

/**
 * One CSV cell read as its column's kind (../reference/pleasanter-export-import.md §2, "Values"), exact
 * where the reference is loose: a cell that cannot be read as its kind is a problem naming why, never a
 * silent 0 or null (CONTRACT 12). Empty cells clear the column (`null`); a choice's display text is read
 * back as its key; unknown text of a text column is stored as is, as the reference stores it.
 */

export type Cell = { readonly value: unknown } | { readonly problem: string };

/** What reading cells needs to know beyond the column: the caller's zone and the tenant's users. */
export interface CellContext {
  readonly zone: string;
  /** The tenant's users by name (the first of a repeated name) and by id. */
  readonly userIds: ReadonlyMap<string, number>;
}

const TRUE = new Set(['1', '-1', 'true', 'on']);
const FALSE = new Set(['', '0', 'false', 'off']);
const NUMBER = /^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?$/;
/** Day names the export writes in its weekday formats (Ymda, Ymdahm, Ymdahms), ja and en. */
const WEEKDAY = /\(?(日|月|火|水|木|金|土|Sun|Mon|Tue|Wed|Thu|Fri|Sat)\)?,?/;
/** en-US dates, month first (`MM/dd/yyyy [HH:mm[:ss]]`), as the export writes them in English. */
const MONTH_FIRST = /^(\d{1,2})\/(\d{1,2})\/(\d{4})((?:\s+\d{1,2}:\d{2}(?::\d{2})?)?)$/;
const SERIAL = /^\d{1,6}(\.\d+)?$/;
/** OLE Automation's day zero, the reference's "not set" date: serial numbers count from it. */
const DAY_ZERO = Date.UTC(1899, 11, 30);

export const ok = (value: unknown): Cell => ({ value });
const problem = (text: string): Cell => ({ problem: text });

export function textCell(text: string, max: number = MAX_LENGTH.title): Cell {
  return text.length > max ? problem(`longer than ${max} characters`) : ok(text);
}

/** A number with an optional leading `\` or `¥` and thousands separators, within decimal(18,4). */
export function numberCell(text: string, nullable: boolean): Cell {
  const trimmed = text.trim().replace(/^[\\¥]/, '');
  if (trimmed === '') return ok(nullable ? null : 0);
  if (!NUMBER.test(trimmed) || !/\d/.test(trimmed)) return problem(`"${text}" is not a number`);
  const value = Number(trimmed.replaceAll(',', ''));
  if (Math.abs(value) >= 10 ** DECIMAL.integerDigits) return problem(`${trimmed} is out of range`);
  return ok(value);
}

export function checkCell(text: string): Cell {
  const lower = text.trim().toLowerCase();
  if (TRUE.has(lower)) return ok(true);
  if (FALSE.has(lower)) return ok(false);
  return problem(`"${text}" is not a check value (1, -1, true, on; 0, false, off or empty)`);
}

/**
 * A date in the caller's zone as an ISO instant: the export's forms with or without the day name
 * (`2026/01/20 火 10:00:00`, `Tue, 01/20/2026`), year first or en-US month first, ISO 8601, or an Excel
 * serial number.
 */
export function dateCell(text: string, zone: string): Cell {
  const trimmed = text.trim().replace(WEEKDAY, ' ').replace(/\s+/g, ' ').trim();
  if (trimmed === '') return ok(null);
  const instant = parseDateTime(trimmed, zone) ?? monthFirst(trimmed, zone) ?? serial(trimmed, zone);
  return instant === undefined ? problem(`"${text}" is not a date`) : ok(new Date(instant).toISOString());
}

function monthFirst(text: string, zone: string): number | undefined {
  const match = MONTH_FIRST.exec(text);
  if (!match) return undefined;
  const [, month, day, year, time] = match;
  return parseDateTime(`${year}/${month}/${day}${time}`, zone);
}

function serial(text: string, zone: string): number | undefined {
  if (!SERIAL.test(text)) return undefined;
  const wall = new Date(DAY_ZERO + Math.round(Number(text) * 86_400_000));
  return parseDateTime(wall.toISOString().slice(0, 19), zone);
}

/** A person by name or id: Manager and Owner (a number), or a `[[Users]]` Class column (its text). */
export function userCell(text: string, context: CellContext, asNumber: boolean): Cell {
  const trimmed = text.trim();
  if (trimmed === '') return ok(asNumber ? 0 : null);
  const id = /^\d+$/.test(trimmed) ? Number(trimmed) : context.userIds.get(trimmed);
  if (id !== undefined) return ok(asNumber ? id : String(id));
  return asNumber ? problem(`"${text}" is no user of the tenant`) : ok(trimmed);
}

/** One choice's key from its display text, short text or key; unknown text as it is. */
export function choiceKey(column: Column, text: string, context: CellContext): string {
  const trimmed = text.trim();
  const choices = staticChoices(column.choices);
  const found =
    choices.find((choice) => choice.value === trimmed) ??
    choices.find((choice) => choice.text === trimmed) ??
    choices.find((choice) => choice.textMini === trimmed);
  if (found) return found.value;
  if (choiceSources(column.choices).some((source) => source.kind === 'users')) {
    const user = userCell(trimmed, context, false);
    if ('value' in user && typeof user.value === 'string') return user.value;
  }
  return trimmed;
}

/** A Class column with choices: one key, or a JSON array of them when it takes several. */
export function choiceCell(column: Column, text: string, context: CellContext): Cell {
  if (text.trim() === '') return ok(null);
  if (!column.multipleSelections) return textCell(choiceKey(column, text, context));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.some((entry) => typeof entry !== 'string' && typeof entry !== 'number')
  )
    return problem(`"${text}" is not a JSON array of choices`);
  return textCell(JSON.stringify(parsed.map((entry) => choiceKey(column, String(entry), context))));
}

/** Status: a choice's text or key, stored as its number. */
export function statusCell(column: Column, text: string, context: CellContext): Cell {
  if (text.trim() === '') return ok(undefined);
  const key = choiceKey(column, text, context);
  return /^-?\d{1,9}$/.test(key) ? ok(Number(key)) : problem(`"${text}" is no status of the site`);
}
