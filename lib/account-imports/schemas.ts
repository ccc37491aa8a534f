import * as z from 'zod';
import { apiRequest, text } from '../schema';

/**
 * The `parameters` field of an import's multipart body (reference ImportApi): Encoding `Shift-JIS` reads
 * Shift_JIS, anything else UTF-8 (with or without BOM); ReplaceAllGroupMembers is the groups import's.
 * The items import's own fields (UpdatableImport, Key, MigrationMode) mean nothing here and are ignored,
 * as the reference ignores them on these endpoints.
 */
export const accountImportParameters = z
  .object({
    ...apiRequest,
    Encoding: text({ max: 64 }).optional(),
    ReplaceAllGroupMembers: z.boolean().optional(),
  })
  .meta({ id: 'AccountImportParameters' });
export type AccountImportParameters = z.infer<typeof accountImportParameters>;

/** The multipart form, for the OpenAPI document. */
export const accountImportForm = z
  .object({
    parameters: z.string().meta({
      description:
        'JSON text: {"ApiKey": "…", "Encoding": "UTF-8" | "Shift-JIS", "ReplaceAllGroupMembers": false}',
    }),
    file: z
      .string()
      .meta({ format: 'binary', description: 'The CSV: a header row of column labels, then one row each' }),
  })
  .meta({ id: 'AccountImportForm' });
