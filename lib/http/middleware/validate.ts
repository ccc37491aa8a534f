import type * as z from 'zod';
import { InvalidInputError } from '../../errors';
import { canonicalize } from '../case-insensitive';
import type { ApiMiddleware } from '../event';

/** The most problems one answer lists: a hostile body may have thousands. */
const MAX_PROBLEMS = 20;

/**
 * Checks the body against the endpoint's zod schema; any mismatch is 400 `Invalid request.`, with each
 * problem (property path and what was wrong) in the answer's `Errors`.
 */
export function validate(schema: z.ZodType): ApiMiddleware {
  const validateBefore: ApiMiddleware['before'] = (request) => {
    const { kiroku } = request.internal;
    const result = schema.safeParse(canonicalize(kiroku.json, schema));
    if (!result.success) {
      throw new InvalidInputError(
        result.error.issues.slice(0, MAX_PROBLEMS).map((issue) => ({
          Property: issue.path.length > 0 ? issue.path.join('.') : undefined,
          Problem: issue.message,
        })),
      );
    }
    kiroku.input = result.data;
  };
  return { before: validateBefore };
}
