import { HTTP_CLIENT } from './globals/http-client';
import { ITEM_READS } from './globals/item-reads';
import { LOGS } from './globals/logs';
import { NOTIFICATIONS } from './globals/notifications';
import { UTILITIES } from './globals/utilities';

/**
 * The parts of the prelude that build the other globals, one file each under lib/scripts/globals/: code
 * run in the prelude's scope, which adds members with `member(global, name, fn)`, makes host calls with
 * `call(name, ...args)`, and may define a global of its own with `define`.
 */
const GLOBALS = [ITEM_READS, NOTIFICATIONS, HTTP_CLIENT, LOGS, UTILITIES].join('\n');

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
  // A BigInt has no JSON; marked, it reaches the host's type check instead of failing the read.
  const replacer = (key, value) => (typeof value === 'bigint' ? { BigInt: String(value) } : value);
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
  const context = freeze({
    ...state.context,
    QueryStrings,
    UserData: state.userData,
    Log: (message) => { logs.push(text(message)); },
    Error: (message) => { error = text(message); },
    AddResponse,
    ResponseSet: (Target, Value, Options) => AddResponse('Set', Target, Value, Options),
  });
  define('model', state.model);
  define('saved', deepFreeze(state.saved));
  define('siteSettings', deepFreeze(state.siteSettings));
  define('context', context);
${GLOBALS}
  for (const name of keys(members)) define(name, freeze(members[name]));
  define('__kirokuCaught', (caughtError) => {
    caught.push(caughtError instanceof Error ? caughtError.name + ': ' + caughtError.message : text(caughtError));
  });
  define('__kirokuResult', () =>
    stringify({ model: state.model, userData: context.UserData, logs, responses, caught, error, sends }, replacer));
})`;
