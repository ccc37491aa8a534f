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
export const HTTP_CLIENT = `{
  const HttpError = Error, hasOwn = Object.hasOwn, seal = Object.seal;
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

  // Header names as they came; the lookups ignore case, as HTTP does.
  const ResponseHeaders = {};
  const responseName = (name) => keys(ResponseHeaders).find((key) => key.toLowerCase() === text(name).toLowerCase());
  const clearResponse = () => { for (const key of keys(ResponseHeaders)) delete ResponseHeaders[key]; };
  hidden(ResponseHeaders, 'Item', freeze({
    get: (name) => {
      const key = responseName(name);
      if (key === undefined) throw missing(text(name));
      return ResponseHeaders[key];
    },
  }));
  hidden(ResponseHeaders, 'ContainsKey', (name) => responseName(name) !== undefined);
  hidden(ResponseHeaders, 'Remove', (name) => {
    const key = responseName(name);
    return key !== undefined && delete ResponseHeaders[key];
  });
  hidden(ResponseHeaders, 'Clear', clearResponse);
  defineProperty(ResponseHeaders, 'Count', { get: () => keys(ResponseHeaders).length, enumerable: false });
  defineProperty(ResponseHeaders, 'Keys', { get: () => keys(ResponseHeaders), enumerable: false });

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
      for (const [name, value] of answer.headers) {
        const key = responseName(name) ?? name;
        if (hasOwn(ResponseHeaders, key)) ResponseHeaders[key].push(value);
        else if (!(key in ResponseHeaders)) ResponseHeaders[key] = [value];
      }
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
  define('httpClient', seal(httpClient));
}`;
