import * as z from 'zod';
import * as accounts from './accounts/schemas';
import * as binaries from './binaries/schemas';
import { apiKeyResultSchema, apiResultSchema, pagedSchema } from './http/schemas';
import * as packages from './items/package-schemas';
import * as items from './items/schemas';
import * as search from './search/schemas';
import * as sessions from './sessions/schemas';
import * as sites from './sites/schemas';
import type { TableKey } from './storage/tables';

/**
 * The one route table: the CDK app creates one Lambda function and one HTTP API route per entry, the local
 * gateway routes to the same handler modules from it, and the OpenAPI document is generated from it.
 * `handler` names `functions/<handler>.ts`, whose export `handler` is the Lambda entry point. Paths are API
 * Gateway route keys: `{name}` is a path parameter; matching is case-sensitive, as in API Gateway.
 */

export type TableAccess = 'read' | 'write';

export interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly handler: string;
  /** Other spellings of the path that reach the same function (API Gateway matches case-sensitively). */
  readonly aliases?: readonly string[];
  /** The binary bucket, when the function touches it, and how: CDK grants exactly this. */
  readonly bucket?: TableAccess;
  /** The tables the function may touch, and how: CDK grants exactly this. */
  readonly tables: Readonly<Partial<Record<TableKey, TableAccess>>>;
  /** One line for the OpenAPI document. */
  readonly summary: string;
  /** The body's schema (undefined: no body): JSON, unless `requestType` says multipart. */
  readonly request?: z.ZodType;
  readonly requestType?: 'json' | 'multipart';
  /** Query parameters, for the document. */
  readonly query?: z.ZodObject;
  /** Answers a redirect (302 to a presigned URL) on success instead of JSON. */
  readonly redirect?: boolean;
  /** Lambda memory in MB, when the function needs more than the default (uploads hold a part). */
  readonly memoryMb?: number;
  /** The success body's schema; errors are always an ApiResult. */
  readonly response: z.ZodType;
}

const userPaged = pagedSchema(accounts.userSchema);
const groupPaged = pagedSchema(accounts.groupSchema);
const deptPaged = pagedSchema(accounts.deptSchema);
// Every items route authenticates (accounts) and checks group-based permissions (accounts again).
const itemsRead = { items: 'read', accounts: 'read' } as const;
const itemsWrite = { items: 'write', accounts: 'read' } as const;

