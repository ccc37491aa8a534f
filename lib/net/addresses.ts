import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses an outbound request of Kiroku (a notification's delivery, a script's `httpClient`) may
 * connect to: public unicast ones only, unless the caller's allow list names the host or the address. The
 * service runs next to things a stranger must not reach through it (the instance metadata at
 * 169.254.169.254, a VPC's private hosts, the local emulators), and a site manager chooses the URLs.
 */

/**
 * ipaddr.js's name for the range an address lies in (`loopback`, `private`, `linkLocal`, `uniqueLocal`,
 * `carrierGradeNat`, `unspecified`, `multicast`, `reserved`, …): `unicast` for a public address. An
 * IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries, and the
 * deprecated IPv4-compatible form (`::10.0.0.1`, ::/96, which ipaddr.js calls unicast) as reserved.
 */
export function addressRange(address: string): string {
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === 'unicast' && parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).match(IPV4_COMPATIBLE))
    return 'reserved';
  return range;
}
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

/**
 * The allow list of a setting (`Notification.AllowedHosts`, `Script.ServerScriptHttpClientAllowedHosts`):
 * host names (any case), addresses and CIDR ranges, and name patterns (`*.example.com`, `*`). A name that is
 * listed allows every address it resolves to; an address or range allows itself, whatever name led to it.
 * A pattern allows no private address: a name under someone else's domain can be pointed anywhere.
 */
export interface HostAllowList {
  /** The setting the list comes from, named when a request is refused. */
  readonly setting: string;
  /** Whether `host` may connect to `address` when that address is not a public one. */
  allows(host: string, address: string): boolean;
  /**
   * Whether the list names `host` itself: a listed name, a pattern it matches (`*.example.com` matches
   * `a.example.com` and `a.b.example.com`, not `example.com`; `*` matches every host), or an address
   * literal within a listed address or range. For a list that is the only way out (a script's httpClient).
   */
  names(host: string): boolean;
}

export function hostAllowList(entries: readonly string[], setting: string): HostAllowList {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  const inRanges = (address: string) => {
    const parsed = ipaddr.process(address);
    return ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
  };
  for (const entry of entries) {
    const text = unbracketed(entry.trim().toLowerCase());
    if (text === '*' || text.startsWith('*.')) suffixes.push(text.slice(1).replace(/\.$/, ''));
    else if (ipaddr.isValidCIDR(text)) ranges.push(normalizedRange(ipaddr.parseCIDR(text)));
    else if (isIP(text)) {
      const address = ipaddr.process(text);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else names.add(text.replace(/\.$/, ''));
  }
  return {
    setting,
    allows(host, address) {
      return names.has(plainHost(host)) || inRanges(address);
    },
    names(host) {
      const plain = plainHost(host);
      if (isIP(plain)) return inRanges(plain) || suffixes.includes('');
      return names.has(plain) || suffixes.some((suffix) => suffix === '' || plain.endsWith(suffix));
    },
  };
}

/** Whether a request to `host` may connect to `address`, and if not, why. */
export function addressRefusal(host: string, address: string, allowList: HostAllowList): string | undefined {
  const range = addressRange(address);
  if (range === 'unicast' || allowList.allows(host, address)) return undefined;
  return `${host} is ${address}, a ${range} address, which Kiroku does not connect to unless ${allowList.setting} names it`;
}

function plainHost(host: string): string {
  return unbracketed(host.toLowerCase()).replace(/\.$/, '');
}

function unbracketed(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** `::ffff:10.0.0.0/104` is the IPv4 range 10.0.0.0/8. */
function normalizedRange([base, bits]: [ipaddr.IPv4 | ipaddr.IPv6, number]): [
  ipaddr.IPv4 | ipaddr.IPv6,
  number,
] {
  if (base.kind() === 'ipv6' && (base as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(base as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [base, bits];
}
