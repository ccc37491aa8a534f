import * as z from 'zod';
import { MAX_LENGTH } from '../bounds';
import { apiRequest, text } from '../schema';
import { MAX_PACKAGE_SITES } from './schemas';

const siteId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/**
 * `items/{siteId}/copysitepackage` (reference SitePackageApiModel): the selected sites, each with or without
 * its records, copied under TargetSiteId. Every Include* flag is off unless given, as in the reference.
 */
export const copyPackageRequest = z.object({
  ...apiRequest,
  /** The folder the copies go under (0: the top level); the URL's site when absent, as the reference's code. */
  TargetSiteId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  /** The new title of the URL site's copy. */
  SiteTitle: text({ max: MAX_LENGTH.title }).optional(),
  SelectedSites: z
    .array(z.object({ SiteId: siteId, IncludeData: z.boolean().optional() }))
    .min(1)
    .max(MAX_PACKAGE_SITES),
  IncludeSitePermission: z.boolean().optional(),
  IncludeRecordPermission: z.boolean().optional(),
  IncludeColumnPermission: z.boolean().optional(),
  IncludeNotifications: z.boolean().optional(),
  IncludeReminders: z.boolean().optional(),
});
export type CopyPackageRequest = z.infer<typeof copyPackageRequest>;

/** The reference answers the list of copies as JSON text in Response.Data. */
export const copyPackageResponse = z.object({
  StatusCode: z.literal(200),
  Response: z.object({
    Data: z.string().meta({ description: 'JSON text: [{OldSiteId, NewSiteId, ReferenceType, Title}]' }),
  }),
});
