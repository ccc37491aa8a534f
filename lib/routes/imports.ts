import * as imports from '../imports/schemas';
import { apiResultSchema } from '../schema';
import * as search from '../search/schemas';
import { itemsWrite, type Route } from './route';

/** Record import from a CSV file, in one request or as a background task (CONTRACT 12). */

export const itemsImport = {
  method: 'POST',
  path: '/api/items/{id}/import',
  handler: 'items-import',
  tables: { ...itemsWrite },
  summary:
    'Import a CSV into site {id} (Import): a multipart form of `parameters` (JSON) and the file; every row checked before any is written',
  request: imports.importForm,
  requestType: 'multipart',
  parameters: imports.importParameters,
  checkMime: false,
  response: apiResultSchema,
  memoryMb: 1769,
} as const satisfies Route;

export const backgroundtasksImport = {
  method: 'POST',
  path: '/api/BackgroundTasks/{id}/Import',
  aliases: ['/api/backgroundtasks/{id}/import'],
  handler: 'backgroundtasks-import',
  tables: { items: 'read', accounts: 'read', binaries: 'read', tasks: 'write' },
  summary:
    'Queue the import of a CSV uploaded through /api/binaries/upload into site {id}: progress, counts and errors by row on Tasks/{taskId}/Get',
  request: imports.importTaskRequest,
  response: search.rebuildResponse,
  status: 'processed',
} as const satisfies Route;
