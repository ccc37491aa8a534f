import * as z from 'zod';
import { MAX_LENGTH } from '../bounds';
import { apiRequest, apiResultSchema, integer, text } from '../schema';

/** The upload form (documentation: the handler reads the multipart body itself, lib/files/multipart-form.ts). */
export const uploadForm = z.object({
  file: z.string().meta({
    format: 'binary',
    description:
      'The file: the first file part of the form, whatever its name. Its own part header ' +
      '`Content-Range: bytes <from>-<to>/<total>` makes it one chunk of a larger file.',
  }),
  FileHash: z
    .string()
    .regex(/^[0-9A-Fa-f]{32}$/)
    .optional()
    .meta({ description: 'MD5 of the whole file, hex; checked when the file is complete' }),
});

export const uploadQuery = z.object({
  id: z.string().regex(/^\d+$/).meta({ description: 'The site or record the file is for (not 0)' }),
});

export const overwriteQuery = z.object({
  overwrite: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'true: keep the GUID, replace the content' }),
});

export const fileResponse = apiResultSchema.extend({
  Response: z.object({
    ReferenceId: z.number().int(),
    BinaryType: z.string(),
    Base64: z.string(),
    Guid: z.string(),
    FileName: z.string(),
    Extension: z.string(),
    Size: z.number().int(),
    ContentType: z.string(),
    Creator: z.number().int(),
    Updator: z.number().int(),
    CreatedTime: z.string(),
    UpdatedTime: z.string(),
  }),
});

/** A 302 has no body; the Location header carries the presigned URL. */
export const redirectResponse = z.null().meta({ description: 'Redirect: Location is a presigned S3 URL' });

export const uploadStatusRequest = z.object({
  ...apiRequest,
  id: integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).meta({
    description: 'The `id` the chunks are sent with (the site or record)',
  }),
  FileName: text({ min: 1, max: MAX_LENGTH.title }).meta({ description: 'The file name the chunks carry' }),
});

export const uploadStatusResponse = z.object({
  StatusCode: z.literal(200),
  Response: z.object({
    Received: z.number().int().meta({ description: 'Bytes the server holds: send the next chunk from here' }),
    Total: z.number().int().meta({ description: "The upload's size, 0 when none is in progress" }),
  }),
});
