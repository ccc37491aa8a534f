import * as z from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { type Route, routes } from './routes';
import { apiResultSchema } from './schema';

/**
 * The OpenAPI 3.1 document, generated from the route table and its zod schemas, so that it cannot list a
 * route that does not exist or miss one that does.
 */
export function openApiDocument(serverUrl = '/'): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes as readonly Route[]) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) };
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

function operation(route: Route): ZodOpenApiOperationObject {
  const parameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  return {
    operationId: route.handler,
    summary: route.summary,
    requestParams: {
      ...(parameters.length > 0 && {
        path: z.object(Object.fromEntries(parameters.map((name) => [name, pathParameter(name)]))),
      }),
      ...(route.query && { query: route.query }),
    },
    ...(route.request && {
      requestBody: {
        required: true,
        content: {
          [route.requestType === 'multipart' ? 'multipart/form-data' : 'application/json']: {
            schema: route.request,
          },
        },
      },
    }),
    responses: {
      ...(route.redirect
        ? {
            '302': {
              description: 'Redirect to a presigned URL valid for 60 seconds',
              headers: z.object({ location: z.string().meta({ description: 'The presigned URL' }) }),
            },
          }
        : { '200': { description: 'Success', content: { 'application/json': { schema: route.response } } } }),
      default: {
        description: 'Error: the status is in StatusCode',
        content: { 'application/json': { schema: apiResultSchema } },
      },
    },
  };
}
