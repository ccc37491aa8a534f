import { type CsvEncoding, csvRows } from '../csv/csv';
import { ApiError } from '../errors';

/**
 * The CSV of a users, groups or depts import (reference UserUtilities/GroupUtilities/DeptUtilities
 * ImportByApi) read whole: the reference's own limit is its 30 MB request, Kiroku's the 6 MB a Lambda
 * request carries. Headers name columns by their label, in English or Japanese as the reference's screens
 * show them, or by the column's name; unknown headers are skipped, as the reference skips them.
 */

export interface Column {
  readonly name: string;
  /** The labels the reference shows for it: English, Japanese. */
  readonly labels: readonly string[];
}

export interface CsvTable {
  /** Each data row's cells by column name, with its row number in the file (the header is row 1). */
  readonly rows: readonly { readonly row: number; readonly cells: ReadonlyMap<string, string> }[];
  readonly columns: ReadonlySet<string>;
}

export async function readCsvTable(
  file: Uint8Array | undefined,
  encoding: CsvEncoding,
  columns: readonly Column[],
  required: readonly string[],
): Promise<CsvTable> {
  if (!file || file.length === 0) throw new ImportFileError('Please select a file.');
  const byHeader = new Map<string, string>();
  for (const column of columns) {
    for (const header of [column.name, ...column.labels]) byHeader.set(header.toLowerCase(), column.name);
  }
  let indexes: [number, string][] | undefined;
  const rows: { row: number; cells: Map<string, string> }[] = [];
  let row = 1;
  for await (const cells of csvRows([file], { encoding })) {
    if (!indexes) {
      // The last of a repeated header wins, as the reference keeps a column's last mapping.
      const mapped = new Map<string, number>();
      cells.forEach((header, index) => {
        const name = byHeader.get(header.trim().toLowerCase());
        if (name) mapped.set(name, index);
      });
      indexes = [...mapped].map(([name, index]) => [index, name]);
      continue;
    }
    row++;
    if (cells.every((cell) => cell === '')) continue;
    rows.push({
      row,
      cells: new Map(indexes.map(([index, name]) => [name, (cells[index] ?? '').trim()])),
    });
  }
  if (!indexes || rows.length === 0) throw new ImportFileError('Please select a file.');
  const present = new Set(indexes.map(([, name]) => name));
  for (const name of required) {
    if (!present.has(name)) {
      const label = columns.find((column) => column.name === name)?.labels[0] ?? name;
      throw new ImportFileError(`The required column is not included. Column:${label}`);
    }
  }
  return { rows, columns: present };
}

/** A file that cannot be imported as a whole: no rows, a required column missing. */
export class ImportFileError extends ApiError {
  constructor(message: string) {
    super(400, message, message, undefined, [{ Property: 'file', Problem: message }]);
  }
}

/**
 * A row that cannot be imported: 400 naming its row and column, before anything was written. `message`
 * is the reference's text where it has one for the case.
 */
export class ImportRowError extends ApiError {
  constructor(row: number, column: string, problem: string, message = `Row ${row}, ${column}: ${problem}`) {
    super(400, message, `row ${row}, ${column}: ${problem}`, undefined, [
      { Property: `Row ${row}.${column}`, Problem: problem },
    ]);
  }
}

/** The reference's CSV booleans (Column.RecordingData for Check): 1, true and on, any case. */
export function csvBoolean(cell: string): boolean {
  return ['1', 'true', 'on', '-1'].includes(cell.trim().toLowerCase());
}
