import * as z from 'zod';
import type { Route } from './route';

/**
 * The browser UI (CONTRACT section 10): one page and its assets, on the API's own origin and base path so
 * that the login cookie and the X-Requested-With rule apply unchanged. The page routes itself (`#/…`).
 */

export const webPage = {
  method: 'GET',
  path: '/',
  handler: 'web-page',
  tables: {},
  auth: false,
  parseBody: false,
  checkMime: false,
  summary: 'The browser UI',
  produces: 'text/html',
  response: z.string().meta({ description: 'The UI page (HTML)' }),
} as const satisfies Route;

export const webAsset = {
  method: 'GET',
  path: '/assets/{file}',
  handler: 'web-asset',
  tables: {},
  auth: false,
  parseBody: false,
  checkMime: false,
  summary: "A script or style sheet of the browser UI (its name carries its content's hash)",
  produces: 'application/octet-stream',
  response: z.string().meta({ description: 'The asset' }),
} as const satisfies Route;
