import * as z from 'zod';
import { apiRequest, text } from '../schema';
import { MAX_SEARCH_TEXT } from './text';

export const searchRequest = z.object({
  ...apiRequest,
  SearchText: text({ max: MAX_SEARCH_TEXT }),
  Offset: z.number().int().min(0).optional(),
  PageSize: z.number().int().min(1).max(200).optional(),
});
export type SearchInput = z.infer<typeof searchRequest>;

export const searchResponse = z
  .object({
    StatusCode: z.literal(200),
    Response: z.object({
      Offset: z.number().int(),
      PageSize: z.number().int(),
      TotalCount: z.number().int(),
      Data: z.array(
        z.object({
          Id: z.number().int(),
          SiteId: z.number().int(),
          Kind: z.enum(['site', 'record']),
          Title: z.string(),
          Excerpt: z.string(),
          UpdatedTime: z.string(),
        }),
      ),
    }),
  })
  .meta({ id: 'SearchResult' });

export const rebuildResponse = z
  .object({ Id: z.number().int(), StatusCode: z.number().int(), Message: z.string(), TaskId: z.string() })
  .meta({ id: 'BackgroundTaskStarted' });

export const taskResponse = z
  .object({
    StatusCode: z.literal(200),
    Response: z.object({
      TaskId: z.string(),
      Kind: z.string(),
      Status: z.enum(['Queued', 'Running', 'Completed', 'Failed']),
      Total: z.number().int(),
      Done: z.number().int(),
      CreatedTime: z.string(),
      CompletedTime: z.string().optional(),
      Message: z.string().optional(),
      // An import's counts and its first errors, by row (CONTRACT 12).
      Added: z.number().int().optional(),
      Updated: z.number().int().optional(),
      Errors: z
        .array(z.object({ Row: z.number().int(), Column: z.string().optional(), Message: z.string() }))
        .optional(),
      // A finished export's file, downloadable through /binaries/{guid}/download.
      Guid: z.string().optional(),
      FileName: z.string().optional(),
    }),
  })
  .meta({ id: 'BackgroundTask' });
