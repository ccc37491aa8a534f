import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { addressRefusal, type HostAllowList } from './addresses';

/**
 * One outbound HTTP request to a URL a user chose, safely: the name is resolved here and every address it
 * gives is checked before the connection is made (an IP literal is checked as it is), and the address the
 * socket actually connected to is checked again, so neither a name that resolves to a private address
 * nor one that changes between a check and the connection reaches the private network. Redirects are
 * never followed: the answer is the 3xx itself (a redirect would send the body, and a signature, to a
 * place the user did not name, and could point at a private address after the check). The whole exchange
 * is bounded by `timeoutMs` and the answer's body by `maxResponseBytes`.
 */

export interface OutboundRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly allowList: HostAllowList;
}

export interface OutboundResponse {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  /** The headers as they came: names in their own case, each line once (`[name, value, name, value…]`). */
  readonly rawHeaders: readonly string[];
  /** At most `maxResponseBytes` of the body. */
  readonly body: Buffer;
  readonly truncated: boolean;
}

/** The request was not made: a private address, or a URL that is not http(s). Repeating it changes nothing. */
export class RefusedRequestError extends Error {
  override name = 'RefusedRequestError';
}

/** No complete answer within the time allowed. */
export class RequestTimeoutError extends Error {
  override name = 'RequestTimeoutError';
}

export function outboundRequest(request: OutboundRequest): Promise<OutboundResponse> {
  let target: URL;
  try {
    target = new URL(request.url);
  } catch {
    return Promise.reject(new RefusedRequestError(`${request.url} is not a URL`));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return Promise.reject(
      new RefusedRequestError(`${target.protocol} URLs are not requested, only http and https`),
    );
  }
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const refusal = isIP(host) ? addressRefusal(host, host, request.allowList) : undefined;
  if (refusal) return Promise.reject(new RefusedRequestError(refusal));
  const client = target.protocol === 'https:' ? https : http;

  return new Promise((resolve, reject) => {
    const req = client.request(target, {
      method: request.method,
      headers: request.headers,
      agent: agentFor(target.protocol, request.allowList),
      lookup: checkedLookup(host, request.allowList),
    });
    const timer = setTimeout(
      () => req.destroy(new RequestTimeoutError(`no complete answer within ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    req.on('error', fail);
    req.on('socket', (socket: Socket) => {
      const check = () => {
        const address = socket.remoteAddress;
        const refused =
          address === undefined ? 'no remote address' : addressRefusal(host, address, request.allowList);
        if (refused) req.destroy(new RefusedRequestError(refused));
      };
      // A kept-alive socket is connected already (and was checked when it connected).
      if (socket.connecting) socket.once('connect', check);
      else check();
    });
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const finish = () => {
        clearTimeout(timer);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          rawHeaders: response.rawHeaders,
          body: Buffer.concat(chunks),
          truncated,
        });
      };
      response.on('data', (chunk: Buffer) => {
        const room = request.maxResponseBytes - size;
        chunks.push(chunk.subarray(0, Math.max(0, room)));
        size += Math.min(chunk.length, Math.max(0, room));
        if (chunk.length > room) {
          truncated = true;
          // The rest is not read: the socket goes, with what it still had to say.
          response.destroy();
          finish();
        }
      });
      response.on('end', finish);
      response.on('error', fail);
    });
    req.end(request.body);
  });
}

/**
 * dns.lookup, with every address checked: a name with one private address among public ones is refused
 * whole, since the connection may try any of them (Happy Eyeballs asks for all).
 */
function checkedLookup(host: string, allowList: HostAllowList): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      for (const { address } of addresses) {
        const refusal = addressRefusal(host, address, allowList);
        if (refusal) return callback(new RefusedRequestError(refusal), '', 0);
      }
      const [first] = addresses;
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Kept-alive connections save a TLS handshake a delivery, but a socket is shared only by requests under the
 * same allow list: one opened to an allowed private host must not serve a request whose list lacks it.
 */
const agents = new Map<string, http.Agent>();

function agentFor(protocol: string, allowList: HostAllowList): http.Agent {
  const key = `${protocol}${allowList.setting}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxSockets: 64, timeout: 60_000 };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}
