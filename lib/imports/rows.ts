import { MAX_LENGTH } from '../bounds';
import { TOP_LEVEL_COLUMNS } from '../columns/defaults';
import type { Column, ResolvedColumns } from '../columns/model';
import type { RecordWriteInput } from '../items/schemas';
import { parseDateTime } from '../zoned-time';
import {
  type Cell,
  type CellContext,
  checkCell,
  choiceCell,
  choiceKey,
  dateCell,
  numberCell,
  ok,
  statusCell,
  textCell,
  userCell,
} from './cells';

/**
 * A CSV file's header and rows as record writes (../reference/pleasanter-export-import.md §2): headers
 * name columns by LabelText in the caller's language, `Label[Choice]` is one choice of a column as a flag,
 * unknown headers and Attachments are skipped, the ID is read (as a key) but never written, and the
 * columns only a MigrationMode import writes (Creator, Updator, CreatedTime, UpdatedTime) are skipped.
 */

export interface ImportColumn {
  /** The cell's position in each row. */
  readonly index: number;
  readonly column: Column;
  /** A flag column (`Label[Choice]`): the key of its choice. */
  readonly flag?: string;
}

/** What is wrong with one cell: its row (1 = the first row after the header), its column's label, why. */
export interface RowError {
  readonly Row: number;
  readonly Column: string;
  readonly Message: string;
}

/** A row as a record write; `comments` replace the record's comments when given. */
export interface ImportRow {
  readonly row: number;
  readonly input: RecordWriteInput;
  readonly comments?: readonly ImportedComment[];
  /** The Key column's value as text (storedText of a record reads the same), when the row gives one. */
  readonly key?: string;
}

export interface ImportedComment {
  readonly body: string;
  readonly creator?: number;
  readonly createdAt?: number;
}

const SKIPPED_KINDS = new Set(['attachments', 'titleBody', 'version']);
const MIGRATION_ONLY = new Set(['Creator', 'Updator', 'CreatedTime', 'UpdatedTime']);
// The record's top-level columns (lib/columns/defaults.ts), and Locked, which an import may also set.
const TOP_LEVEL = new Set([...TOP_LEVEL_COLUMNS, 'Locked']);

/** The columns the header names, each once (a repeated one keeps its last header, as the reference). */
export function importColumns(columns: ResolvedColumns, header: readonly string[]): ImportColumn[] {
  const byLabel = new Map<string, Column>();
  for (const column of columns.list) {
    if (SKIPPED_KINDS.has(column.kind) || MIGRATION_ONLY.has(column.columnName)) continue;
    if (!byLabel.has(column.labelText)) byLabel.set(column.labelText, column);
  }
  const found = new Map<string, ImportColumn>();
  header.forEach((text, index) => {
    const label = text.trim();
    const column = byLabel.get(label);
    if (column) {
      found.set(column.columnName, { index, column });
      return;
    }
    const flag = /^(.*)\[(.*)\]$/s.exec(label);
    const flagged = flag && byLabel.get((flag[1] as string).trim());
    if (flagged && (flagged.kind === 'text' || flagged.kind === 'status') && flagged.choicesText !== '') {
      const key = choiceKey(flagged, flag[2] as string, { zone: 'UTC', userIds: new Map() });
      found.set(`${flagged.columnName}[${key}]`, { index, column: flagged, flag: key });
    }
  });
  return [...found.values()];
}

