import * as z from 'zod';
import { apiRequest, text } from '../http/schemas';

/** FindSiteNames is required (400 when missing, before the MIME check); a null name answers -1. */
export const closestSiteRequest = z.object({
  ...apiRequest,
  FindSiteNames: z.array(z.union([text(), z.null()])).max(1000),
});

export const closestSiteResponse = z.object({
  StatusCode: z.literal(200),
  SiteId: z.number().int(),
  Data: z.array(z.object({ SiteName: z.string().optional(), SiteId: z.number().int() })),
});
