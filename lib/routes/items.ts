import * as accounts from '../accounts/schemas';
import * as items from '../items/schemas';
import { apiResultSchema } from '../schema';
import { itemsWrite, type Route } from './route';

// Server scripts run on these routes, and their items.GetClosestSite reads the site-name index; what they
// send through `notifications` is queued in the deliveries table.
const scripted = { ...itemsWrite, siteIndexes: 'read', deliveries: 'write' } as const;
// Attachments: uploaded files attached by GUID, inline ones (Base64) stored as new files.
const attaching = { ...scripted, binaries: 'write' } as const;

/** Records (CONTRACT sections 5, 5.1). */

export const itemsCreate = {
  method: 'POST',
  path: '/api/items/{id}/create',
  handler: 'items-create',
  tables: attaching,
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
  tables: { ...scripted, searchIndex: 'read' },
  summary: 'Read a record, or a page of the records of the site {id} (Read)',
  request: items.recordGetRequest,
  response: items.recordPaged,
} as const satisfies Route;

export const itemsUpdate = {
  method: 'POST',
  path: '/api/items/{id}/update',
  handler: 'items-update',
  tables: attaching,
  bucket: 'write',
  summary: 'Update a record (Update; a locked record only by its locker or a manager)',
  request: items.recordWriteRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsDelete = {
  method: 'POST',
  path: '/api/items/{id}/delete',
  handler: 'items-delete',
  tables: scripted,
  summary: 'Delete a record (Delete)',
  request: accounts.emptyRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsBulkdelete = {
  method: 'POST',
  path: '/api/items/{id}/bulkdelete',
  handler: 'items-bulkdelete',
  tables: itemsWrite,
  summary:
    'Delete the records of the site {id} that Selected (or All but Selected) and the View name (Delete)',
  request: items.bulkDeleteRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsUpsert = {
  method: 'POST',
  path: '/api/items/{id}/upsert',
  handler: 'items-upsert',
  tables: { binaries: 'write', ...itemsWrite, deliveries: 'write' },
  bucket: 'write',
  summary: 'Update the record of the site {id} whose Keys match, or create one (Create or Update)',
  request: items.upsertRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsBulkupsert = {
  method: 'POST',
  path: '/api/items/{id}/bulkupsert',
  handler: 'items-bulkupsert',
  tables: { binaries: 'write', ...itemsWrite, deliveries: 'write' },
  bucket: 'write',
  summary: 'Upsert each item of Data in order; every item is checked before any is written',
  request: items.bulkUpsertRequest,
  response: apiResultSchema,
} as const satisfies Route;
