import * as z from 'zod';
import { deeperThan, freeForm, MAX_BULK, MAX_JSON_DEPTH, MAX_LENGTH, id as storedId } from '../bounds';
import { apiRequest, boolean, decimal, integer, pagedSchema, text } from '../schema';
import { PERMISSION_ENTRY } from '../sites/model';
import { parseDateTime } from '../zoned-time';

/** A field of a feature Kiroku lacks: taken only to be refused by name (lib/items/records.ts). */
const missingFeature = z
  .unknown()
  .refine((value) => !deeperThan(value, MAX_JSON_DEPTH), {
    message: `nested deeper than ${MAX_JSON_DEPTH} levels`,
  })
  .meta({
    description: `not available in Kiroku: any value but null is a 400 naming the field; JSON at most ${MAX_JSON_DEPTH} levels`,
  });

// Record fields (CONTRACT section 5): each family A–Z, directly or inside its hash.
const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
/** The date forms the reference reads (`2025/1/20`, `2025-01-20 10:00`, ISO 8601); the zone is applied later. */
const isoDate = z
  .string()
  .max(40)
  .refine((value) => parseDateTime(value, 'UTC') !== undefined, { message: 'not a date' });
export const attachment = z
  .object({
    Guid: text({ min: 1, max: 64 }).optional(),
    Name: text({ max: MAX_LENGTH.title }).optional(),
    /** Inline content (reference 5): a new file under a new GUID. */
    Base64: z.string().max(6_000_000).optional(),
    Base64Binary: z.string().max(6_000_000).optional(),
    Added: boolean().optional(),
    Deleted: boolean().optional(),
    Size: storedId().optional(),
    Extension: text({ max: MAX_LENGTH.name }).optional(),
    ContentType: text({ max: MAX_LENGTH.name }).optional(),
  })
  .meta({
    id: 'Attachment',
    description: 'An attached file: an upload by Guid, inline Base64, or {Guid, Deleted}',
  });

/** An `ImageHash` entry: the reference's _ImageApiModel, its defaults `.png` and `image`. */
const image = z.object({
  Base64: z.string().max(6_000_000),
  Extension: text({ max: 16 }).optional(),
  Alt: text({ max: MAX_LENGTH.title }).optional(),
  HeadNewLine: boolean().optional(),
  EndNewLine: boolean().optional(),
  Position: integer({ min: -1, max: 2 ** 31 - 1 }).optional(),
});

// Named (`id`): the OpenAPI document writes each once under components and refers to it from the 26
// fields of the family, their hash, and every items operation, instead of repeating it 27 times a route.
export const families = {
  Class: text({ max: MAX_LENGTH.title }).nullable().meta({ id: 'ClassValue' }),
  Num: decimal().nullable().meta({ id: 'NumValue' }),
  Date: isoDate.meta({ id: 'DateValue', description: 'A date: ISO 8601, or yyyy/M/d [H:mm[:ss]]' }),
  Description: text({ max: MAX_LENGTH.text }).nullable().meta({ id: 'DescriptionValue' }),
  Check: boolean().meta({ id: 'CheckValue' }),
  Attachments: z.array(attachment).max(1000).meta({ id: 'AttachmentsValue' }),
} as const;
export type Family = keyof typeof families;

function familyFields<F extends Family>(family: F) {
  // One schema for the family's 26 fields: zod schemas never change once built, and building 156 of them
  // was a measurable part of every items function's cold start.
  const field = families[family].optional();
  return Object.fromEntries(letters.map((letter) => [`${family}${letter}`, field]));
}

