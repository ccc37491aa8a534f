import type * as z from 'zod';
import { ImportRowError } from './csv-table';

/** A row's fields through the account API's own schema: the first problem is the row's 400. */
export function checked<S extends z.ZodType>(
  schema: S,
  row: number,
  fields: Record<string, unknown>,
): z.infer<S> {
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  throw new ImportRowError(row, String(issue?.path[0] ?? 'row'), issue?.message ?? 'invalid');
}