/** A row's write, or what is wrong with its cells (every cell is read, so every problem is named). */
export function readRow(
  columns: readonly ImportColumn[],
  cells: readonly string[],
  row: number,
  context: CellContext,
  key?: string,
): { row: ImportRow } | { errors: RowError[] } {
  const input: Record<string, unknown> = {};
  const errors: RowError[] = [];
  const flags = new Map<Column, string[]>();
  let comments: ImportedComment[] | undefined;
  let keyText: string | undefined;
  for (const { index, column, flag } of columns) {
    const text = cells[index] ?? '';
    if (flag !== undefined) {
      const cell = checkCell(text);
      if ('problem' in cell) errors.push({ Row: row, Column: column.labelText, Message: cell.problem });
      else if (cell.value === true) flags.set(column, [...(flags.get(column) ?? []), flag]);
      else flags.set(column, flags.get(column) ?? []);
      continue;
    }
    if (column.kind === 'comments') {
      const read = commentsCell(text, context.zone);
      if ('problem' in read) errors.push({ Row: row, Column: column.labelText, Message: read.problem });
      else comments = read.value as ImportedComment[] | undefined;
      continue;
    }
    const cell = cellOf(column, text, context);
    if ('problem' in cell) {
      errors.push({ Row: row, Column: column.labelText, Message: cell.problem });
      continue;
    }
    if (column.columnName === key) keyText = keyTextOf(column, cell.value);
    if (column.kind !== 'id') put(input, column, cell.value);
  }
  for (const [column, keys] of flags) {
    const value = column.multipleSelections ? JSON.stringify(keys) : (keys.at(-1) ?? null);
    const stored = column.kind === 'status' ? (value === null ? undefined : Number(value)) : value;
    put(input, column, stored);
    if (column.columnName === key) keyText = keyTextOf(column, stored);
  }
  if (errors.length > 0) return { errors };
  return {
    row: {
      row,
      input: input as RecordWriteInput,
      ...(comments && { comments }),
      ...(keyText !== undefined && { key: keyText }),
    },
  };
}

function cellOf(column: Column, text: string, context: CellContext): Cell {
  switch (column.kind) {
    case 'id':
      return /^\s*\d{1,15}\s*$/.test(text) || text.trim() === ''
        ? ok(text.trim() === '' ? undefined : Number(text))
        : { problem: `"${text}" is not an id` };
    case 'number':
      return numberCell(text, column.nullable);
    case 'date':
      return dateCell(text, context.zone);
    case 'check':
      return checkCell(text);
    case 'user':
      return userCell(text, context, true);
    case 'status':
      return statusCell(column, text, context);
    case 'description':
      return textCell(text, MAX_LENGTH.text);
    default:
      if (column.choicesText === '' || column.columnName === 'Title') return textCell(text);
      return choiceCell(column, text, context);
  }
}

/** Where a column's value goes in a write body: a top-level field or its family's hash. */
function put(input: Record<string, unknown>, column: Column, value: unknown): void {
  if (value === undefined) return;
  const name = column.columnName;
  if (TOP_LEVEL.has(name)) {
    // A cleared Manager or Owner is nobody (0); a cleared Status is left as it is.
    input[name] = value;
    return;
  }
  if (!column.family) return;
  // An empty cell (and a false Check, an empty multi-select) leaves the column without a value, as a
  // record that never had one: what the export writes for one reads back as it.
  const empty = value === '' || value === false || value === '[]';
  const hash = `${column.family}Hash`;
  input[hash] = { ...(input[hash] as Record<string, unknown> | undefined), [name]: empty ? null : value };
}

/** The text a record's stored value of the Key column has (lib/imports/plan.ts storedText), for a cell. */
function keyTextOf(column: Column, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (column.columnName === 'StartTime' || column.columnName === 'CompletionTime')
    return String(Date.parse(String(value)));
  return String(value);
}

/**
 * Comments replace the record's comments: a JSON array `[{Body, Creator?, CreatedTime?}]` (the export's
 * JSON form, oldest first) is one comment each, any other text one comment; empty leaves them.
 */
function commentsCell(text: string, zone: string): Cell {
  if (text.trim() === '') return ok(undefined);
  if (text.trim().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { problem: 'the comments are not a JSON array' };
    }
    if (!Array.isArray(parsed)) return { problem: 'the comments are not a JSON array' };
    const comments: ImportedComment[] = [];
    for (const entry of parsed) {
      const body = (entry as Record<string, unknown> | null)?.Body;
      if (typeof body !== 'string') return { problem: 'a comment of the JSON array has no Body' };
      const creator = Number((entry as Record<string, unknown>).Creator);
      const createdAt = parseDateTime(String((entry as Record<string, unknown>).CreatedTime ?? ''), zone);
      comments.push({
        body,
        ...(Number.isSafeInteger(creator) && creator > 0 && { creator }),
        ...(createdAt !== undefined && { createdAt }),
      });
    }
    return ok(comments);
  }
  return text.length > 65_536 ? { problem: 'longer than 65536 characters' } : ok([{ body: text }]);
}
