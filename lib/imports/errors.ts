import { ApiError } from '../errors';
import { messages } from '../messages';
import type { RowError } from './rows';

/**
 * The import's refusals (CONTRACT 12): a file with invalid rows is a 400 naming the first one's row and
 * column, with up to 100 of them in `Errors`, and nothing written.
 */

/** The reference's text of a row's problem: `Row {n}, {column}: {message}`. */
export function rowErrorText(error: RowError): string {
  return error.Column === ''
    ? `Row ${error.Row}: ${error.Message}`
    : `Row ${error.Row}, ${error.Column}: ${error.Message}`;
}

export class InvalidImportRowsError extends ApiError {
  constructor(errors: readonly RowError[]) {
    const [first] = errors;
    const text = first ? rowErrorText(first) : messages.badRequest;
    super(
      400,
      text,
      `${errors.length} invalid rows`,
      undefined,
      errors.map((error) => ({
        Property: `Row ${error.Row}${error.Column && `, ${error.Column}`}`,
        Problem: error.Message,
      })),
    );
  }
}

/** UpdatableImport with a Key no header names: the reference's message. */
export class ImportKeyColumnError extends ApiError {
  constructor(key: string) {
    super(400, 'It does not contain key column.', `no header for the key column ${key}`);
  }
}

/** A file without a header, or with no row after it: the reference's message. */
export class NoImportRowsError extends ApiError {
  constructor() {
    super(400, 'Please select a file.', 'the file has no rows');
  }
}

/** A site that holds no records of its own (only Issues and Results import). */
export class NotImportableSiteError extends ApiError {
  constructor(siteId: number, referenceType: string) {
    super(
      400,
      messages.badRequest,
      `site ${siteId} is ${referenceType}: only Issues and Results import`,
      undefined,
      [{ Problem: `site ${siteId} is ${referenceType}: only Issues and Results sites import records` }],
    );
  }
}

/** More rows than one request writes within the API's time limit. */
export class ImportTooLargeError extends ApiError {
  constructor(siteId: number, maxRows: number) {
    const text = `The file has more than ${maxRows} rows: upload it through /api/binaries/upload and import it with /api/BackgroundTasks/${siteId}/Import.`;
    super(400, text, text);
  }
}
