import * as z from 'zod';
import { freeForm, MAX_LENGTH } from '../bounds';
import { apiRequest, boolean, integer, text } from '../schema';

/**
 * The bodies of `items/{siteId}/export` and `BackgroundTasks/{siteId}/Export` (reference note §1): the
 * reference's `ExportApi`. The enumerations (Type, DelimiterType, a column's Type) take their names in any
 * case or their numbers, and are read by lib/exports/definition.ts, which names what it cannot take.
 */

const enumeration = z.union([z.string().max(20), z.number().int()]);

export const exportColumn = z.object({
  ColumnName: text({ max: 64 }),
  LabelText: text({ max: MAX_LENGTH.title }).nullable().optional(),
  Type: enumeration.nullable().optional(),
  Format: text({ max: 20 }).nullable().optional(),
  OutputClassColumn: boolean().nullable().optional(),
  ExportJsonFormat: boolean().nullable().optional(),
});

export const exportSettings = z
  .object({
    Name: text({ max: MAX_LENGTH.title }).nullable().optional(),
    Type: enumeration.nullable().optional(),
    Header: boolean().nullable().optional(),
    DelimiterType: enumeration.nullable().optional(),
    EncloseDoubleQuotes: boolean().nullable().optional(),
    // Read by the reference's UI only; accepted and left alone, as the reference's API does.
    ExecutionType: freeForm().optional(),
    ExportCommentsJsonFormat: freeForm().optional(),
    Columns: z.array(exportColumn).max(1000).nullable().optional(),
  })
  .meta({ id: 'ExportSettings' });
export type ExportSettings = z.infer<typeof exportSettings>;

export const exportRequest = z.object({
  ...apiRequest,
  ExportId: integer({ min: 0, max: 2 ** 31 - 1 }).optional(),
  View: freeForm().nullable().optional(),
  Export: exportSettings.nullable().optional(),
});
export type ExportInput = z.infer<typeof exportRequest>;

export const backgroundExportRequest = exportRequest.extend({
  /** `Shift-JIS`, else UTF-8 with a BOM, as the reference's download writes (`UTF-8` the same). */
  Encoding: text({ max: 20 }).nullable().optional(),
});
export type BackgroundExportInput = z.infer<typeof backgroundExportRequest>;

export const exportResponse = z
  .object({
    StatusCode: z.literal(200),
    Response: z.object({ Name: z.string(), Content: z.string() }),
  })
  .meta({ id: 'ExportResult' });

export const streamResponse = z.string().meta({ description: "The file's bytes" });
