import { principalForApiKey } from '../../accounts/authentication';
import type { Principal } from '../../accounts/principal';
import { ApiError } from '../../errors';
import type { RecordGetInput } from '../../items/record-get';
import { recordGetRequest } from '../../items/schemas';
import { logger } from '../../log';
import type { Site } from '../../sites/model';
import { Permission, sitePermission } from '../../sites/permissions';
import type { ScriptCallContext } from '../host-calls';

/**
 * The API body a script hands to a read (`items.Get(id, view)`, the aggregates' `view`): the reference
 * takes a JSON string, `{Offset, PageSize, View, TableType, ApiKey}`; Kiroku takes that string, and also
 * the object itself (what a script means by `items.Get(id, {View: …})`, which the reference would turn
 * into the text "[object Object]" and fail on). A body that does not parse or does not fit is refused:
 * the read answers its failure result (an empty array, 0), never every record.
 *
 * `ApiKey` in the body reads as that key's user, as the reference's nested context does, except in a
 * scheduled script, where the reference ignores it and so does Kiroku.
 */
export type ScriptBody =
  | { readonly ok: true; readonly input: RecordGetInput; readonly principal: Principal }
  | { readonly ok: false; readonly problem: string };

export async function scriptBody(context: ScriptCallContext, value: unknown): Promise<ScriptBody> {
  const caller = await scriptPrincipal(context, value, recordGetRequest.shape);
  if (!caller.ok) return caller;
  const parsed = recordGetRequest.safeParse(caller.body);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    return { ok: false, problem: `${issue?.path.join('.') || 'body'}: ${issue?.message}` };
  }
  return { ok: true, input: parsed.data, principal: caller.principal };
}

/**
 * A JSON body a script passes (a string, or the object), its property names matched without case to
 * those of `shape` (CONTRACT 1), and the user it acts as: its `ApiKey`'s, else the script's.
 */
export async function scriptPrincipal(
  context: ScriptCallContext,
  value: unknown,
  shape: Readonly<Record<string, unknown>>,
): Promise<
  | { readonly ok: true; readonly body: Record<string, unknown>; readonly principal: Principal }
  | { readonly ok: false; readonly problem: string }
> {
  const raw = bodyOf(value);
  if (typeof raw === 'string') return { ok: false, problem: raw };
  const body = canonical(raw, Object.keys(shape));
  const apiKey = body.ApiKey;
  if (apiKey === undefined || apiKey === null || context.site === undefined) {
    return { ok: true, body, principal: context.principal };
  }
  const principal = typeof apiKey === 'string' ? await principalForApiKey(apiKey) : undefined;
  return principal ? { ok: true, body, principal } : { ok: false, problem: 'ApiKey: no such key' };
}

/** The body as an object, or what is wrong with it. */
function bodyOf(value: unknown): Record<string, unknown> | string {
  if (value === undefined || value === null || value === '') return {};
  let body = value;
  if (typeof value === 'string') {
    try {
      body = JSON.parse(value);
    } catch {
      return 'the body is not JSON';
    }
  }
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : 'the body is not a JSON object';
}

/** Property names match without case, as the API's (CONTRACT 1); the View's own are the View's to match. */
function canonical(body: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const name = names.find((known) => known.toLowerCase() === key.toLowerCase()) ?? key;
    if (!Object.hasOwn(named, name) || name === key) named[name] = value;
  }
  return named;
}

/**
 * A domain refusal of a script's call (what the caller's own request would have been answered 4xx): the
 * call answers its failure result, and the log says why, naming the script's site and condition. A
 * server fault (5xx, or any other error) still fails the script.
 */
export function refused<T>(context: ScriptCallContext, call: string, failure: T) {
  return (error: unknown): T => {
    if (!(error instanceof ApiError) || error.statusCode >= 500) throw error;
    logRefusal(context, call, error.reason ?? error.message);
    return failure;
  };
}

export function logRefusal(context: ScriptCallContext, call: string, reason: string): void {
  logger.warn('server script call refused', { ...context.where, call, reason });
}

/** A site or record id as the script passed it (a number: the prelude made it one). */
export const idOf = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/** Read on the site itself (its records' own rows aside). */
export async function canRead(principal: Principal, site: Site): Promise<boolean> {
  return ((await sitePermission(principal, site)) & Permission.Read) !== 0;
}
