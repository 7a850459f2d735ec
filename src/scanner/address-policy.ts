import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Which network addresses a scan may reach. A scan opens whatever address an operator types,
 * and whatever that site redirects to or loads, so without this a scan could be pointed at the
 * service's own network: loopback, private ranges, link-local (cloud metadata at
 * 169.254.169.254) and other non-public ranges are refused.
 */

const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form (::a.b.c.d)
  ['fc00::', 7], // unique local (also AWS metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still private)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d or NAT64 64:ff9b::a.b.c.d), if any. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = Number.parseInt(match[2]!, 16);
  const low = Number.parseInt(match[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return isPublicAddress(v4);
    return !nonPublic.check(address, 'ipv6');
  }
  return !nonPublic.check(address, 'ipv4');
}

/** Where a connection to `host:port` may go, or why it may not (`unresolvable`: no such host). */
export type EgressDecision = { address: string; port: number } | { refused: string; unresolvable?: boolean };

/** Decides, for each connection the browser wants to open, whether and where it may go. */
export type EgressPolicy = (host: string, port: number) => Promise<EgressDecision>;

/**
 * Resolves the host once (the connection then goes to exactly that address, so a second,
 * different DNS answer cannot slip through) and refuses non-public addresses unless
 * `allowPrivate` (tests and local development only).
 */
export function dnsEgressPolicy({ allowPrivate }: { allowPrivate: boolean }): EgressPolicy {
  return async (host, port) => {
    const bare = host.replace(/^\[|\]$/g, '');
    let address = bare;
    if (isIP(bare) === 0) {
      try {
        address = (await lookup(bare, { verbatim: true })).address;
      } catch {
        return { refused: `${host} does not resolve`, unresolvable: true };
      }
    }
    if (!allowPrivate && !isPublicAddress(address)) {
      return { refused: `${host} is a non-public address (${address})` };
    }
    return { address, port };
  };
}
