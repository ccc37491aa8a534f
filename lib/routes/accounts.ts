import * as accounts from '../accounts/schemas';
import { apiKeyResultSchema, apiResultSchema, pagedSchema } from '../schema';
import type { Route } from './route';

const userPaged = pagedSchema(accounts.userSchema);
const groupPaged = pagedSchema(accounts.groupSchema);
const deptPaged = pagedSchema(accounts.deptSchema);

/** Tenants, users, groups, depts, API keys and the browser login (CONTRACT section 5). */

export const tenantsCreate = {
  method: 'POST',
  path: '/api/tenants/create',
  handler: 'tenants-create',
  tables: { accounts: 'write' },
  summary: 'Create a tenant and its first tenant manager (privileged users only)',
  request: accounts.tenantCreateRequest,
  response: apiKeyResultSchema,
} as const satisfies Route;

export const usersCreate = {
  method: 'POST',
  path: '/api/users/create',
  handler: 'users-create',
  tables: { accounts: 'write' },
  summary: 'Create a user (tenant managers)',
  request: accounts.userCreateRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const usersGet = {
  method: 'POST',
  path: '/api/users/{id}/get',
  // The list and the caller's own record (the browser UI asks who its login cookie is) share the function:
  // no id (or 0) is every user of the tenant, users/current the caller (CloudFormation's resource cap).
  aliases: ['/api/users/get', '/api/users/current'],
  handler: 'users-get',
  tables: { accounts: 'read' },
  summary:
    "The tenant's users (no id), the user {id}, or the caller (users/current), through View.ColumnFilterHash, paged",
  request: accounts.accountListRequest,
  response: userPaged,
} as const satisfies Route;

export const usersUpdate = {
  method: 'POST',
  path: '/api/users/{id}/update',
  handler: 'users-update',
  tables: { accounts: 'write' },
  summary: 'Update a user (tenant managers; a user their own name and password)',
  request: accounts.userUpdateRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const usersDelete = {
  method: 'POST',
  path: '/api/users/{id}/delete',
  handler: 'users-delete',
  tables: { accounts: 'write' },
  summary: 'Delete a user (tenant managers)',
  request: accounts.emptyRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const usersCreateapikey = {
  method: 'POST',
  path: '/api/users/{id}/createapikey',
  handler: 'users-createapikey',
  tables: { accounts: 'write' },
  summary: "Create or replace a user's API key (the user or a tenant manager); shown once",
  request: accounts.emptyRequest,
  response: apiKeyResultSchema,
} as const satisfies Route;

export const usersDeleteapikey = {
  method: 'POST',
  path: '/api/users/{id}/deleteapikey',
  handler: 'users-deleteapikey',
  tables: { accounts: 'write' },
  summary: "Delete a user's API key (the user or a tenant manager)",
  request: accounts.emptyRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const groupsCreate = {
  method: 'POST',
  path: '/api/groups/create',
  handler: 'groups-create',
  tables: { accounts: 'write' },
  summary: 'Create a group (tenant managers)',
  request: accounts.groupCreateRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const groupsGet = {
  method: 'POST',
  path: '/api/groups/{id}/get',
  // The list shares the function: no id (or 0) is every group of the tenant (CloudFormation's resource cap).
  aliases: ['/api/groups/get'],
  handler: 'groups-get',
  tables: { accounts: 'read' },
  summary: "The tenant's groups (no id), or the group {id}, through View.ColumnFilterHash, paged",
  request: accounts.accountListRequest,
  response: groupPaged,
} as const satisfies Route;

export const groupsUpdate = {
  method: 'POST',
  path: '/api/groups/{id}/update',
  handler: 'groups-update',
  tables: { accounts: 'write' },
  summary: 'Update a group (tenant managers)',
  request: accounts.groupUpdateRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const groupsDelete = {
  method: 'POST',
  path: '/api/groups/{id}/delete',
  handler: 'groups-delete',
  tables: { accounts: 'write' },
  summary: 'Delete a group (tenant managers)',
  request: accounts.emptyRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const deptsCreate = {
  method: 'POST',
  path: '/api/depts/create',
  handler: 'depts-create',
  tables: { accounts: 'write' },
  summary: 'Create a dept (tenant managers)',
  request: accounts.deptCreateRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const deptsGet = {
  method: 'POST',
  path: '/api/depts/{id}/get',
  // The list shares the function: no id (or 0) is every dept of the tenant (CloudFormation's resource cap).
  aliases: ['/api/depts/get'],
  handler: 'depts-get',
  tables: { accounts: 'read' },
  summary: "The tenant's depts (no id), or the dept {id}, through View.ColumnFilterHash, paged",
  request: accounts.accountListRequest,
  response: deptPaged,
} as const satisfies Route;

export const deptsUpdate = {
  method: 'POST',
  path: '/api/depts/{id}/update',
  handler: 'depts-update',
  tables: { accounts: 'write' },
  summary: 'Update a dept (tenant managers); a disabled dept grants nothing',
  request: accounts.deptUpdateRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const deptsDelete = {
  method: 'POST',
  path: '/api/depts/{id}/delete',
  handler: 'depts-delete',
  tables: { accounts: 'write' },
  summary: 'Delete a dept (tenant managers); its users keep a DeptId that grants nothing',
  request: accounts.emptyRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const usersAuthenticate = {
  method: 'POST',
  path: '/users/authenticate',
  handler: 'users-authenticate',
  tables: { accounts: 'write' },
  auth: false,
  form: true,
  checkMime: false,
  summary: 'Log in (JSON or an HTML form): sets the Kiroku_Auth and Kiroku_SessionGuid cookies',
  request: accounts.loginRequest,
  response: apiResultSchema,
} as const satisfies Route;

export const usersSignout = {
  method: 'POST',
  path: '/users/signout',
  handler: 'users-signout',
  tables: { accounts: 'write' },
  auth: false,
  summary: 'Log out: ends the login and removes its cookies',
  request: accounts.emptyRequest,
  response: apiResultSchema,
} as const satisfies Route;
