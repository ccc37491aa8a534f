import * as z from 'zod';
import { recordFields, recordSchema } from '../items/schemas';
import { apiRequest, apiResultSchema, text } from '../schema';
import { referenceTypes } from '../sites/model';
import { permissions, siteName, siteSchema, siteSettings } from '../sites/schemas';

/**
 * A site package: a subtree of sites, parents before children, and optionally their records. The import
 * creates the sites in one DynamoDB transaction (lib/packages/repository.ts), whose 100 parts are the
 * sites plus the check on the target parent: hence 99 sites at most. Records are capped so that an import
 * stays well inside the API's 30 seconds and an export inside a Lambda's 6 MB answer.
 */
export const MAX_PACKAGE_SITES = 99;
export const MAX_PACKAGE_RECORDS = 2000;

const siteId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const parentId = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const packageSite = z.object({
  SiteId: siteId,
  Title: text({ min: 1, max: 1024 }),
  ReferenceType: z.enum(referenceTypes),
  SiteName: siteName.optional(),
  SiteGroupName: siteName.optional(),
  /** The root's parent is outside the package; every other site's parent is a folder of the package. */
  ParentId: parentId,
  /** The site itself, a site above it in the package, or a site outside (then: the new parent's). */
  InheritPermission: parentId,
  Permissions: permissions,
  SiteSettings: siteSettings,
});

/** A record as `items/{id}/get` shows it; the import reads its SiteId and its fields and nothing else. */
export const packageRecord = z.object({ SiteId: siteId, ...recordFields });

export const sitePackage = z
  .object({
    /** The exported root's SiteId: for the reader; the import finds the root by its ParentId. */
    BaseSiteId: siteId.optional(),
    PackageTime: z.string().optional(),
    IncludeData: z.boolean().optional(),
    Sites: z.array(packageSite).min(1).max(MAX_PACKAGE_SITES),
    Data: z.array(packageRecord).max(MAX_PACKAGE_RECORDS).optional(),
  })
  .meta({ id: 'SitePackage' });
export type SitePackage = z.infer<typeof sitePackage>;
export type PackageSite = z.infer<typeof packageSite>;
export type PackageRecord = z.infer<typeof packageRecord>;

/** IncludeData: the reference's export option; off by default, as the reference's dialog has it. */
export const exportPackageRequest = z.object({ ...apiRequest, IncludeData: z.boolean().optional() });

/** The package as an export writes it: the sites as stored, the records as `items/{id}/get` shows them. */
const exportedPackage = z
  .object({
    BaseSiteId: z.number().int(),
    PackageTime: z.string(),
    IncludeData: z.boolean(),
    Sites: z.array(
      siteSchema.pick({
        SiteId: true,
        Title: true,
        ReferenceType: true,
        SiteName: true,
        SiteGroupName: true,
        ParentId: true,
        InheritPermission: true,
        Permissions: true,
        SiteSettings: true,
      }),
    ),
    Data: z.array(recordSchema).optional(),
  })
  .meta({ id: 'ExportedSitePackage' });

export const exportPackageResponse = z.object({
  StatusCode: z.literal(200),
  Response: z.object({ Package: exportedPackage }),
});

export const importPackageRequest = z.object({ ...apiRequest, Package: sitePackage });

/** The reference's API answer for an import lists OldSiteId, NewSiteId, ReferenceType and Title per site. */
export const importPackageResponse = apiResultSchema.extend({
  Data: z.array(
    z.object({
      OldSiteId: z.number().int(),
      NewSiteId: z.number().int(),
      ReferenceType: z.enum(referenceTypes),
      Title: z.string(),
    }),
  ),
});
