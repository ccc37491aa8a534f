import * as accounts from '../accounts/schemas';
import * as search from '../search/schemas';
import type { Route } from './route';

/** Background tasks and search (CONTRACT section 9). */

export const backgroundtasksRebuildsearchindexes = {
  method: 'POST',
  path: '/api/BackgroundTasks/{id}/RebuildSearchIndexes',
  // Without {id}: the whole tenant. The path is case-insensitive in the reference.
  aliases: [
    '/api/BackgroundTasks/RebuildSearchIndexes',
    '/api/backgroundtasks/rebuildsearchindexes',
    '/api/backgroundtasks/{id}/rebuildsearchindexes',
  ],
  handler: 'backgroundtasks-rebuildsearchindexes',
  tables: { items: 'read', accounts: 'read', tasks: 'write' },
  summary: 'Queue a rebuild of the search index of the tenant, or of site {id} and its own records',
  request: accounts.emptyRequest,
  response: search.rebuildResponse,
  status: 'processed',
} as const satisfies Route;

export const backgroundtasksGet = {
  method: 'POST',
  path: '/api/BackgroundTasks/Tasks/{taskId}/Get',
  aliases: ['/api/backgroundtasks/tasks/{taskId}/get'],
  handler: 'backgroundtasks-get',
  tables: { accounts: 'read', tasks: 'read' },
  summary: "A background task's status and progress (users of its tenant)",
  request: accounts.emptyRequest,
  response: search.taskResponse,
  status: 'processed',
} as const satisfies Route;

export const searchAll = {
  method: 'POST',
  path: '/api/search',
  handler: 'search',
  tables: { items: 'read', accounts: 'read', searchIndex: 'read' },
  summary: 'Search every site and record the caller can read: every word of SearchText, newest first',
  request: search.searchRequest,
  response: search.searchResponse,
} as const satisfies Route;