export const recordFields = {
  Title: text({ max: MAX_LENGTH.title }).optional(),
  Body: text({ max: MAX_LENGTH.text }).optional(),
  Status: integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).optional(),
  Locked: boolean().optional(),
  /** One new comment; a blank one is ignored, as the reference does. */
  Comments: text({ max: 65_536 }).nullable().optional(),
  /** A new version whatever the site's AutoVerUpType says (lib/items/record-versions.ts). */
  VerUp: boolean().optional(),
  Manager: integer({ min: 0 }).optional(),
  Owner: integer({ min: 0 }).optional(),
  StartTime: z.string().max(40).nullable().optional(),
  CompletionTime: z.string().max(40).nullable().optional(),
  WorkValue: decimal().nullable().optional(),
  ProgressRate: decimal().nullable().optional(),
  /**
   * Record-level permission rows (lib/items/record-permissions.ts): replace the record's rows on update,
   * ignored on create as in the reference; null changes nothing.
   */
  RecordPermissions: z
    .array(z.string().regex(PERMISSION_ENTRY, { message: 'an entry is "User|Group|Dept,<id>,<bits>"' }))
    .max(1000)
    .nullable()
    .optional(),
  // Shown by get, ignored by create and update; an upsert may match on them (reference 4, 6).
  ResultId: integer({ min: 0 }).optional(),
  IssueId: integer({ min: 0 }).optional(),
  /**
   * A process of the site's Processes, which Kiroku sites cannot hold (lib/sites/site-settings-check.ts):
   * the id is unknown and, as in the reference, has no effect.
   */
  ProcessId: integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })
    .nullable()
    .optional(),
  ProcessIds: z
    .array(integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).nullable())
    .max(1000)
    .nullable()
    .optional(),
  /** Images stored as files of the record, referenced from the text they name (lib/items/record-images.ts). */
  ImageHash: z.record(z.string().max(64), image).nullable().optional(),
  // A feature Kiroku lacks: taken only to be refused by name (CONTRACT 5.1), never dropped.
  MigrationMode: missingFeature.optional(),
  ...Object.fromEntries(
    (Object.keys(families) as Family[]).flatMap((family) => [
      ...Object.entries(familyFields(family)),
      [`${family}Hash`, z.record(z.string(), families[family]).optional()],
    ]),
  ),
} as Record<string, z.ZodType>;

export const recordWriteRequest = z
  .object({ ...apiRequest, ...recordFields })
  .meta({ id: 'RecordWrite', description: 'A record to create or update' });
export type RecordWriteInput = Record<string, unknown> & {
  Title?: string;
  Body?: string;
  Status?: number;
  Locked?: boolean;
  Comments?: string | null;
  Manager?: number;
  Owner?: number;
  StartTime?: string | null;
  CompletionTime?: string | null;
  WorkValue?: number | null;
  ProgressRate?: number | null;
  RecordPermissions?: readonly string[] | null;
};

export const recordGetRequest = z.object({
  ...apiRequest,
  Offset: integer({ min: 0, max: 2 ** 31 - 1 }).optional(),
  /** 1–199 kept, anything else read as 200 (reference 2). */
  PageSize: integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).optional(),
  /** Compiled against the site's columns (lib/items/view/view.ts): what it cannot apply is a 400. */
  View: freeForm().nullable().optional(),
  /** Normal (the default), History or NormalAndHistory (lib/items/history.ts); Deleted is refused. */
  TableType: z.string().max(32).nullable().optional(),
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

const view = freeForm().nullable().optional();

export const bulkDeleteRequest = z.object({
  ...apiRequest,
  Selected: z
    .array(integer({ min: 0 }))
    .max(MAX_BULK.bulkDelete)
    .nullable()
    .optional(),
  All: boolean().optional(),
  View: view,
  PhysicalDelete: boolean().optional(),
});

export const upsertRequest = recordWriteRequest.extend({
  Keys: z
    .array(text({ max: 64 }))
    .max(100)
    .nullable()
    .optional(),
  View: view,
});

export const bulkUpsertRequest = z.object({
  ...apiRequest,
  Keys: z
    .array(text({ max: 64 }))
    .max(100)
    .nullable()
    .optional(),
  View: view,
  KeyNotFoundCreate: boolean().optional(),
  Data: z.array(recordWriteRequest).max(MAX_BULK.bulkUpsertItems).optional(),
});
