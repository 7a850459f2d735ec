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
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated): whichever relay is nearest, often the operator's own
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
  ['64:ff9b:1::', 48], // local-use NAT64: translates to whatever IPv4 network the operator's translator serves
  ['2001::', 32], // Teredo: tunnels to an IPv4 address it carries only obfuscated
  ['fc00::', 7], // unique local (also AWS metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still private)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address, however it is written. */
function ipv6Groups(address: string): number[] {
  // The URL parser writes every form (dotted tail, zeros, case) one way: lowercase, `::` for the longest zero run.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const before = groups(head);
  const after = tail === undefined ? [] : groups(tail);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * The IPv4 address a connection to an IPv6 address reaches, for the forms that carry one in the
 * clear: IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d)
 * and 6to4 (2002:aabb:ccdd::/48, through a public relay to a.b.c.d). Such an address is as public
 * as the IPv4 address it leads to, no more.
 */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4Of(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return ipv4Of(g[1]!, g[2]!);
  return undefined;
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // A zone (`fe80::1%eth0`) scopes an address to one of this machine's interfaces: local by definition.
    if (address.includes('%')) return false;
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

/** Hears the detail of a refusal that its answer leaves out: the address the host resolved to. */
export type RefusalLog = (detail: { host: string; address: string }) => void;

/**
 * Resolves the host once (the connection then goes to exactly that address, so a second,
 * different DNS answer cannot slip through) and refuses non-public addresses unless
 * `allowPrivate` (tests and local development only). The refusal does not say which address
 * the host resolved to, since it reaches whoever asked for the scan and would map the service's
 * own network for them; `logRefusal` hears it.
 */
export function dnsEgressPolicy({ allowPrivate, logRefusal }: { allowPrivate: boolean; logRefusal?: RefusalLog }): EgressPolicy {
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
      logRefusal?.({ host, address });
      return { refused: `${host} is not a public address` };
    }
    return { address, port };
  };
}
