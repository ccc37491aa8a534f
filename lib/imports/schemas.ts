import * as z from 'zod';
import { apiRequest, boolean, text } from '../schema';

/** The import's parameters (the reference's ImportApi), sync and as a background task (CONTRACT 12). */
const importFields = {
  ...apiRequest,
  Encoding: text({ max: 32 })
    .nullable()
    .optional()
    .meta({ description: '`Shift-JIS` reads the file as Shift_JIS (code page 932); anything else as UTF-8' }),
  Key: text({ max: 64 }).nullable().optional().meta({
    description: 'A ColumnName: with UpdatableImport, the row whose value one record holds updates it',
  }),
  UpdatableImport: boolean().nullable().optional(),
  MigrationMode: boolean()
    .nullable()
    .optional()
    .meta({ description: 'not available in Kiroku: true is a 400 naming it' }),
};

/** The JSON of the multipart `parameters` field. */
export const importParameters = z.object(importFields).meta({ id: 'ImportParameters' });

/** The multipart form, for the document: the body is read by the handler (lib/http/middleware/json-body.ts). */
export const importForm = z.object({
  parameters: z
    .string()
    .meta({ description: 'The ImportParameters as JSON text: ApiKey, Encoding, Key, UpdatableImport' }),
  file: z
    .string()
    .meta({ format: 'binary', description: 'The CSV: the first file part of the form, whatever its name' }),
});

export const importTaskRequest = z
  .object({
    ...importFields,
    Guid: text({ min: 1, max: 64 }).meta({
      description: 'The GUID /api/binaries/upload answered for the CSV, uploaded by the same user',
    }),
  })
  .meta({ id: 'ImportTaskRequest' });
