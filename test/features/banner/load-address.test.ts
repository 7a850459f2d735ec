import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestAddress, type TrustProxy } from '../../../src/features/banner/load-address.ts';
import { visitorNetwork } from '../../../src/features/banner/visitor-network.ts';

/** The settings TRUST_PROXY takes (config.ts), in each form. */
const SETTINGS: TrustProxy[] = [
  false,
  true,
  1,
  2,
  'loopback',
  'loopback, uniquelocal',
  'linklocal, 203.0.113.0/24, 127.0.0.1',
  '127.0.0.0/255.0.0.0, 198.51.100.7',
  '::ffff:127.0.0.1, 2001:db8::/32',
  '10.0.0.1',
];

/** Hops a proxy chain may name: trusted or not under some setting, of both kinds, and garbage. */
const HOPS = ['127.0.0.1', '10.1.2.3', '172.16.0.9', '192.168.1.1', '169.254.3.4', '203.0.113.9', '198.51.100.7', '::1', 'fd00::5', 'fe80::1', '2001:db8::7', '::ffff:10.1.2.3', 'unknown', '', '  10.1.2.3 ', '\t127.0.0.1'];

/**
 * The banner's loads are answered before Express, so the service reads their address itself; it
 * must read what Express's `req.ip` reads under the same setting (the rate limits go by that).
 */
describe('the address of a banner load', () => {
  const servers: Server[] = [];
  const addressOf = new Map<TrustProxy, (headers: Record<string, string>) => Promise<{ express: string; ours: string }>>();

  beforeAll(async () => {
    for (const setting of SETTINGS) {
      const ours = requestAddress(setting);
      const app = express();
      app.set('trust proxy', setting);
      app.get('/', (req, res) => void res.json({ express: req.ip ?? '', ours: ours(req as IncomingMessage) }));
      const server = createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      addressOf.set(setting, async (headers) => (await fetch(url, { headers })).json() as Promise<{ express: string; ours: string }>);
    }
  });
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  it('is what Express reads as req.ip, for every form of TRUST_PROXY', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SETTINGS), fc.option(fc.array(fc.constantFrom(...HOPS), { maxLength: 5 })), async (setting, chain) => {
        const headers: Record<string, string> = chain === null ? {} : { 'x-forwarded-for': chain.join(', ') };
        const read = await addressOf.get(setting)!(headers);
        expect(read.ours).toBe(read.express);
      }),
      { numRuns: 300 },
    );
  });

  it('believes no X-Forwarded-For unless TRUST_PROXY says so', async () => {
    expect((await addressOf.get(false)!({ 'x-forwarded-for': '203.0.113.9' })).ours).toBe('127.0.0.1');
    expect((await addressOf.get('loopback')!({ 'x-forwarded-for': '203.0.113.9, 10.1.2.3' })).ours).toBe('10.1.2.3');
    expect((await addressOf.get('loopback, uniquelocal')!({ 'x-forwarded-for': '203.0.113.9, 10.1.2.3' })).ours).toBe('203.0.113.9');
  });
});

describe('the visitor a load counts for', () => {
  it('is an IPv4 address whole, an IPv6 address by its /64, however it is written', () => {
    expect(visitorNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(visitorNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(visitorNetwork('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(visitorNetwork('2001:db8:5:6::1')).toBe('2001:db8:5:6::/64');
    expect(visitorNetwork('2001:0DB8:0005:0006:ffff:1:2:3')).toBe('2001:db8:5:6::/64');
    expect(visitorNetwork('2001:db8:5:7::1')).toBe('2001:db8:5:7::/64');
    expect(visitorNetwork('::1')).toBe('0:0:0:0::/64');
    expect(visitorNetwork('1::2:3:4:5:6:7')).toBe('1:0:2:3::/64');
    expect(visitorNetwork('1:2::3:4:5:1.2.3.4')).toBe('1:2:0:3::/64');
    expect(visitorNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('is nobody in particular for what is no IP address (all such loads count as one visitor)', () => {
    for (const address of [undefined, '', 'unknown', '203.0.113.7.1', '::ffff:1.2.3', '2001:db8::g']) expect(visitorNetwork(address)).toBe('');
  });
});
