import { BlockList } from 'node:net';

/**
 * Addresses that belong to no country (IANA's special-purpose registries: private, loopback,
 * link-local, shared, documentation, benchmarking, multicast, reserved). Asked before the
 * database: the shipped data places some of them in a country (192.168.0.0/16, 172.16.0.0/12
 * and the IPv4 documentation ranges in AU, 2001:db8::/32 in JP).
 */
const SPECIAL = new BlockList();
for (const [address, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) SPECIAL.addSubnet(address, bits, 'ipv4');
for (const [address, bits] of [
  ['::', 127], ['fc00::', 7], ['fe80::', 10], ['2001:db8::', 32], ['ff00::', 8], ['100::', 64],
] as const) SPECIAL.addSubnet(address, bits, 'ipv6');

/** Whether `address` (of IP version `version`) is in no country by definition. */
export const isSpecialAddress = (address: string, version: 4 | 6): boolean => SPECIAL.check(address, version === 4 ? 'ipv4' : 'ipv6');
