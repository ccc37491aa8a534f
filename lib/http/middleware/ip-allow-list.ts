import { BlockList, isIP } from 'node:net';
import { type Settings, settings } from '../../config/settings';
import { InvalidIpAddressError } from '../../errors';
import type { ApiMiddleware } from '../event';

/**
 * Security.AllowIpAddresses: an empty list allows everyone. The caller's address is the one API Gateway
 * saw (requestContext.http.sourceIp), never a client-supplied X-Forwarded-For.
 */
export function ipAllowList(): ApiMiddleware {
  const ipAllowListBefore: ApiMiddleware['before'] = (request) => {
    const allowed = allowListOf(settings());
    if (!allowed) return;
    const source = normalize(request.event.requestContext.http.sourceIp);
    const family = isIP(source);
    if (family === 0 || !allowed.check(source, family === 4 ? 'ipv4' : 'ipv6')) {
      throw new InvalidIpAddressError(`source ${source} is not in Security.AllowIpAddresses`);
    }
  };
  return { before: ipAllowListBefore };
}

const compiled = new WeakMap<Settings, BlockList | null>();

/** The list compiled once per settings object; null when it allows everyone. */
function allowListOf(current: Settings): BlockList | null {
  let list = compiled.get(current);
  if (list === undefined) {
    list = compile(current.Security.AllowIpAddresses);
    compiled.set(current, list);
  }
  return list;
}

function compile(entries: readonly string[]): BlockList | null {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

/** An IPv4 caller seen through an IPv6 socket (`::ffff:127.0.0.1`) is matched as IPv4. */
function normalize(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}
