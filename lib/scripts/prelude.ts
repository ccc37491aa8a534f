/**
 * The script's globals, built inside the sandbox before any script runs (CONTRACT section 8, reference
 * 6.4 and 6.5): `model`, `saved`, `context`, `items`, `siteSettings`, `notifications`, with the reference's
 * names. What the
 * host needs back is kept in this closure, out of the scripts' reach, and read through `__kirokuResult`,
 * which uses the JSON functions captured here, not ones a script may have replaced.
 *
 * `host` holds the host functions (primitives in and out, objects as JSON text); `data` is the JSON of
 * {model, saved, siteSettings, userData, context, notifications}.
 *
 * `notifications` (CONTRACT 13/14, reference/pleasanter-script-objects.md): `New()` a Mail notification,
 * `Get(id)` a copy of the site's (without Token and Disabled; an unknown id fails the script, as the
 * reference's null dereference does), `Send()` keeps a copy of its fields for the host to queue once the
 * run has succeeded.
 */
export const PRELUDE = `(function (host, data) {
  'use strict';
  const parse = JSON.parse, stringify = JSON.stringify, freeze = Object.freeze, keys = Object.keys;
  const defineProperty = Object.defineProperty, isArray = Array.isArray;
  const state = parse(data);
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
  define('items', freeze({
    Get: (id) => json(host.get(Number(id))),
    GetSite: (id) => json(host.getSite(Number(id))),
    GetClosestSite: (name, originId) =>
      json(host.closestSite(text(name), originId === undefined || originId === null ? 0 : Number(originId))),
  }));
  const NOTIFICATION_FIELDS = ['Id', 'Type', 'Prefix', 'Address', 'CcAddress', 'BccAddress', 'Token',
    'MethodType', 'Encoding', 'MediaType', 'Headers', 'UseCustomFormat', 'Format', 'Disabled', 'Title', 'Body'];
  const notification = (fields) => {
    const made = { ...fields };
    defineProperty(made, 'Send', {
      value: () => {
        const copy = {};
        for (const name of NOTIFICATION_FIELDS) if (made[name] !== undefined) copy[name] = made[name];
        sends.push(copy);
        return true;
      },
      enumerable: false,
    });
    return made;
  };
  const siteNotifications = isArray(state.notifications) ? state.notifications : [];
  define('notifications', freeze({
    New: () => notification({ Type: 1 }),
    Get: (id) => {
      const found = siteNotifications.find((entry) => entry.Id === Number(id));
      if (found === undefined) throw new TypeError('notifications.Get: the site has no notification ' + text(id));
      const { Token, Disabled, Subject, Body, ...copied } = found;
      return notification({ ...copied, Title: Subject, Body });
    },
  }));
  define('__kirokuCaught', (caughtError) => {
    caught.push(caughtError instanceof Error ? caughtError.name + ': ' + caughtError.message : text(caughtError));
  });
  // A BigInt has no JSON; marked, it reaches the host's type check instead of failing the read.
  const replacer = (key, value) => (typeof value === 'bigint' ? { BigInt: String(value) } : value);
  define('__kirokuResult', () =>
    stringify({ model: state.model, userData: context.UserData, logs, responses, caught, error, sends }, replacer));
})`;
