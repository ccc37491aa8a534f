import { accountImportForm, accountImportParameters } from '../account-imports/schemas';
import { copyPackageRequest, copyPackageResponse } from '../packages/copy-schemas';
import { apiResultSchema } from '../schema';
import { itemsWrite, type Route } from './route';

/** Copying sites, and users, groups and depts from CSV (CONTRACT section 12). */

export const itemsCopysitepackage = {
  method: 'POST',
  path: '/api/items/{id}/copysitepackage',
  handler: 'items-copysitepackage',
  tables: itemsWrite,
  summary:
    'Copy the SelectedSites (with their records where IncludeData) under TargetSiteId (ManageSite on {id})',
  request: copyPackageRequest,
  response: copyPackageResponse,
} as const satisfies Route;

// The multipart body's `parameters` field is the JSON (ApiKey included); the file is the first file part.
const accountImport = {
  method: 'POST',
  tables: { accounts: 'write' },
  auth: { bearer: true },
  checkMime: false,
  requestType: 'multipart',
  request: accountImportForm,
  parameters: accountImportParameters,
  response: apiResultSchema,
} as const;

export const usersImport = {
  ...accountImport,
  path: '/api/users/import',
  handler: 'users-import',
  summary: 'Create or update users from a CSV, keyed by LoginId (tenant managers)',
} as const satisfies Route;

export const groupsImport = {
  ...accountImport,
  path: '/api/groups/import',
  handler: 'groups-import',
  summary: 'Create or update groups and their members from a CSV, one member a row (tenant managers)',
} as const satisfies Route;

export const deptsImport = {
  ...accountImport,
  path: '/api/depts/import',
  handler: 'depts-import',
  summary: 'Create or update depts from a CSV, keyed by DeptCode (tenant managers)',
} as const satisfies Route;
