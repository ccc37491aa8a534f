import { instantOf, parseDateTime, startOfDay, wallTime } from '../../zoned-time';
import type { ItemRecord } from '../model';
import type { Column } from './columns';
import {
  describe,
  type FilterValue,
  filterValue,
  type Path,
  refuse,
  requireList,
  subHash,
} from './filter-values';

/**
 * ColumnFilterHash → one predicate over records, with the reference's value syntax per column type
 * (reference/pleasanter-items-api.md 2.2; View.cs SetColumnsWhere). Entries are AND-ed; `or_*` and
 * `and_*` keys hold a sub-hash whose entries are OR-ed or AND-ed. Where the reference silently skips a
 * filter (an unknown column, a value that does not parse for the column), this refuses it (CONTRACT 5.1).
 */

export type Predicate<R = ItemRecord> = (record: R) => boolean;

export interface FilterContext<R = ItemRecord> {
  readonly columns: ReadonlyMap<string, Column<R>>;
  /** ColumnFilterSearchTypes, already checked. */
  readonly searchTypes: ReadonlyMap<string, number>;
  readonly userId: number;
  readonly zone: string;
  readonly now: number;
  /**
   * ColumnFilterNegatives: the filter names to negate (`ClassA`, `or_1\ClassA` inside a group). Every
   * name a hash holds is added to `named`, so that the View can refuse a negative that names none.
   */
  readonly negatives?: ReadonlySet<string>;
  readonly named?: Set<string>;
}

const INTEGER = /^\s*[+-]?\d+\s*$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const RANGE = /^-?[0-9.]*,-?[0-9.]*$/;
const EMPTY = '\t';

export function hashPredicate<R>(
  path: Path,
  hash: Record<string, unknown>,
  context: FilterContext<R>,
  group?: string,
): Predicate<R>[] {
  return Object.entries(hash).map(([key, raw]) => {
    // The reference names a filter inside a group by the group's name, a backslash and its own (View.cs).
    const name = group === undefined ? key : `${group}\\${key}`;
    context.named?.add(name);
    return entryPredicate(`${path}.${key}`, key, raw, context, name);
  });
}

function entryPredicate<R>(
  path: Path,
  key: string,
  raw: unknown,
  context: FilterContext<R>,
  name: string,
): Predicate<R> {
  const negative = context.negatives?.has(name) === true;
  if (key.startsWith('or_') || key.startsWith('and_')) {
    // The reference negates the columns of a group, never the group itself (SetColumnsWhere).
    if (negative)
      refuse(
        'View.ColumnFilterNegatives',
        `${JSON.stringify(name)} is a group; name the filters inside it, as "${name}\\ColumnName"`,
      );
    const parts = hashPredicate<R>(path, subHash(path, raw), context, name);
    if (parts.length === 0) refuse(path, 'an empty group filters nothing');
    return key.startsWith('or_') ? (r) => parts.some((p) => p(r)) : (r) => parts.every((p) => p(r));
  }
  const column = context.columns.get(key);
  if (!column) refuse(path, `this table has no column ${key}`);
  if (raw === null || raw === undefined || raw === '') refuse(path, 'the filter has no value');
  if (negative && column.people)
    refuse(
      'View.ColumnFilterNegatives',
      `${name} holds ${column.people.toLowerCase()}s, and a negative filter cannot be used on a user, group or dept column`,
    );
  const positive = columnPredicate(path, column, filterValue(path, raw), context);
  // Every kind's negation in the reference (View.cs Cs*Columns with negative) is the complement of its
  // positive filter, NULL included: `!=` all values or NULL, NOT LIKE or empty, NOT IN / NOT BETWEEN or
  // NULL, an inverted boolean, a date outside every range or NULL, "\t" as "not empty".
  const predicate: Predicate<R> = negative ? (r) => !positive(r) : positive;
  const readable = column.readable;
  return readable ? (r) => readable(r) && predicate(r) : predicate;
}

function columnPredicate<R>(
  path: Path,
  column: Column<R>,
  value: FilterValue,
  context: FilterContext<R>,
): Predicate<R> {
  switch (column.kind) {
    case 'numeric':
    case 'user':
      return numeric(path, column, value, context);
    case 'date':
      return date(path, column, value, context);
    case 'bool':
      return bool(path, column, value);
    case 'choices':
      return column.multiple ? multipleChoices(path, column, value, context) : choices(path, column, value);
    case 'text':
      return text(path, column, value, context);
  }
}

