import * as z from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { pathsOf, type Route, routes } from './routes';
import { operationExamples } from './routes/examples';
import { apiResultSchema } from './schema';

/**
 * The OpenAPI 3.1 document, generated from the route table and its zod schemas, so that it cannot list a
 * route that does not exist or miss one that does. Every path of a route is listed (a route's aliases
 * without `{id}` are operations of their own), once: paths match in any case (CONTRACT section 1), so
 * an alias that differs from another path only in case is the same path. Schemas that carry an `id`
 * (`.meta({ id })`) are written once under components and referenced.
 */
export function openApiDocument(serverUrl = '/'): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  const listed = new Set<string>();
  for (const route of routes as readonly Route[]) {
    for (const path of pathsOf(route)) {
      const key = `${route.method} ${path.toLowerCase()}`;
      if (listed.has(key)) continue;
      listed.add(key);
      paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route, path) };
    }
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Kiroku Web API',
      version: '1.1',
      description:
        'Pleasanter-compatible Web API. Authenticate with `ApiKey` in the JSON body, `Authorization: Bearer <key>` ' +
        'for uploads, or the `Kiroku_Auth` login cookie (a POST then needs `X-Requested-With: XMLHttpRequest`). ' +
        'Check the body `StatusCode` as well as the HTTP status.',
    },
    servers: [{ url: serverUrl }],
    tags: [...tags],
    components: {
      securitySchemes: {
        loginCookie: { type: 'apiKey', in: 'cookie', name: 'Kiroku_Auth' },
        bearerApiKey: { type: 'http', scheme: 'bearer', description: 'The API key itself (binary upload).' },
      },
    },
    paths,
  });
}

function pathParameter(name: string) {
  return name === 'guid' ? z.string().regex(/^[0-9A-Fa-f]{32}$/) : z.string().regex(/^-?\d+$/);
}

/** The document's tags: one per area of the API, in the order a reader meets them. */
export const tags = [
  { name: 'Login', description: 'Log in and out with a login id and password (the Kiroku_Auth cookie)' },
  { name: 'Sessions', description: 'Values kept per session or per user' },
  { name: 'Tenants', description: 'Tenants and their first manager' },
  { name: 'Users', description: 'Users of a tenant and their API keys' },
  { name: 'Groups', description: 'Groups of users and depts' },
  { name: 'Depts', description: 'Departments' },
  { name: 'Sites', description: 'Sites (folders and tables), their lookup by name, and site packages' },
  { name: 'Records', description: 'The records of a site' },
  { name: 'Files', description: 'Uploaded files: attachments and images' },
  { name: 'Search', description: 'Full-text search and the background tasks that rebuild its index' },
  { name: 'Mail', description: "Mail about records, and the local mail server's mailbox" },
  {
    name: 'Notifications',
    description: "A site's notification deliveries: their outcome, signing and replay",
  },
  {
    name: 'Server scripts',
    description: "A tenant's background (scheduled) scripts, and a site's last script failures",
  },
  { name: 'Document', description: 'This document' },
  { name: 'Browser UI', description: 'The pages of the browser UI and their assets (not JSON)' },
] as const;

function tagOf(route: Route): (typeof tags)[number]['name'] {
  const area = route.handler.split('-')[0];
  if (route.handler === 'users-authenticate' || route.handler === 'users-signout') return 'Login';
  if (area === 'backgroundscripts' || route.handler === 'items-scripterrors-get') return 'Server scripts';
  if (area === 'items') return /site|closest/.test(route.handler) ? 'Sites' : 'Records';
  if (area === 'binaries') return 'Files';
  if (area === 'openapi') return 'Document';
  if (area === 'outgoingmails' || area === 'mailbox') return 'Mail';
  if (area === 'web') return 'Browser UI';
  if (area === 'search' || area === 'backgroundtasks') return 'Search';
  if (area === 'notifications') return 'Notifications';
  const byArea = {
    sessions: 'Sessions',
    tenants: 'Tenants',
    users: 'Users',
    groups: 'Groups',
    depts: 'Depts',
  } as const;
  const tag = byArea[area as keyof typeof byArea];
  if (!tag) throw new Error(`route ${route.handler} has no tag`);
  return tag;
}

