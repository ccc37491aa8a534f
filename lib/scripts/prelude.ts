import { HTTP_CLIENT } from './globals/http-client';
import { ITEM_READS } from './globals/item-reads';
import { ITEM_WRITES } from './globals/item-writes';
import { LOGS } from './globals/logs';
import { NOTIFICATIONS } from './globals/notifications';
import { PEOPLE } from './globals/people';
import { SITE_SETTINGS } from './globals/site-settings';
import { UTILITIES } from './globals/utilities';
import { DATE_FIELDS } from './model-dates';

/**
 * The parts of the prelude that build the other globals, one file each under lib/scripts/globals/: code
 * run in the prelude's scope, which adds members with `member(global, name, fn)`, makes host calls with
 * `call(name, ...args)`, and may define a global of its own with `define`.
 */
const GLOBALS = [
  ITEM_READS,
  ITEM_WRITES,
  NOTIFICATIONS,
  PEOPLE,
  HTTP_CLIENT,
  LOGS,
  UTILITIES,
  SITE_SETTINGS,
].join('\n');

/**
 * The script's globals, built inside the sandbox before any script runs (CONTRACT sections 8 and 13,
 * reference/pleasanter-script-objects.md): `model`, `saved`, `context`, `siteSettings` here, `items`,
 * `notifications` and the others from GLOBALS, with the reference's names. What the host needs back is
 * kept in this closure, out of the scripts' reach, and read through `__kirokuResult`, which uses the JSON
 * functions captured here, not ones a script may have replaced.
 *
 * `host` holds the host functions (primitives in and out, objects as JSON text); `data` is the JSON of
 * {model, saved, siteSettings, userData, context, notifications}.
 */
export const PRELUDE = `(function (host, data) {
  'use strict';
  const parse = JSON.parse, stringify = JSON.stringify, freeze = Object.freeze, keys = Object.keys;
  const defineProperty = Object.defineProperty, isArray = Array.isArray;
  const state = parse(data);
  // A BigInt has no JSON, NaN's and an invalid Date's is null (which empties a column); marked, each
  // reaches the host's type check instead.
  const replacer = function (key, value) {
    if (typeof value === 'bigint') return { BigInt: String(value) };
    if (typeof value === 'number' && !Number.isFinite(value)) return { NotFinite: String(value) };
    const raw = this[key];
    return raw instanceof Date && raw.getTime() !== raw.getTime() ? { InvalidDate: true } : value;
  };
  const logs = [], responses = [], caught = [], sends = [];
  let error;
  const deepFreeze = (value) => {
    if (value !== null && typeof value === 'object') {
      for (const key of keys(value)) deepFreeze(value[key]);
      freeze(value);
    }
    return value;
  };
  const json = (text) => (text === null || text === undefined ? null : parse(text));
  const define = (name, value) =>
    defineProperty(globalThis, name, { value, writable: false, enumerable: false, configurable: false });
  const text = (value) => (value === undefined || value === null ? '' : String(value));
  // A host call (lib/scripts/host-calls.ts): the arguments cross as JSON text, the answer comes back as
  // JSON text or null. undefined arguments cross as null.
  const call = (name, ...args) => json(host.call(name, stringify(args, replacer)));
  /** Adds a member to a global object that the prelude freezes and defines once every part is in. */
  const members = {};
  const member = (global, name, value) => {
    (members[global] ??= {})[name] = value;
  };
  // What an item read answers becomes an apiModel through this: the part that owns the writes
  // (lib/scripts/globals/item-writes.ts) sets it to add the models' own Create, Update and Delete.
  let apiModel = (value) => value;
  const QueryStrings = freeze({
    Data: (key) => host.data(text(key)),
    Bool: (key) => host.bool(text(key)),
    Int: (key) => host.int(text(key)),
    Long: (key) => host.long(text(key)),
  });
  const AddResponse = (Method, Target, Value, Options) => {
    responses.push({ Method: text(Method), Target, Value, Options });
  };
  // The screen's form: an API call has none (reference 3), so every value is empty.
  const Forms = freeze({ Data: () => '', Bool: () => false, Int: () => 0, Long: () => 0, Exists: () => false });
  // A host list as the reference's scripts use one: a real array, with .NET's Length and Count besides.
  const hostList = (list) => {
    const made = isArray(list) ? [...list] : [];
    defineProperty(made, 'Length', { get: () => made.length });
    defineProperty(made, 'Count', { get: () => made.length });
    return freeze(made);
  };
  const contextFields = {
    ...state.context,
    ServerScript: freeze({ ...state.context.ServerScript }),
    QueryStrings,
    Forms,
    UserData: state.userData,
    Log: (message) => { logs.push(text(message)); },
    Error: (message) => { error = text(message); },
    // The screen's messages, redirect and responses: an API answer keeps its shape (CONTRACT 8).
    AddMessage: () => undefined,
    Redirect: () => undefined,
    AddResponse,
    ResponseSet: (Target, Value, Options) => AddResponse('Set', Target, Value, Options),
  };
  // Read from storage when a script first asks (lib/scripts/calls/context.ts), then kept for the run.
  const asked = (name, make) => {
    let value, known = false;
    const get = () => (known ? value : ((known = true), (value = make())));
    defineProperty(contextFields, name, { get, enumerable: true });
  };
  asked('TenantTitle', () => text(call('context.TenantTitle')));
  asked('Groups', () => hostList(call('context.Groups')));
  const context = freeze(contextFields);
  // The reference's scripts get .NET DateTimes as UTC Dates (lib/scripts/script-model.ts DATE_FIELDS).
  const DATE_FIELDS = ${DATE_FIELDS};
  const withDates = (fields) => {
    for (const key of keys(fields ?? {}))
      if (DATE_FIELDS.test(key) && typeof fields[key] === 'string') fields[key] = new Date(fields[key]);
    return fields;
  };
  define('model', withDates(state.model));
  define('saved', deepFreeze(withDates(state.saved)));
  define('context', context);
${GLOBALS}
  for (const name of keys(members)) define(name, freeze(members[name]));
  define('__kirokuCaught', (caughtError) => {
    caught.push(caughtError instanceof Error ? caughtError.name + ': ' + caughtError.message : text(caughtError));
  });
  define('__kirokuResult', () =>
    stringify({ model: state.model, userData: context.UserData, logs, responses, caught, error, sends }, replacer));
})`;
