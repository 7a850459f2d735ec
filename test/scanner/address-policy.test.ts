import { describe, expect, it } from 'vitest';
import { dnsEgressPolicy, isPublicAddress } from '../../src/scanner/address-policy.ts';

/** Which addresses a scan may reach: public ones only, however an address is written. */
describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.254', '192.168.178.1', '169.254.169.254',
    '100.64.0.1', '0.0.0.0', '224.0.0.251', '255.255.255.255', '192.0.2.10', '198.18.0.1', '192.88.99.1',
    '::', '::1', '::127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1',
    'fc00::1', 'fd00:ec2::254', 'fe80::1', 'fec0::1', 'ff02::1', '2001:db8::1', 'not-an-address', '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    // local-use NAT64 (RFC 8215), whatever IPv4 address it carries
    '64:ff9b:1::808:808', '64:ff9b:1:abcd::1',
    // Teredo: the IPv4 address it leads to is obfuscated
    '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    // 6to4 of a non-public IPv4 address (2002:a.b.c.d::/48)
    '2002:7f00:1::1', '2002:c0a8:101::', '2002:a9fe:a9fe:1::1',
    // IPv4-mapped and IPv4-translated, written in every way
    '0:0:0:0:0:ffff:7f00:1', '0::FFFF:7F00:1', '::ffff:0:7f00:1', '::ffff:0:127.0.0.1', '::ffff:0:a9fe:a9fe', '0:0:0:0:ffff:0:a00:1',
    // NAT64 written out
    '64:ff9b:0:0:0:0:a00:1',
    // an address scoped to an interface of this machine
    'fe80::1%eth0',
  ])('refuses %s, an IPv6 address of a non-public network or one that leads to one', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808',
    // 6to4 and IPv4-translated forms of a public IPv4 address are as public as it is
    '2002:808:808::1', '::ffff:0:808:808',
    // next to Teredo, not in it
    '2001:4860:4860::8888', '2001:67c:2e8::1',
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('dnsEgressPolicy', () => {
  it('refuses a host that resolves to a non-public address without saying which, and logs the address', async () => {
    const logged: { host: string; address: string }[] = [];
    const decision = await dnsEgressPolicy({ allowPrivate: false, logRefusal: (detail) => logged.push(detail) })('localhost', 80);
    expect(decision).toEqual({ refused: 'localhost is not a public address' });
    expect(logged).toEqual([{ host: 'localhost', address: expect.stringMatching(/^(?:127\.0\.0\.1|::1)$/) }]);
  });

  it('lets a non-public address through with allowPrivate, logging nothing', async () => {
    const logged: unknown[] = [];
    const decision = await dnsEgressPolicy({ allowPrivate: true, logRefusal: (detail) => logged.push(detail) })('127.0.0.1', 8080);
    expect(decision).toEqual({ address: '127.0.0.1', port: 8080 });
    expect(logged).toEqual([]);
  });
});
