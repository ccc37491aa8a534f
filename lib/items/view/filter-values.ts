import { UnsupportedInputError } from '../../errors';

/**
 * The value of a ColumnFilterHash entry, as the reference receives it: a string, often holding JSON text
 * (`"[\"100\",\"910\"]"`); callers following the manual also send a real JSON array, and numbers or
 * booleans where a string is expected are taken as their text (CONTRACT 5.1 and 1).
 */
export type FilterValue = { readonly text?: string; readonly list?: readonly string[] };

/** Where a filter sits, for the 400's message: `View.ColumnFilterHash.NumA`. */
export type Path = string;

export function refuse(path: Path, why: string): never {
  throw new UnsupportedInputError(`${path}: ${why}.`);
}

/** Reads an entry: its text when it is a string, and its list when it is (or holds) a JSON array. */
export function filterValue(path: Path, raw: unknown): FilterValue {
  if (typeof raw === 'number' || typeof raw === 'boolean') return { text: String(raw) };
  if (Array.isArray(raw)) return { list: listItems(path, raw) };
  if (typeof raw !== 'string') refuse(path, 'a filter value is a string, a number or a JSON array');
  return { text: raw, list: jsonList(path, raw) };
}

/** The items of the JSON array the text holds; undefined when it holds no array. */
function jsonList(path: Path, text: string): readonly string[] | undefined {
  if (!text.trimStart().startsWith('[')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    refuse(path, `${JSON.stringify(text)} is not valid JSON`);
  }
  return Array.isArray(parsed) ? listItems(path, parsed) : undefined;
}

/** Items as Newtonsoft reads them into List<string>: strings as they are, numbers and booleans as text. */
function listItems(path: Path, items: readonly unknown[]): string[] {
  return items.map((item) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number' || typeof item === 'boolean') return String(item);
    return refuse(path, 'list items are strings or numbers');
  });
}

/** The value's list; a value that is not a list is refused with `expected`. */
export function requireList(path: Path, value: FilterValue, expected: string): readonly string[] {
  if (!value.list) refuse(path, `${describe(value)} is not ${expected}`);
  if (value.list.length === 0) refuse(path, 'an empty list filters nothing');
  return value.list;
}

export function describe(value: FilterValue): string {
  return value.text !== undefined ? JSON.stringify(value.text) : JSON.stringify(value.list);
}

/** A sub-hash of `or_`/`and_`: a JSON object, or JSON text holding one. */
export function subHash(path: Path, raw: unknown): Record<string, unknown> {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      refuse(path, 'a group is a JSON object of filters (or its JSON text)');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    refuse(path, 'a group is a JSON object of filters (or its JSON text)');
  }
  return value as Record<string, unknown>;
}
