import { isIPv4, isIPv6 } from 'node:net';

/**
 * The visitor's address as a consent record keeps it: the network, not the machine — IPv4 to
 * its /24 (`203.0.113.0`), IPv6 to its /48 (`2001:db8:1::`), the usual anonymisation for web
 * analytics under the GDPR. An IPv4 address mapped into IPv6 counts as IPv4.
 */
export function truncatedAddress(address: string | undefined): string {
  if (!address) return '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const v4 = mapped ? mapped[1]! : address;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0`;
  if (!isIPv6(address)) return '';
  return `${expandIPv6(address).slice(0, 3).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::`;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded (a zone id dropped). */
function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((group) => group.toLowerCase());
}
