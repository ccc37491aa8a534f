/**
 * `httpClient` (CONTRACT 13, reference/pleasanter-script-objects.md 5), one per run and mutable: the
 * script sets RequestUri, Content, Encoding, MediaType, RequestHeaders and TimeOut, then calls a verb,
 * which blocks while the host makes the request (lib/scripts/calls/http-client.ts) and answers the body
 * as a string. As in 1.5.3, each call first resets ResponseHeaders, StatusCode, IsSuccess and IsTimeOut; a
 * timeout sets IsTimeOut and answers null; any other failure (a host not allowed, a private address, no
 * connection, a body over the size cap) throws an Error the script may catch. RequestHeaders is the .NET
 * Dictionary (Add throws on a key it has); ResponseHeaders maps a name to its values, read with
 * `.Item.get(name)` (any case) or as a property. A part of the prelude (lib/scripts/prelude.ts).
 */
const FACTORY = `(function (call, text, freeze, defineProperty) {
  'use strict';
  const HttpError = Error, seal = Object.seal;
  const hidden = (target, name, value) =>
    defineProperty(target, name, { value, enumerable: false, writable: false, configurable: true });
  const requestHeaders = new Map();
  const RequestHeaders = {};
  const missing = (key) => new HttpError('The given key \\'' + key + '\\' was not present in the dictionary.');
  hidden(RequestHeaders, 'Add', (key, value) => {
    key = text(key);
    if (requestHeaders.has(key)) throw new HttpError('An item with the same key has already been added. Key: ' + key);
    requestHeaders.set(key, text(value));
  });
  hidden(RequestHeaders, 'Remove', (key) => requestHeaders.delete(text(key)));
  hidden(RequestHeaders, 'Clear', () => requestHeaders.clear());
  hidden(RequestHeaders, 'ContainsKey', (key) => requestHeaders.has(text(key)));
  hidden(RequestHeaders, 'Item', freeze({
    get: (key) => {
      if (!requestHeaders.has(text(key))) throw missing(text(key));
      return requestHeaders.get(text(key));
    },
    set: (key, value) => { requestHeaders.set(text(key), text(value)); },
  }));
  defineProperty(RequestHeaders, 'Count', { get: () => requestHeaders.size, enumerable: false });
  defineProperty(RequestHeaders, 'Keys', { get: () => [...requestHeaders.keys()], enumerable: false });
  freeze(RequestHeaders);

  // Each header by its name in any case (HTTP's), with the name as it came; the same names are also
  // properties, defined rather than assigned, so that a header named __proto__ stays a header.
  const responseHeaders = new Map();
  const ResponseHeaders = {};
  const RESERVED = ['Item', 'ContainsKey', 'Remove', 'Clear', 'Count', 'Keys'];
  const clearResponse = () => {
    for (const { name } of responseHeaders.values()) delete ResponseHeaders[name];
    responseHeaders.clear();
  };
  const addResponse = (name, value) => {
    const known = responseHeaders.get(name.toLowerCase());
    if (known) return void known.values.push(value);
    const values = [value];
    responseHeaders.set(name.toLowerCase(), { name, values });
    if (!RESERVED.includes(name))
      defineProperty(ResponseHeaders, name, { value: values, enumerable: true, writable: true, configurable: true });
  };
  hidden(ResponseHeaders, 'Item', freeze({
    get: (name) => {
      const known = responseHeaders.get(text(name).toLowerCase());
      if (known === undefined) throw missing(text(name));
      return known.values;
    },
  }));
  hidden(ResponseHeaders, 'ContainsKey', (name) => responseHeaders.has(text(name).toLowerCase()));
  hidden(ResponseHeaders, 'Remove', (name) => {
    const known = responseHeaders.get(text(name).toLowerCase());
    if (known === undefined) return false;
    if (!RESERVED.includes(known.name)) delete ResponseHeaders[known.name];
    return responseHeaders.delete(text(name).toLowerCase());
  });
  hidden(ResponseHeaders, 'Clear', clearResponse);
  defineProperty(ResponseHeaders, 'Count', { get: () => responseHeaders.size, enumerable: false });
  defineProperty(ResponseHeaders, 'Keys', {
    get: () => [...responseHeaders.values()].map(({ name }) => name),
    enumerable: false,
  });

  let StatusCode = 0, IsSuccess = false, IsTimeOut = false, TimeOut;
  const httpClient = {
    RequestUri: null,
    Content: null,
    Encoding: 'utf-8',
    MediaType: 'application/json',
  };
  const httpSend = (Method) => {
    clearResponse();
    StatusCode = 0;
    IsSuccess = false;
    IsTimeOut = false;
    const answer = call('httpClient.Send', {
      Method,
      RequestUri: text(httpClient.RequestUri),
      Content: text(httpClient.Content),
      Encoding: text(httpClient.Encoding),
      MediaType: text(httpClient.MediaType),
      Headers: [...requestHeaders.entries()],
      TimeOut: TimeOut === undefined ? null : Number(TimeOut),
    }) ?? {};
    if (answer.timeout) {
      IsTimeOut = true;
      return null;
    }
    if (answer.status !== undefined) {
      StatusCode = answer.status;
      IsSuccess = StatusCode >= 200 && StatusCode <= 299;
      for (const [name, value] of answer.headers) addResponse(text(name), text(value));
    }
    if (answer.error !== undefined) throw new HttpError(answer.error);
    return answer.body;
  };
  defineProperty(httpClient, 'RequestHeaders', { get: () => RequestHeaders, enumerable: true });
  defineProperty(httpClient, 'ResponseHeaders', { get: () => ResponseHeaders, enumerable: true });
  defineProperty(httpClient, 'TimeOut', {
    get: () => (TimeOut === undefined ? call('httpClient.TimeOut') : TimeOut),
    set: (value) => { TimeOut = value; },
    enumerable: true,
  });
  defineProperty(httpClient, 'StatusCode', { get: () => StatusCode, enumerable: true });
  defineProperty(httpClient, 'IsSuccess', { get: () => IsSuccess, enumerable: true });
  defineProperty(httpClient, 'IsTimeOut', { get: () => IsTimeOut, enumerable: true });
  for (const [name, method] of [['Get', 'GET'], ['Post', 'POST'], ['Put', 'PUT'], ['Patch', 'PATCH'], ['Delete', 'DELETE']]) {
    hidden(httpClient, name, () => httpSend(method));
  }
  return seal(httpClient);
})`;

/**
 * Compiled on the script's first use of httpClient, by the eval the prelude holds from before any script
 * ran: most scripts never call out, and compiling the factory would be most of the prelude's time.
 */
export const HTTP_CLIENT = `{
  const compileHttpClient = eval;
  let madeHttpClient;
  defineProperty(globalThis, 'httpClient', {
    get: () => (madeHttpClient ??= compileHttpClient(${JSON.stringify(FACTORY)})(call, text, freeze, defineProperty)),
    enumerable: false,
    configurable: false,
  });
}`;
