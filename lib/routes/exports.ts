import * as accounts from '../accounts/schemas';
import * as exports from '../exports/schemas';
import * as search from '../search/schemas';
import { itemsRead, type Route } from './route';

/** Export of records, as one answer or as a background task's file, and files as a stream (CONTRACT 12). */

export const itemsExport = {
  method: 'POST',
  path: '/api/items/{id}/export',
  handler: 'items-export',
  tables: { ...itemsRead, searchIndex: 'read' },
  summary:
    "The records of site {id} that the View selects, as CSV or JSON text in one answer (Export): the body's Export, the saved export ExportId, or the standard one",
  request: exports.exportRequest,
  response: exports.exportResponse,
} as const satisfies Route;

export const backgroundtasksExport = {
  method: 'POST',
  path: '/api/BackgroundTasks/{id}/Export',
  aliases: ['/api/backgroundtasks/{id}/export'],
  handler: 'backgroundtasks-export',
  tables: { ...itemsRead, searchIndex: 'read', tasks: 'write' },
  summary:
    'Queue an export of site {id} of any size as a file (Export): Tasks/{taskId}/Get then gives its Guid, downloadable through /binaries/{guid}/download',
  request: exports.backgroundExportRequest,
  response: search.rebuildResponse,
  status: 'processed',
} as const satisfies Route;

export const binariesGetstream = {
  method: 'POST',
  path: '/api/binaries/{guid}/getstream',
  handler: 'binaries-getstream',
  bucket: 'read',
  tables: { binaries: 'read', ...itemsRead },
  summary:
    'A file as its bytes, as an attachment (Read on its site or record, or its uploader); one over 4 MB is a 302 redirect to a presigned URL valid for 60 s',
  request: accounts.emptyRequest,
  produces: 'application/octet-stream',
  response: exports.streamResponse,
} as const satisfies Route;
