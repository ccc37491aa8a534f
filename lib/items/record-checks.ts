import type { Column } from '../columns/model';
import { validateValue } from '../columns/validation';
import { NotMatchRegexError, TooLongTextError, UnsupportedInputError } from '../errors';
import type { ItemRecord } from './model';
import { storedValue } from './record-values';

/** The kinds whose value is checked as text (dates, checks and files have no text of their own). */
const TEXT_KINDS = new Set(['text', 'description', 'number', 'status', 'user', 'comments']);

/**
 * MaxLength, then ServerRegexValidation, of every column among `checked` that holds a value in the record
 * as it will be saved (the reference's OnInputValidating checks every column; a comment only when the
 * write adds it): the first failure is thrown, 422 (a pattern that runs out of time: 400 naming it).
 */
export function validateRecord(
  checked: readonly Column[],
  before: ItemRecord | undefined,
  after: ItemRecord,
): void {
  for (const column of checked) {
    if (!TEXT_KINDS.has(column.kind)) continue;
    const text =
      column.kind === 'comments'
        ? addedComment(before, after)
        : (valueTextOf(after, column.columnName) ?? '');
    const failure = validateValue(column, text);
    if (!failure) continue;
    if (failure.kind === 'tooLong') throw new TooLongTextError(column.columnName, failure.maxLength);
    if (failure.kind === 'notMatch') throw new NotMatchRegexError(column.columnName, failure.message);
    throw new UnsupportedInputError(
      `${column.labelText} (${column.columnName}): its ServerRegexValidation ran out of time on the value`,
    );
  }
}

function valueTextOf(record: ItemRecord, columnName: string): string | undefined {
  const value = storedValue(record, columnName);
  return value === undefined ? undefined : String(value);
}

/** The comment the write adds, the newest one, if it is new. */
function addedComment(before: ItemRecord | undefined, after: ItemRecord): string {
  const [newest] = after.comments ?? [];
  const known = Math.max(0, ...(before?.comments ?? []).map((comment) => comment.commentId));
  return newest && newest.commentId > known ? newest.body : '';
}
