import * as accounts from '../accounts/schemas';
import { apiResultSchema } from '../schema';
import { itemsWrite, type Route } from './route';

/** The recycle bin (CONTRACT 15): deleted records and sites come back under their ids. */

export const itemsRestore = {
  method: 'POST',
  path: '/api/items/{id}/restore',
  handler: 'items-restore',
  // Restored records' NoDuplication values and site counts are Items writes; their history loses its TTL.
  tables: itemsWrite,
  summary:
    'Restore the deleted record {id} (Delete on it), or the site {id} deleted with deletesite, with its subtree and records (ManageSite) (Kiroku)',
  request: accounts.emptyRequest,
  response: apiResultSchema,
} as const satisfies Route;
