import type * as z from 'zod';
import { principalForApiKey } from '../../accounts/authentication';
import { callerZone } from '../../accounts/caller-zone';
import type { Principal } from '../../accounts/principal';
import { canonicalize } from '../../case-insensitive';
import { InvalidInputError, InvalidJsonError, UnauthorizedError } from '../../errors';
import type { ItemRecord } from '../../items/model';
import { designedNewRecord } from '../../items/record-design';
import type { ReferenceType, Site } from '../../sites/model';
import { UNSET_DATE } from '../../zoned-time';
import type { ScriptCallContext } from '../host-calls';
import { type FlatModel, toModel } from '../model';

/**
 * What a script hands `items.Create`, `Update`, `Upsert` and `BulkDelete` (reference/pleasanter-script-
 * objects.md 1, "Write semantics"), as the body the API would take: a JSON string in the REST item layout
 * (only the fields it has), or an apiModel from `items.New*`/`Get` (its fields, every one written). The
 * prelude (lib/scripts/globals/item-writes.ts) tags which one it was; anything else (a plain object, which
 * the reference cannot read either) is refused.
 */
export type ModelArgument =
  | { readonly Json: string }
  | { readonly Model: FlatModel }
  | { readonly Other: string };

/** The argument's apiModel, if it is one. */
export function apiModelOf(argument: unknown): FlatModel | undefined {
  const model = (argument as { Model?: unknown } | null)?.Model;
  return typeof model === 'object' && model !== null && !Array.isArray(model)
    ? (model as FlatModel)
    : undefined;
}

/** The argument's JSON object; not JSON, not an object, or not a string at all is the refusal to log. */
export function jsonOf(argument: unknown): Record<string, unknown> {
  const text = (argument as { Json?: unknown } | null)?.Json;
  if (typeof text !== 'string') {
    const other = (argument as { Other?: unknown } | null)?.Other;
    const what = apiModelOf(argument) ? 'an apiModel' : `a ${String(other ?? 'missing value')}`;
    throw new InvalidJsonError(`${what} where a JSON string is expected (use JSON.stringify)`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidJsonError('the JSON string does not parse');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidJsonError('the JSON string is not an object');
  return value as Record<string, unknown>;
}

/** The body checked as the API's route checks it: names matched without case, each value by its schema. */
export function parsed<S extends z.ZodType>(schema: S, body: Record<string, unknown>): z.infer<S> {
  const result = schema.safeParse(canonicalize(body, schema), { jitless: true });
  if (result.success) return result.data;
  throw new InvalidInputError(
    result.error.issues.slice(0, 20).map((issue) => ({
      Property: issue.path.length > 0 ? issue.path.join('.') : undefined,
      Problem: issue.message,
    })),
  );
}

/**
 * Who writes: the script's user, or the user of an `ApiKey` in the JSON, as the reference authenticates
 * the nested request by it (the manual's way to write with more rights). A background script's key is
 * ignored (manual), and a key of another tenant is refused: a script stays in its tenant.
 */
export async function writerOf(
  context: ScriptCallContext,
  body: Record<string, unknown>,
): Promise<Principal> {
  const name = Object.keys(body).find((key) => key === 'ApiKey') ?? Object.keys(body).find(isApiKey);
  const key = name === undefined ? undefined : body[name];
  if (key === undefined || key === null || key === '' || context.condition === 'BackgroundServerScript')
    return context.principal;
  const found = await principalForApiKey(String(key));
  if (!found) throw new UnauthorizedError('the ApiKey of the JSON is unknown, or its user is disabled');
  if (found.tenantId !== context.principal.tenantId)
    throw new UnauthorizedError('the ApiKey of the JSON belongs to another tenant');
  return found;
}

const isApiKey = (key: string) => key.toLowerCase() === 'apikey';

/** The Issues-only fields: a model of another kind does not carry them into a Results table. */
const issuesOnly = new Set(['StartTime', 'CompletionTime', 'WorkValue', 'ProgressRate']);
const writable = new Set(['Title', 'Body', 'Status', 'Manager', 'Owner', 'Locked', ...issuesOnly]);
const columnName = /^(Class|Num|Date|Description|Check|Attachments)[A-Z]$/;

/**
 * A record apiModel as a write's body: every field it holds that a write takes (the reference writes the
 * whole model); ids, versions, times, Creator and Updator are the record's own, and Comments are dropped
 * as the reference drops them (a comment goes in a JSON string). An unset time shown as 1899-12-30 stays
 * unset.
 */
export function recordBodyOf(model: FlatModel, site: Site): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(model)) {
    if (!writable.has(name) && !columnName.test(name)) continue;
    if (issuesOnly.has(name) && site.referenceType !== 'Issues') continue;
    const unset = typeof value === 'string' && value.startsWith(UNSET_DATE.slice(0, 10));
    body[name] = unset && (name === 'StartTime' || name === 'CompletionTime') ? null : value;
  }
  return body;
}

const siteFields = ['Title', 'SiteName', 'SiteGroupName', 'ReferenceType'];
const guardedSiteFields = ['ParentId', 'InheritPermission', 'Permissions', 'SiteSettings'] as const;

/**
 * A site apiModel as createsite's or updatesite's body. On update, the fields that need more than
 * ManageSite (a move, the permissions) and the settings go only when the script changed them, so that
 * writing back a site as read asks for no more than its title would.
 */
export function siteBodyOf(model: FlatModel, before?: Site): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of siteFields)
    if (model[name] !== undefined && model[name] !== null) body[name] = model[name];
  const stored: Record<(typeof guardedSiteFields)[number], unknown> = {
    ParentId: before?.parentId,
    InheritPermission: before?.inheritPermission,
    Permissions: before?.permissions,
    SiteSettings: before?.siteSettings,
  };
  for (const name of guardedSiteFields) {
    // The reference's SiteSettings setter takes JSON text.
    const value =
      name === 'SiteSettings' && typeof model[name] === 'string' ? safeJson(model[name]) : model[name];
    if (value === undefined || value === null || (name === 'ParentId' && !before)) continue;
    if (before && JSON.stringify(value) === JSON.stringify(stored[name])) continue;
    body[name] = value;
  }
  return body;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidJsonError('SiteSettings is not JSON');
  }
}

/**
 * `items.NewIssue()`/`NewResult()`: a blank record of a fresh table of that kind with its defaults (Status,
 * Manager and Owner the script's user, an Issue's StartTime and CompletionTime), as the reference's
 * SetDefault on a new SiteSettings gives it; not the defaults of the table it will go to.
 */
export async function blankModel(principal: Principal, referenceType: ReferenceType): Promise<FlatModel> {
  const site: Site = {
    siteId: 0,
    tenantId: principal.tenantId,
    title: '',
    referenceType,
    parentId: 0,
    inheritPermission: 0,
    permissions: [],
    siteSettings: {},
    creator: principal.userId,
    updator: principal.userId,
    createdAt: 0,
    updatedAt: 0,
    ver: 0,
  };
  const empty = { Class: {}, Num: {}, Date: {}, Description: {}, Check: {}, Attachments: {} };
  const blank: ItemRecord = {
    recordId: 0,
    tenantId: principal.tenantId,
    siteId: 0,
    title: '',
    fields: empty,
    locked: false,
    creator: principal.userId,
    updator: principal.userId,
    createdAt: 0,
    updatedAt: 0,
    ver: 0,
    version: 1,
  };
  return toModel(site, await designedNewRecord(principal, site, {}, blank), callerZone(principal));
}