/** A number, or 0 for an empty value of a column that is not nullable (the reference stores 0 there). */
export function numberOf<R>(column: Column<R>, record: R): number | undefined {
  const value = column.read(record);
  if (typeof value === 'number') return value;
  return column.nullable ? undefined : 0;
}

function numeric<R>(
  path: Path,
  column: Column<R>,
  value: FilterValue,
  context: FilterContext<R>,
): Predicate<R> {
  const own = column.kind === 'user' ? context.userId : undefined;
  if (value.text !== undefined && INTEGER.test(value.text)) return equals(column, Number(value.text));
  if (value.text?.trim() === 'Own' && own !== undefined) return equals(column, own);
  const list = requireList(path, value, 'a whole number or a JSON list of numbers and ranges');
  const tests = list.map((item): Predicate<R> => {
    // NULL; a column that is not nullable stores 0 for empty, so 0 is empty there too.
    if (item === EMPTY) return (r) => numberOf(column, r) === (column.nullable ? undefined : 0);
    if (item === 'Own' && own !== undefined) return equals(column, own);
    if (RANGE.test(item)) {
      const [fromText = '', toText = ''] = item.split(',');
      if (fromText === '' && toText === '') refuse(path, `the range ${JSON.stringify(item)} has no bound`);
      const from = fromText === '' ? Number.NEGATIVE_INFINITY : decimal(path, fromText);
      const to = toText === '' ? Number.POSITIVE_INFINITY : decimal(path, toText);
      return (r) => {
        const n = numberOf(column, r);
        return n !== undefined && from <= n && n <= to;
      };
    }
    return equals(column, decimal(path, item));
  });
  return (r) => tests.some((test) => test(r));
}

function decimal(path: Path, text: string): number {
  if (!DECIMAL.test(text)) refuse(path, `${JSON.stringify(text)} is not a number`);
  return Number(text);
}

function equals<R>(column: Column<R>, wanted: number): Predicate<R> {
  return (r) => numberOf(column, r) === wanted;
}

function date<R>(path: Path, column: Column<R>, value: FilterValue, context: FilterContext<R>): Predicate<R> {
  const list = requireList(path, value, 'a JSON list of dates or date ranges');
  // A CompletionTime shown as a date is stored a day later (reference 4), so its bounds move with it.
  const shift = column.name === 'CompletionTime' && column.dateOnly ? 1 : 0;
  const day = (instant: number, days: number) => startOfDay(instant, context.zone, days + shift);
  const at = (text: string) => {
    const instant = parseDateTime(text, context.zone);
    if (instant === undefined) refuse(path, `${JSON.stringify(text)} is not a date`);
    return shift === 0 ? instant : day(instant, 0) + (instant - startOfDay(instant, context.zone));
  };
  const tests = list.map((item): Predicate<R> => {
    if (item === EMPTY) return (r) => column.read(r) === undefined;
    const comma = item.indexOf(',');
    const fromText = (comma < 0 ? item : item.slice(0, comma)).trim();
    const toText = comma < 0 ? '' : item.slice(comma + 1).trim();
    let from = Number.NEGATIVE_INFINITY;
    let to = Number.POSITIVE_INFINITY;
    const period = periodOf(fromText, context);
    if (period) [from, to] = [day(period.start, 0), day(period.end, 0) - 1];
    else {
      if (fromText === '' && toText === '') refuse(path, `the range ${JSON.stringify(item)} has no bound`);
      if (fromText !== '') from = at(fromText);
      if (toText !== '') to = at(toText);
    }
    return (r) => {
      const time = column.read(r);
      return typeof time === 'number' && from <= time && time <= to;
    };
  });
  return (r) => tests.some((test) => test(r));
}

