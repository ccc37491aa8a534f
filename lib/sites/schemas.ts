import * as z from 'zod';
import { freeForm, MAX_LENGTH, id as storedId } from '../bounds';
import { apiRequest, text } from '../schema';
import { PERMISSION_ENTRY, referenceTypes } from './model';
import { siteSettingsInput } from './site-scripts';

/** FindSiteNames is required (400 when missing, before the MIME check); a null name answers -1. */
export const closestSiteRequest = z.object({
  ...apiRequest,
  FindSiteNames: z.array(z.union([text({ max: MAX_LENGTH.title }), z.null()])).max(1000),
});

export const closestSiteResponse = z.object({
  StatusCode: z.literal(200),
  SiteId: z.number().int(),
  Data: z.array(z.object({ SiteName: z.string().optional(), SiteId: z.number().int() })),
});

/** SiteName and SiteGroupName are nvarchar(32) in the reference; not unique. */
export const siteName = text({ max: 32 });
const id = storedId();
export const permissions = z
  .array(z.string().regex(PERMISSION_ENTRY, { message: 'an entry is "User|Group|Dept,<id>,<bits>"' }))
  .max(1000);
export const siteSettings = freeForm();

export const siteCreateRequest = z.object({
  ...apiRequest,
  Title: text({ min: 1, max: MAX_LENGTH.title }),
  ReferenceType: z.enum(referenceTypes),
  SiteName: siteName.optional(),
  SiteGroupName: siteName.optional(),
  /** 0 or absent: its own; another id: inherit from that site above it. */
  InheritPermission: id.optional(),
  Permissions: permissions.optional(),
  SiteSettings: siteSettingsInput.optional(),
});

export const siteUpdateRequest = z.object({
  ...apiRequest,
  Title: text({ min: 1, max: MAX_LENGTH.title }).optional(),
  /** A site's kind never changes; given, it must equal the stored one. */
  ReferenceType: z.enum(referenceTypes).optional(),
  SiteName: siteName.optional(),
  SiteGroupName: siteName.optional(),
  ParentId: id.optional(),
  InheritPermission: id.optional(),
  Permissions: permissions.optional(),
  SiteSettings: siteSettingsInput.optional(),
});

export const siteSchema = z
  .object({
    SiteId: z.number().int(),
    TenantId: z.number().int(),
    Title: z.string(),
    SiteName: z.string().optional(),
    SiteGroupName: z.string().optional(),
    ReferenceType: z.enum(referenceTypes),
    ParentId: z.number().int(),
    InheritPermission: z.number().int(),
    Permissions: z.array(z.string()),
    SiteSettings: siteSettings,
    Creator: z.number().int(),
    Updator: z.number().int(),
    CreatedTime: z.string(),
    UpdatedTime: z.string(),
    Ver: z.number().int(),
  })
  .meta({ id: 'Site' });

export const siteResponse = z.object({
  StatusCode: z.literal(200),
  Response: z.object({ Data: siteSchema }),
});

export const childSitesRequest = z
  .object({
    ...apiRequest,
    TableType: z.enum(['Normal', 'Deleted']).optional().meta({
      description:
        'Normal (the default): the current sites; Deleted: the sites deleted directly under it that the caller may restore',
    }),
  })
  .meta({ id: 'ChildSitesRequest' });

export const childSitesResponse = z.object({
  StatusCode: z.literal(200),
  Response: z.object({
    Data: z.array(
      z
        .object({
          SiteId: z.number().int(),
          ParentId: z.number().int(),
          Title: z.string(),
          ReferenceType: z.enum(referenceTypes),
          SiteName: z.string().optional(),
          Permission: z.number().int().meta({ description: "The caller's permission bits on the site" }),
          DeletedTime: z
            .string()
            .optional()
            .meta({ description: 'TableType Deleted: when it was deleted, in the caller’s time zone' }),
          Deleter: z.number().int().optional().meta({ description: 'TableType Deleted: who deleted it' }),
        })
        .meta({ id: 'ChildSite' }),
    ),
  }),
});
