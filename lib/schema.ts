import * as z from 'zod';
import { decimal as boundedDecimal, MAX_LENGTH, text } from './bounds';

// Every string a request carries has a maximum length (lib/bounds.ts): `text` takes one, always.
export { text };

/**
 * A whole number, where a numeric string is taken as its number (`"910"`), as Newtonsoft reads an int
 * (reference/pleasanter-items-api.md 1): whitespace and a sign allowed, `"910.0"` refused.
 */
export function integer(checks: { min?: number; max?: number } = {}) {
  let number = z
    .number()
    .int()
    .min(checks.min ?? Number.MIN_SAFE_INTEGER)
    .max(checks.max ?? Number.MAX_SAFE_INTEGER);
  number = number.min(checks.min ?? Number.MIN_SAFE_INTEGER);
  const numeric = z
    .string()
    .max(40)
    .regex(/^\s*[+-]?\d{1,16}\s*$/)
    .transform(Number)
    .pipe(number);
  return z.union([number, numeric]);
}

/**
 * A boolean as Newtonsoft reads one: true/false, a number (0 false, any other true), `"true"`/`"false"`
 * in any case; `"1"` is refused, as there.
 */
export function boolean() {
  return z.union([
    z.boolean(),
    z
      .number()
      .int()
      .min(-(2 ** 31))
      .max(2 ** 31 - 1)
      .transform((value) => value !== 0),
    z
      .string()
      .max(20)
      .regex(/^\s*(true|false)\s*$/i)
      .transform((value) => value.trim().toLowerCase() === 'true'),
  ]);
}

/**
 * A decimal, where a numeric string is taken as its number, thousands separators allowed (`"1,000"`), as
 * Newtonsoft reads a decimal; finite only.
 */
export function decimal() {
  const number = boundedDecimal();
  const numeric = z
    .string()
    .max(40)
    .regex(/^\s*[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?\s*$/)
    .refine((value) => /\d/.test(value), { message: 'not a number' })
    .transform((value) => Number(value.replaceAll(',', '').trim()))
    .pipe(number);
  return z.union([number, numeric]);
}

/** The fields every API request may carry (spec 2.1); the stack has already checked their types. */
export const apiRequest = {
  ApiKey: text({ max: MAX_LENGTH.apiKey }).optional(),
  ApiVersion: z
    .union([
      z.number().min(0).max(100),
      z
        .string()
        .max(20)
        .regex(/^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/),
    ])
    .optional(),
};

/** ApiResult (spec 2.1, CONTRACT section 1). */
export const apiResultSchema = z
  .object({
    Id: z.number().int(),
    StatusCode: z.number().int(),
    LimitPerDate: z.number().int().optional(),
    LimitRemaining: z.number().int().optional(),
    Message: z.string(),
  })
  .meta({ id: 'ApiResult' });

/** ApiResult with the new API key, shown only in this answer. */
export const apiKeyResultSchema = apiResultSchema.extend({ ApiKey: z.string().regex(/^[0-9a-f]{128}$/) });

/** The reference's paged read: `{StatusCode: 200, Response: {Offset, PageSize, TotalCount, Data}}`. */
export function pagedSchema(item: z.ZodType) {
  return z.object({
    StatusCode: z.literal(200),
    Response: z.object({
      Offset: z.number().int(),
      PageSize: z.number().int(),
      TotalCount: z.number().int(),
      Data: z.array(item),
    }),
  });
}
