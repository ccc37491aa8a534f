import * as accounts from '../accounts/schemas';
import * as items from '../items/schemas';
import { apiResultSchema } from '../schema';
import type { Route } from './route';

const itemsWrite = { items: 'write', accounts: 'read' } as const;

/** Records (CONTRACT sections 5, 5.1). */

export const itemsCreate = {
  method: 'POST',
  path: '/api/items/{id}/create',
  handler: 'items-create',
  tables: itemsWrite,
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
  tables: { ...itemsWrite, siteIndexes: 'read', searchIndex: 'read' },
  summary: 'Read a record, or a page of the records of the site {id} (Read)',
  request: items.recordGetRequest,
  response: items.recordPaged,
} as const satisfies Route;

export const itemsUpdate = {
  method: 'POST',
  path: '/api/items/{id}/update',
  handler: 'items-update',
  tables: itemsWrite,
  summary: 'Update a record (Update; a locked record only by its locker or a manager)',
  request: items.recordWriteRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const itemsDelete = {
  method: 'POST',
  path: '/api/items/{id}/delete',
  handler: 'items-delete',
  tables: itemsWrite,
  summary: 'Delete a record (Delete)',
  request: accounts.emptyRequest,
  response: apiResultSchema,
} as const satisfies Route;
