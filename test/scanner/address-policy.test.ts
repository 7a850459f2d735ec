import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/scanner/address-policy.ts';

/** Which addresses a scan may reach: public ones only, however an address is written. */
describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.254', '192.168.178.1', '169.254.169.254',
    '100.64.0.1', '0.0.0.0', '224.0.0.251', '255.255.255.255', '192.0.2.10', '198.18.0.1',
    '::', '::1', '::127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1',
    'fc00::1', 'fd00:ec2::254', 'fe80::1', 'fec0::1', 'ff02::1', '2001:db8::1', 'not-an-address', '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});
