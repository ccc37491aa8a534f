import * as z from 'zod';
import type { Route } from './route';

/** The API about itself. */

export const openapi = {
  method: 'GET',
  path: '/api/openapi.json',
  handler: 'openapi',
  tables: {},
  auth: false,
  parseBody: false,
  checkMime: false,
  summary: 'This API as an OpenAPI 3.1 document',
  response: openApiDocument(),
} as const satisfies Route;

/** Every request no route key matches (API Gateway's `$default` route): a route in another case, or a JSON 404 or 405. */
export const fallback = {
  method: 'POST',
  path: '$default',
  handler: 'route-fallback',
  tables: {},
  summary: 'Any other request: 404, or 405 for a known path with another method',
  auth: false,
  parseBody: false,
  checkMime: false,
  response: z.null(),
} as const satisfies Route;

function openApiDocument(): z.ZodType {
  return z
    .looseObject({
      openapi: z.string(),
      info: z.looseObject({ title: z.string() }),
      paths: z.record(z.string(), z.unknown()),
    })
    .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document' });
}
