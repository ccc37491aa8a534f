import * as sessions from '../sessions/schemas';
import type { Route } from './route';

/** The sessions API (web-api.txt 4.2). */

export const sessionsGet = {
  method: 'POST',
  path: '/api/sessions/get',
  handler: 'sessions-get',
  tables: { sessions: 'read', accounts: 'read' },
  summary: 'Read a session value',
  request: sessions.sessionKeyRequest,
  response: sessions.sessionResponse,
} as const satisfies Route;

export const sessionsSet = {
  method: 'POST',
  path: '/api/sessions/set',
  handler: 'sessions-set',
  tables: { sessions: 'write', accounts: 'read' },
  summary: 'Write a session value',
  request: sessions.sessionSetRequest,
  response: sessions.sessionResponse,
} as const satisfies Route;

export const sessionsDelete = {
  method: 'POST',
  path: '/api/sessions/delete',
  handler: 'sessions-delete',
  tables: { sessions: 'write', accounts: 'read' },
  summary: 'Delete a session value',
  request: sessions.sessionKeyRequest,
  response: sessions.sessionResponse,
} as const satisfies Route;