/**
 * Who may call, from the route's `auth`: the API key of a JSON body is no HTTP-level scheme, so those
 * operations list the login cookie or nothing at all (`{}`) and say so in their description; `[]` marks a
 * public operation (the login, the sign-out, this document).
 */
function securityOf(route: Route): Record<string, string[]>[] {
  if (route.auth === false) return [];
  const auth = { apiKey: true, bearer: false, cookie: true, ...route.auth };
  const schemes: Record<string, string[]>[] = [];
  if (auth.bearer) schemes.push({ bearerApiKey: [] });
  if (auth.cookie) schemes.push({ loginCookie: [] });
  if (auth.apiKey) schemes.push({});
  return schemes;
}

function authNote(route: Route): string {
  if (route.auth === false) return 'No authentication.';
  const auth = { apiKey: true, bearer: false, cookie: true, ...route.auth };
  const ways = [
    auth.apiKey && '`ApiKey` in the body',
    auth.bearer && '`Authorization: Bearer <API key>`',
    auth.cookie && 'the login cookie (a POST then needs `X-Requested-With: XMLHttpRequest`)',
  ].filter(Boolean);
  return `Authenticate with ${ways.join(', or ')}.`;
}

/**
 * The operation id: the handler's name; for an alias that ends in another word, that word
 * (`users-get-as-current`); for any other alias what it leaves out (`users-get-without-id`).
 */
function operationIdOf(route: Route, path: string): string {
  if (path === route.path) return route.handler;
  const last = (of: string) => of.split('/').at(-1)?.toLowerCase() ?? '';
  if (last(path) !== last(route.path)) return `${route.handler}-as-${last(path)}`;
  const missing = [...route.path.matchAll(/\{(\w+)\}/g)]
    .map((match) => match[1] as string)
    .filter((name) => !path.includes(`{${name}}`));
  return `${route.handler}-without-${missing.join('-') || 'case'}`;
}

function operation(route: Route, path: string): ZodOpenApiOperationObject {
  const parameters = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  const example = operationExamples[route.handler];
  const requestTypes = route.requestType === 'multipart' ? ['multipart/form-data'] : ['application/json'];
  if (route.form) requestTypes.push('application/x-www-form-urlencoded');
  return {
    operationId: operationIdOf(route, path),
    summary: route.summary,
    description: authNote(route),
    tags: [tagOf(route)],
    security: securityOf(route),
    requestParams: {
      ...(parameters.length > 0 && {
        path: z.object(Object.fromEntries(parameters.map((name) => [name, pathParameter(name)]))),
      }),
      ...(route.query && { query: route.query }),
    },
    ...(route.request && {
      requestBody: {
        required: true,
        content: Object.fromEntries(
          requestTypes.map((type) => [
            type,
            { schema: route.request, ...(example && { example: example.request }) },
          ]),
        ),
      },
    }),
    responses: {
      ...(route.redirect
        ? {
            '302': {
              description: 'Redirect to a presigned URL valid for 60 seconds',
              headers: z.object({
                location: z
                  .string()
                  .meta({ description: 'The presigned URL', example: example?.answer as string }),
              }),
            },
          }
        : {
            '200': {
              description: 'Success',
              content: {
                [route.produces ?? 'application/json']: {
                  schema: route.response,
                  ...(example && { example: example.answer }),
                },
              },
            },
          }),
      default: {
        description: 'Error: the status is in StatusCode',
        content: {
          'application/json': {
            schema: apiResultSchema,
            example: { Id: 0, StatusCode: 401, Message: 'Unable to authorize.' },
          },
        },
      },
    },
  };
}
