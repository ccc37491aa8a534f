import * as z from 'zod';
import { apiRequest } from '../../schema';
import { backgroundScripts } from './config';

/** The bodies of /api/backgroundscripts/* and /api/items/{id}/scripterrors/get (lib/routes/background-scripts.ts). */

export const getRequest = z.object({ ...apiRequest });

export const updateRequest = z.object({ ...apiRequest, BackgroundServerScripts: backgroundScripts });
export type UpdateInput = z.infer<typeof updateRequest>;

export const runRequest = z.object({
  ...apiRequest,
  Id: z.number().int().min(1).max(1_000_000).meta({ description: "The script's Id" }),
});
export type RunInput = z.infer<typeof runRequest>;

const scriptError = z.object({
  Time: z.string().meta({ description: "When it failed, in the caller's time zone" }),
  SiteId: z.number().int(),
  Condition: z.string(),
  Script: z.string().meta({ description: "The script's Name, else Title, else #Id" }),
  Reason: z.string(),
});

export const getResponse = z.object({
  StatusCode: z.literal(200),
  Response: z.object({
    Enabled: z.boolean().meta({
      description: 'Script.ServerScript and Script.BackgroundServerScript: whether they run at all',
    }),
    BackgroundServerScripts: z.object({ TenantId: z.number().int(), Scripts: z.array(z.unknown()) }),
    Runs: z.array(
      z.object({
        Id: z.number().int(),
        NextRunTime: z.string().optional(),
        LastRunTime: z.string().optional(),
        LastStatus: z.enum(['Succeeded', 'Failed', 'Skipped']).optional(),
        LastMessage: z.string().optional(),
      }),
    ),
    Errors: z.array(scriptError),
  }),
});

export const errorsRequest = z.object({ ...apiRequest });

export const errorsResponse = z.object({
  StatusCode: z.literal(200),
  Response: z.object({ Errors: z.array(scriptError) }),
});
