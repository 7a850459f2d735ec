import { isIPv4, isIPv6 } from 'node:net';

/**
 * The visitor an address stands for when banner loads are counted: an IPv4 address whole (mapped
 * into IPv6 too), an IPv6 address by its /64 — one subscriber's network, in which a host takes any
 * address it likes — written one way only (`2001:db8:5:6::/64`). '' when it is no IP address.
 */
export function visitorNetwork(address: string | undefined): string {
  if (!address) return '';
  if (!address.includes(':')) return isIPv4(address) ? address : '';
  if (/^::ffff:/i.test(address) && address.includes('.')) return isIPv4(address.slice(7)) ? address.slice(7) : '';
  if (!isIPv6(address)) return '';
  const groups = firstFourGroups(address.split('%')[0]!);
  return `${groups.map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}

/** The first four 16-bit groups of a valid IPv6 address, `::` filled in. */
function firstFourGroups(address: string): string[] {
  const gap = address.indexOf('::');
  if (gap === -1) return address.split(':').slice(0, 4);
  const head = gap === 0 ? [] : address.slice(0, gap).split(':');
  if (head.length >= 4) return head.slice(0, 4);
  const tail = address.slice(gap + 2) === '' ? [] : address.slice(gap + 2).split(':');
  // An IPv4 address at the end fills two groups.
  const tailGroups = tail.length + (tail.at(-1)?.includes('.') ? 1 : 0);
  const groups = [...head, ...Array<string>(8 - head.length - tailGroups).fill('0'), ...tail];
  return groups.slice(0, 4);
}
