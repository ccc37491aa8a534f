import * as accounts from '../accounts/schemas';
import * as items from '../items/schemas';
import { apiResultSchema } from '../schema';
import { type Route, scriptHost } from './route';

// Server scripts run on every route here, so each may touch what a script may (lib/routes/route.ts
// scriptHost), the bucket included; that covers the routes' own attachments (uploaded files attached by
// GUID, inline ones stored as new files) and the search a record get does.

/** Records (CONTRACT sections 5, 5.1). */

export const itemsCreate = {
  method: 'POST',
  path: '/api/items/{id}/create',
  handler: 'items-create',
  tables: scriptHost,
  bucket: 'write',
  summary: 'Create a record in the site {id} (Create)',
  request: items.recordWriteRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsGet = {
  method: 'POST',
  path: '/api/items/{id}/get',
  handler: 'items-get',
  // Writes: every read counts against the site's daily API limit. Site indexes: integrated sites are
  // resolved by name through the site-name index.
  tables: scriptHost,
  bucket: 'write',
  summary: 'Read a record, or a page of the records of the site {id} (Read)',
  request: items.recordGetRequest,
  response: items.recordPaged,
} as const satisfies Route;

export const itemsUpdate = {
  method: 'POST',
  path: '/api/items/{id}/update',
  handler: 'items-update',
  tables: scriptHost,
  bucket: 'write',
  summary: 'Update a record (Update; a locked record only by its locker or a manager)',
  request: items.recordWriteRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsDelete = {
  method: 'POST',
  path: '/api/items/{id}/delete',
  handler: 'items-delete',
  tables: scriptHost,
  bucket: 'write',
  summary: 'Delete a record (Delete)',
  request: accounts.emptyRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsBulkdelete = {
  method: 'POST',
  path: '/api/items/{id}/bulkdelete',
  handler: 'items-bulkdelete',
  tables: scriptHost,
  bucket: 'write',
  summary:
    'Delete the records of the site {id} that Selected (or All but Selected) and the View name (Delete)',
  request: items.bulkDeleteRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsUpsert = {
  method: 'POST',
  path: '/api/items/{id}/upsert',
  handler: 'items-upsert',
  tables: scriptHost,
  bucket: 'write',
  summary: 'Update the record of the site {id} whose Keys match, or create one (Create or Update)',
  request: items.upsertRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsBulkupsert = {
  method: 'POST',
  path: '/api/items/{id}/bulkupsert',
  handler: 'items-bulkupsert',
  tables: scriptHost,
  bucket: 'write',
  summary: 'Upsert each item of Data in order; every item is checked before any is written',
  request: items.bulkUpsertRequest,
  response: apiResultSchema,
} as const satisfies Route;