export const routes = [
  {
    method: 'POST',
    path: '/api/sessions/get',
    handler: 'sessions-get',
    tables: { sessions: 'read', accounts: 'read' },
    summary: 'Read a session value',
    request: sessions.sessionKeyRequest,
    response: sessions.sessionResponse,
  },
  {
    method: 'POST',
    path: '/api/sessions/set',
    handler: 'sessions-set',
    tables: { sessions: 'write', accounts: 'read' },
    summary: 'Write a session value',
    request: sessions.sessionSetRequest,
    response: sessions.sessionResponse,
  },
  {
    method: 'POST',
    path: '/api/sessions/delete',
    handler: 'sessions-delete',
    tables: { sessions: 'write', accounts: 'read' },
    summary: 'Delete a session value',
    request: sessions.sessionKeyRequest,
    response: sessions.sessionResponse,
  },
  {
    method: 'POST',
    path: '/api/tenants/create',
    handler: 'tenants-create',
    tables: { accounts: 'write' },
    summary: 'Create a tenant and its first tenant manager (privileged users only)',
    request: accounts.tenantCreateRequest,
    response: apiKeyResultSchema,
  },
  {
    method: 'POST',
    path: '/api/users/create',
    handler: 'users-create',
    tables: { accounts: 'write' },
    summary: 'Create a user (tenant managers)',
    request: accounts.userCreateRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/users/{id}/get',
    handler: 'users-get',
    tables: { accounts: 'read' },
    summary: 'Read a user of the tenant',
    request: accounts.emptyRequest,
    response: userPaged,
  },
  {
    method: 'POST',
    path: '/api/users/{id}/update',
    handler: 'users-update',
    tables: { accounts: 'write' },
    summary: 'Update a user (tenant managers; a user their own name and password)',
    request: accounts.userUpdateRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/users/{id}/delete',
    handler: 'users-delete',
    tables: { accounts: 'write' },
    summary: 'Delete a user (tenant managers)',
    request: accounts.emptyRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/users/{id}/createapikey',
    handler: 'users-createapikey',
    tables: { accounts: 'write' },
    summary: "Create or replace a user's API key (the user or a tenant manager); shown once",
    request: accounts.emptyRequest,
    response: apiKeyResultSchema,
  },
  {
    method: 'POST',
    path: '/api/users/{id}/deleteapikey',
    handler: 'users-deleteapikey',
    tables: { accounts: 'write' },
    summary: "Delete a user's API key (the user or a tenant manager)",
    request: accounts.emptyRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/groups/create',
    handler: 'groups-create',
    tables: { accounts: 'write' },
    summary: 'Create a group (tenant managers)',
    request: accounts.groupCreateRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/groups/{id}/get',
    handler: 'groups-get',
    tables: { accounts: 'read' },
    summary: 'Read a group of the tenant',
    request: accounts.emptyRequest,
    response: groupPaged,
  },
  {
    method: 'POST',
    path: '/api/groups/{id}/update',
    handler: 'groups-update',
    tables: { accounts: 'write' },
    summary: 'Update a group (tenant managers)',
    request: accounts.groupUpdateRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/groups/{id}/delete',
    handler: 'groups-delete',
    tables: { accounts: 'write' },
    summary: 'Delete a group (tenant managers)',
    request: accounts.emptyRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/depts/create',
    handler: 'depts-create',
    tables: { accounts: 'write' },
    summary: 'Create a dept (tenant managers)',
    request: accounts.deptCreateRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/depts/{id}/get',
    handler: 'depts-get',
    tables: { accounts: 'read' },
    summary: 'Read a dept of the tenant',
    request: accounts.emptyRequest,
    response: deptPaged,
  },
  {
    method: 'POST',
    path: '/api/depts/{id}/update',
    handler: 'depts-update',
    tables: { accounts: 'write' },
    summary: 'Update a dept (tenant managers); a disabled dept grants nothing',
    request: accounts.deptUpdateRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/depts/{id}/delete',
    handler: 'depts-delete',
    tables: { accounts: 'write' },
    summary: 'Delete a dept (tenant managers); its users keep a DeptId that grants nothing',
    request: accounts.emptyRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/items/{id}/createsite',
    handler: 'items-createsite',
    tables: itemsWrite,
    summary: 'Create a site under the folder {id} (0: top level, tenant managers only)',
    request: items.siteCreateRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/items/{id}/getsite',
    handler: 'items-getsite',
    tables: itemsRead,
    summary: 'Read a site (Read)',
    request: accounts.emptyRequest,
    response: items.siteResponse,
  },
  {
    method: 'POST',
    path: '/api/items/{id}/updatesite',
    handler: 'items-updatesite',
    tables: itemsWrite,
    summary: 'Update or move a site (ManageSite; ManagePermission for its permissions)',
    request: items.siteUpdateRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/items/{id}/deletesite',
    handler: 'items-deletesite',
    tables: itemsWrite,
    summary: 'Delete a site with its subtree and all their records (ManageSite)',
    request: accounts.emptyRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/items/{id}/exportsitepackage',
    handler: 'items-exportsitepackage',
    tables: itemsRead,
    summary: 'The subtree of site {id} as a site package, IncludeData: with its records (ManageSite)',
    request: packages.exportPackageRequest,
    response: packages.exportPackageResponse,
  },
  {
    method: 'POST',
    path: '/api/items/{id}/importsitepackage',
    handler: 'items-importsitepackage',
    tables: itemsWrite,
    summary: 'Create the sites of a package under the folder {id} (0: top level) with new ids (ManageSite)',
    request: packages.importPackageRequest,
    response: packages.importPackageResponse,
  },
  {
    method: 'POST',
    path: '/api/items/{id}/create',
    handler: 'items-create',
    tables: itemsWrite,
    summary: 'Create a record in the site {id} (Create)',
    request: items.recordWriteRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/items/{id}/get',
    handler: 'items-get',
    // Writes: every read counts against the site's daily API limit. Site indexes: integrated sites are
    // resolved by name through the site-name index.
    tables: { ...itemsWrite, siteIndexes: 'read', searchIndex: 'read' },
    summary: 'Read a record, or a page of the records of the site {id} (Read)',
    request: items.recordGetRequest,
    response: items.recordPaged,
  },
  {
    method: 'POST',
    path: '/api/items/{id}/update',
    handler: 'items-update',
    tables: itemsWrite,
    summary: 'Update a record (Update; a locked record only by its locker or a manager)',
    request: items.recordWriteRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/items/{id}/delete',
    handler: 'items-delete',
    tables: itemsWrite,
    summary: 'Delete a record (Delete)',
    request: accounts.emptyRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/api/items/{id}/GetClosestSiteId',
    // The path is case-insensitive in the reference; the browser and script wrappers call it in lower case.
    aliases: ['/api/items/{id}/getclosestsiteid'],
    handler: 'items-getclosestsiteid',
    tables: { items: 'read', accounts: 'read', siteIndexes: 'read' },
    summary: 'The nearest site of each name, seen from site {id} (-1 when none, or not permitted)',
    request: sites.closestSiteRequest,
    response: sites.closestSiteResponse,
  },
  {
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
  },
  {
    method: 'POST',
    path: '/api/BackgroundTasks/Tasks/{taskId}/Get',
    aliases: ['/api/backgroundtasks/tasks/{taskId}/get'],
    handler: 'backgroundtasks-get',
    tables: { accounts: 'read', tasks: 'read' },
    summary: "A background task's status and progress (users of its tenant)",
    request: accounts.emptyRequest,
    response: search.taskResponse,
  },
  {
    method: 'POST',
    path: '/api/search',
    handler: 'search',
    tables: { items: 'read', accounts: 'read', searchIndex: 'read' },
    summary: 'Search every site and record the caller can read: every word of SearchText, newest first',
    request: search.searchRequest,
    response: search.searchResponse,
  },
  {
    method: 'POST',
    path: '/api/binaries/upload',
    handler: 'binaries-upload',
    bucket: 'write',
    tables: { binaries: 'write', accounts: 'read' },
    summary:
      'Upload a file, whole or in chunks (Content-Range in the file part), for the site or record ?id=',
    request: binaries.uploadForm,
    requestType: 'multipart',
    query: binaries.uploadQuery,
    response: apiResultSchema,
    memoryMb: 1769,
  },
  {
    method: 'POST',
    path: '/api/binaries/{guid}/upload',
    handler: 'binaries-guid-upload',
    bucket: 'write',
    tables: { binaries: 'write', ...itemsWrite },
    summary:
      'New content for an attached file: kept under its GUID with ?overwrite=true, else added beside it (Update)',
    request: binaries.uploadForm,
    requestType: 'multipart',
    query: binaries.overwriteQuery,
    response: apiResultSchema,
    memoryMb: 1769,
  },
  {
    method: 'POST',
    path: '/api/binaries/{guid}/get',
    handler: 'binaries-get',
    bucket: 'read',
    tables: { binaries: 'read', ...itemsRead },
    summary: 'A file of up to 4 MB as base64 in JSON (Read on its site or record, or its uploader)',
    request: accounts.emptyRequest,
    response: binaries.fileResponse,
  },
  {
    method: 'GET',
    path: '/binaries/{guid}/download',
    handler: 'binaries-download',
    bucket: 'read',
    tables: { binaries: 'read', ...itemsRead },
    summary: 'Download a file: a redirect to a presigned URL valid for 60 s (Read, or its uploader)',
    redirect: true,
    response: binaries.redirectResponse,
  },
  {
    method: 'GET',
    path: '/binaries/{guid}/show',
    handler: 'binaries-show',
    bucket: 'read',
    tables: { binaries: 'read', ...itemsRead },
    summary: 'Show a file inline (images embedded in text): a redirect to a presigned URL valid for 60 s',
    redirect: true,
    response: binaries.redirectResponse,
  },
  {
    method: 'POST',
    path: '/users/authenticate',
    handler: 'users-authenticate',
    tables: { accounts: 'write' },
    summary: 'Log in (JSON or an HTML form): sets the Kiroku_Auth and Kiroku_SessionGuid cookies',
    request: accounts.loginRequest,
    response: apiResultSchema,
  },
  {
    method: 'POST',
    path: '/users/signout',
    handler: 'users-signout',
    tables: { accounts: 'write' },
    summary: 'Log out: ends the login and removes its cookies',
    request: accounts.emptyRequest,
    response: apiResultSchema,
  },
  {
    method: 'GET',
    path: '/api/openapi.json',
    handler: 'openapi',
    tables: {},
    summary: 'This API as an OpenAPI 3.1 document',
    response: openApiDocument(),
  },
] as const satisfies readonly Route[];

/** Every request no route matches goes here (API Gateway's `$default` route), for a JSON 404 or 405. */
export const fallbackHandler = 'not-found';

/** Every path a route answers on: its own and its aliases. */
export function pathsOf(route: Route): readonly string[] {
  return [route.path, ...(route.aliases ?? [])];
}

function openApiDocument(): z.ZodType {
  return z
    .looseObject({
      openapi: z.string(),
      info: z.looseObject({ title: z.string() }),
      paths: z.record(z.string(), z.unknown()),
    })
    .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document' });
}
