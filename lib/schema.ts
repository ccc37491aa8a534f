import * as z from 'zod';

/** Text, where a number is also taken as its text (CONTRACT section 1, as Newtonsoft reads it). */
export function text(checks: { min?: number; max?: number } = {}) {
  let string = z.string();
  if (checks.min !== undefined) string = string.min(checks.min);
  if (checks.max !== undefined) string = string.max(checks.max);
  return z.union([string, z.number().transform(String)]);
}

/** The fields every API request may carry (spec 2.1); the stack has already checked their types. */
export const apiRequest = {
  ApiKey: text().optional(),
  ApiVersion: z.number().optional(),
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
