import * as accounts from '../accounts/schemas';
import * as packages from '../packages/schemas';
import { apiResultSchema } from '../schema';
import * as sites from '../sites/schemas';
import { siteSettingsUpdateRequest } from '../sites/site-settings-update';
import { itemsRead, itemsWrite, type Route } from './route';

/** Sites, site lookup and site packages (web-api.txt 4.3, 4.4; CONTRACT sections 4, 5). */

export const itemsCreatesite = {
  method: 'POST',
  path: '/api/items/{id}/createsite',
  handler: 'items-createsite',
  tables: itemsWrite,
  summary: 'Create a site under the folder {id} (0: top level, tenant managers only)',
  request: sites.siteCreateRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsGetsite = {
  method: 'POST',
  path: '/api/items/{id}/getsite',
  handler: 'items-getsite',
  tables: itemsRead,
  summary: 'Read a site (Read)',
  request: accounts.emptyRequest,
  response: sites.siteResponse,
} as const satisfies Route;

export const itemsChildsites = {
  method: 'POST',
  path: '/api/items/{id}/childsites',
  handler: 'items-childsites',
  // The recycle bin: TableType Deleted lists the sites deleted under the folder.
  tables: { ...itemsRead, recycleBin: 'read' },
  summary:
    "The sites under a folder (0: the top level) that the caller can read, or with TableType Deleted those deleted there that the caller may restore (Kiroku's addition)",
  request: sites.childSitesRequest,
  response: sites.childSitesResponse,
} as const satisfies Route;

export const itemsUpdatesite = {
  method: 'POST',
  path: '/api/items/{id}/updatesite',
  handler: 'items-updatesite',
  tables: itemsWrite,
  summary: 'Update or move a site (ManageSite; ManagePermission for its permissions)',
  request: sites.siteUpdateRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsUpdatesitesettings = {
  method: 'POST',
  path: '/api/items/{id}/updatesitesettings',
  handler: 'items-updatesitesettings',
  tables: itemsWrite,
  summary: "Change parts of a site's settings by Id: ServerScripts (ManageSite)",
  request: siteSettingsUpdateRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsDeletesite = {
  method: 'POST',
  path: '/api/items/{id}/deletesite',
  handler: 'items-deletesite',
  tables: itemsWrite,
  summary: 'Delete a site with its subtree and all their records (ManageSite)',
  request: accounts.emptyRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsExportsitepackage = {
  method: 'POST',
  path: '/api/items/{id}/exportsitepackage',
  handler: 'items-exportsitepackage',
  tables: itemsRead,
  summary: 'The subtree of site {id} as a site package, IncludeData: with its records (ManageSite)',
  request: packages.exportPackageRequest,
  response: packages.exportPackageResponse,
} as const satisfies Route;

export const itemsImportsitepackage = {
  method: 'POST',
  path: '/api/items/{id}/importsitepackage',
  handler: 'items-importsitepackage',
  tables: itemsWrite,
  summary: 'Create the sites of a package under the folder {id} (0: top level) with new ids (ManageSite)',
  request: packages.importPackageRequest,
  response: packages.importPackageResponse,
} as const satisfies Route;

export const itemsGetclosestsiteid = {
  method: 'POST',
  path: '/api/items/{id}/GetClosestSiteId',
  // The path is case-insensitive in the reference; the browser and script wrappers call it in lower case.
  aliases: ['/api/items/{id}/getclosestsiteid'],
  handler: 'items-getclosestsiteid',
  tables: { items: 'read', accounts: 'read', siteIndexes: 'read' },
  validateBeforeMime: true,
  summary: 'The nearest site of each name, seen from site {id} (-1 when none, or not permitted)',
  request: sites.closestSiteRequest,
  response: sites.closestSiteResponse,
} as const satisfies Route;
