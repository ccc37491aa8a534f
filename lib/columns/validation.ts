import { createContext, Script } from 'node:vm';
import type { Column } from './model';

/**
 * The server-side checks of a write (reference/pleasanter-columns.md 5, `OnInputValidating`): for every
 * column with a value that is not empty, MaxLength (the admin's limit, counted in characters: code
 * points, so that an emoji counts once) and then ServerRegexValidation. The first failure is the answer
 * (422), as the reference answers its first error only.
 *
 * A site's pattern is untrusted: it runs in a separate V8 context under a time limit (REGEX_TIME_LIMIT_MS),
 * which stops a catastrophic backtracking pattern mid-run; one that runs out of time is refused as a
 * pattern that cannot be applied (400 naming the column), never left to block the function. A pattern
 * is read as .NET reads it where JavaScript agrees; one neither Unicode nor plain JavaScript compiles is
 * a failed match, as the reference answers a pattern .NET cannot parse (`ArgumentException`).
 */

// Generous: a busy machine (or a GC pause) can hold a plain pattern for tens of milliseconds.
export const REGEX_TIME_LIMIT_MS = 1_000;

export type ValidationFailure =
  | { readonly kind: 'tooLong'; readonly column: Column; readonly maxLength: number }
  | { readonly kind: 'notMatch'; readonly column: Column; readonly message: string }
  | { readonly kind: 'regexTimeout'; readonly column: Column };

const sandbox = createContext(Object.create(null));
const test = new Script('(() => { try { return new RegExp(p, f).test(v); } catch { return null; } })()');

/** Whether the value matches the pattern: true, false, null when no flags compile it, 'timeout'. */
export function matchesPattern(pattern: string, value: string): boolean | null | 'timeout' {
  // Unicode first, which reads \p{...} as .NET does; plain where Unicode refuses an escape .NET takes.
  for (const flags of ['u', '']) {
    Object.assign(sandbox, { p: pattern, f: flags, v: value });
    try {
      const result = test.runInContext(sandbox, { timeout: REGEX_TIME_LIMIT_MS }) as boolean | null;
      if (result !== null) return result;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
      throw error;
    } finally {
      Object.assign(sandbox, { p: undefined, v: undefined });
    }
  }
  return null;
}

/** The number of characters as a person counts them: code points. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * The first failure of the column's value (its text as the reference's `PropertyValue` gives it), or
 * undefined. Empty values are not checked, as in the reference.
 */
export function validateValue(column: Column, text: string): ValidationFailure | undefined {
  if (text === '') return undefined;
  if (column.maxLength !== undefined && characterCount(text) > column.maxLength) {
    return { kind: 'tooLong', column, maxLength: Math.trunc(column.maxLength) };
  }
  const pattern = column.serverRegexValidation;
  if (pattern === undefined || pattern === '') return undefined;
  const matched = matchesPattern(pattern, text);
  if (matched === 'timeout') return { kind: 'regexTimeout', column };
  if (matched === true) return undefined;
  return { kind: 'notMatch', column, message: regexMessage(column) };
}

/**
 * The reference answers the column's RegexValidationMessage itself (Displays `NotMatchRegex` is `{0}`),
 * an empty message when none is set; Kiroku names the column then, so that the caller knows what failed.
 */
export function regexMessage(column: Column): string {
  const message = column.regexValidationMessage;
  return message !== undefined && message !== ''
    ? message
    : `${column.labelText} does not match the pattern of the column.`;
}
