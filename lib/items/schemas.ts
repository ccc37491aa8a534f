import * as z from 'zod';
import { apiRequest, pagedSchema, text } from '../schema';

// Record fields (CONTRACT section 5): each family A–Z, directly or inside its hash.
const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/)
  .refine((value) => !Number.isNaN(Date.parse(value)), { message: 'not a date' });
export const attachment = z.object({
  Guid: text({ min: 1, max: 64 }),
  Name: text({ max: 1024 }),
  Added: z.boolean().optional(),
  Deleted: z.boolean().optional(),
  Size: z.number().optional(),
  Extension: text({ max: 256 }).optional(),
  ContentType: text({ max: 256 }).optional(),
});

export const families = {
  Class: text(),
  Num: z.number(),
  Date: isoDate,
  Description: text(),
  Check: z.boolean(),
  Attachments: z.array(attachment).max(1000),
} as const;
export type Family = keyof typeof families;

function familyFields<F extends Family>(family: F) {
  return Object.fromEntries(letters.map((letter) => [`${family}${letter}`, families[family].optional()]));
}

export const recordFields = {
  Title: text({ max: 1024 }).optional(),
  Body: text().optional(),
  Status: z.number().int().optional(),
  Locked: z.boolean().optional(),
  ...Object.fromEntries(
    (Object.keys(families) as Family[]).flatMap((family) => [
      ...Object.entries(familyFields(family)),
      [`${family}Hash`, z.record(z.string(), families[family]).optional()],
    ]),
  ),
} as Record<string, z.ZodType>;

export const recordWriteRequest = z.object({ ...apiRequest, ...recordFields });
export type RecordWriteInput = Record<string, unknown> & {
  Title?: string;
  Body?: string;
  Status?: number;
  Locked?: boolean;
};

export const recordGetRequest = z.object({
  ...apiRequest,
  Offset: z.number().int().min(0).optional(),
  PageSize: z.number().int().min(1).max(200).optional(),
  // Search only, so far: the other View filters arrive with the items-API issue and join it here.
  View: z.strictObject({ Search: text().optional() }).optional(),
});

export const recordSchema = z
  .looseObject({
    SiteId: z.number().int(),
    Title: z.string(),
    Locked: z.boolean(),
    Creator: z.number().int(),
    Updator: z.number().int(),
    CreatedTime: z.string(),
    UpdatedTime: z.string(),
    Ver: z.number().int(),
  })
  .meta({
    id: 'Record',
    description: 'IssueId, ResultId or WikiId by the site kind; ClassHash, NumHash, ...',
  });

export const recordPaged = pagedSchema(recordSchema).extend({
  LimitPerDate: z.number().int().optional(),
  LimitRemaining: z.number().int().optional(),
});
