import type * as z from 'zod';
import { BadRequestError } from '../../errors';
import { canonicalize } from '../case-insensitive';
import type { ApiMiddleware } from '../event';

/** Checks the body against the endpoint's zod schema; any mismatch is 400 `Invalid request.` */
export function validate(schema: z.ZodType): ApiMiddleware {
  const validateBefore: ApiMiddleware['before'] = (request) => {
    const { kiroku } = request.internal;
    const result = schema.safeParse(canonicalize(kiroku.json, schema));
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new BadRequestError(`${issue?.path.join('.') || 'body'}: ${issue?.message}`);
    }
    kiroku.input = result.data;
  };
  return { before: validateBefore };
}