/** Today, ThisMonth, ThisYear in the caller's zone: [start, end) as instants of midnights. */
function periodOf<R>(name: string, context: FilterContext<R>): { start: number; end: number } | undefined {
  const { zone, now } = context;
  const today = wallTime(now, zone);
  const midnight = (year: number, month: number, day: number) =>
    instantOf({ year, month, day, hour: 0, minute: 0, second: 0, millisecond: 0 }, zone);
  switch (name) {
    case 'Today':
      return { start: startOfDay(now, zone), end: startOfDay(now, zone, 1) };
    case 'ThisMonth':
      return { start: midnight(today.year, today.month, 1), end: midnight(today.year, today.month + 1, 1) };
    case 'ThisYear':
      return { start: midnight(today.year, 1, 1), end: midnight(today.year + 1, 1, 1) };
    default:
      return undefined;
  }
}

function bool<R>(path: Path, column: Column<R>, value: FilterValue): Predicate<R> {
  switch (value.text?.toLowerCase()) {
    case '1':
    case 'true':
      return (r) => column.read(r) === true;
    case '2':
    case 'false':
      return (r) => column.read(r) !== true;
    default:
      return refuse(path, `${describe(value)} is not "1"/"true" (on) or "2"/"false" (off)`);
  }
}

const isEmptyText = (value: unknown) => value === undefined || value === '';

function text<R>(path: Path, column: Column<R>, value: FilterValue, context: FilterContext<R>): Predicate<R> {
  const searchType = context.searchTypes.get(column.name) ?? column.searchType;
  const read = (r: R) => {
    const v = column.read(r);
    return typeof v === 'string' ? v : undefined;
  };
  if (searchType > 10) {
    const list = requireList(path, value, `a JSON list for the search type ${searchType}`);
    const match = matcher(searchType - 10);
    return (r) => {
      const v = read(r);
      return list.some((item) => (item === EMPTY ? isEmptyText(v) : v !== undefined && match(v, item)));
    };
  }
  const wanted = value.text;
  if (wanted === undefined)
    return refuse(path, `${describe(value)} is not a text; use a *Multiple search type`);
  if (wanted === ' ' || wanted === '\u3000') return (r) => isEmptyText(read(r));
  const match = matcher(searchType);
  return (r) => {
    const v = read(r);
    return v !== undefined && match(v, wanted);
  };
}

/** ExactMatch compares as is; Forward and Partial compare without case, as the reference's LIKE does. */
function matcher(searchType: number): (value: string, wanted: string) => boolean {
  if (searchType === 2) return (value, wanted) => value === wanted;
  if (searchType === 3) return (value, wanted) => value.toLowerCase().startsWith(wanted.toLowerCase());
  return (value, wanted) => value.toLowerCase().includes(wanted.toLowerCase());
}

/** A single-select choice column: a JSON list of choices, `"\t"` for none. */
function choices<R>(path: Path, column: Column<R>, value: FilterValue): Predicate<R> {
  const list = requireList(path, value, 'a JSON list of choices');
  return (r) => {
    const v = column.read(r);
    return list.some((item) => (item === EMPTY ? isEmptyText(v) : v === item));
  };
}

/** A multi-select choice column stores a JSON list of the chosen values. */
function multipleChoices<R>(
  path: Path,
  column: Column<R>,
  value: FilterValue,
  context: FilterContext<R>,
): Predicate<R> {
  const list = requireList(path, value, 'a JSON list of choices');
  const searchType = (context.searchTypes.get(column.name) ?? column.searchType) % 10;
  const chosen = (r: R): string[] | undefined => {
    const v = column.read(r);
    if (typeof v !== 'string' || v === '' || v === '[]') return undefined;
    try {
      const parsed: unknown = JSON.parse(v);
      return Array.isArray(parsed) ? parsed.map(String) : [v];
    } catch {
      return [v];
    }
  };
  const empty = list.every((item) => item === EMPTY);
  if (searchType === 2) {
    return (r) => {
      const values = chosen(r);
      if (empty) return values === undefined;
      return values !== undefined && values.length === list.length && values.every((v, i) => v === list[i]);
    };
  }
  if (searchType === 3) {
    return (r) => {
      const values = chosen(r);
      if (empty) return values === undefined;
      return values !== undefined && list.every((item, i) => values[i] === item);
    };
  }
  return (r) => {
    const values = chosen(r);
    return list.some((item) => (item === EMPTY ? values === undefined : values?.includes(item) === true));
  };
}
