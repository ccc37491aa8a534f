import { apiResultSchema } from '../schema';
import * as background from '../scripts/background/schemas';
import { itemsRead, type Route } from './route';

/**
 * A tenant's background (scheduled) server scripts, for its privileged users (issue 27; the reference
 * configures them in its Tenant management screen, so these routes are Kiroku's own), and a site's last
 * script failures for its managers.
 */

export const backgroundScriptsGet = {
  method: 'POST',
  path: '/api/backgroundscripts/get',
  handler: 'backgroundscripts-get',
  // The runs' rows beside the tenant (accounts); the last failures beside site 0 (items).
  tables: { accounts: 'read', items: 'read' },
  summary:
    "The tenant's background scripts with their next and last runs and last failures (privileged users)",
  request: background.getRequest,
  response: background.getResponse,
} as const satisfies Route;

export const backgroundScriptsUpdate = {
  method: 'POST',
  path: '/api/backgroundscripts/update',
  handler: 'backgroundscripts-update',
  tables: { accounts: 'write' },
  summary: "Replace the tenant's background scripts and their schedules (privileged users)",
  request: background.updateRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const backgroundScriptsRun = {
  method: 'POST',
  path: '/api/backgroundscripts/run',
  handler: 'backgroundscripts-run',
  tables: { accounts: 'write' },
  summary:
    'Run a background script at the next minute, whatever its schedule (privileged users; not Shared ones)',
  request: background.runRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const scriptErrorsGet = {
  method: 'POST',
  path: '/api/items/{id}/scripterrors/get',
  handler: 'items-scripterrors-get',
  tables: itemsRead,
  summary: "The last 20 failures of site {id}'s server scripts, newest first (ManageSite)",
  request: background.errorsRequest,
  response: background.errorsResponse,
} as const satisfies Route;
