import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** TRUST_PROXY as the settings hold it (config.ts): as Express's `trust proxy` takes it. */
export type TrustProxy = boolean | number | string;

/** The ranges Express's `trust proxy` knows by name. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Where a request comes from, read as Express reads `req.ip` under the same `trust proxy`
 * setting — for the banner's loads, which are answered before Express (bannerFastPath). Walking
 * back from the connection through `X-Forwarded-For`, each hop the setting trusts hands on to
 * the one it names; the first untrusted one (or the farthest named) is the client.
 */
export function requestAddress(trust: TrustProxy = false): (request: IncomingMessage) => string {
  if (trust === false || trust === 0) return (request) => request.socket.remoteAddress ?? '';
  const trusts = trustRule(trust);
  return (request) => {
    let address = request.socket.remoteAddress ?? '';
    const header = request.headers['x-forwarded-for'];
    if (!header) return address;
    // As Express parses it: blanks around an entry dropped (spaces only), empty entries skipped.
    const named = (typeof header === 'string' ? header : header.join(','))
      .split(',').map((entry) => entry.replace(/^ +| +$/g, '')).filter(Boolean);
    for (let hop = 0; hop < named.length && trusts(address, hop); hop++) address = named[named.length - 1 - hop]!;
    return address;
  };
}

function trustRule(trust: true | number | string): (address: string, hop: number) => boolean {
  if (trust === true) return () => true;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  const trusted = new BlockList();
  for (const entry of trust.split(',').map((part) => part.trim()).filter(Boolean)) {
    for (const range of NAMED_RANGES[entry] ?? [entry]) addRange(trusted, range);
  }
  return (address) => {
    const version = isIP(address);
    return version !== 0 && trusted.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
}

/** `10.0.0.1`, `10.0.0.0/8` or `10.0.0.0/255.0.0.0` (config.ts has checked each). */
function addRange(list: BlockList, range: string): void {
  const [address = '', mask] = range.split('/');
  const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  if (mask === undefined) return list.addAddress(address, type);
  const bits = mask.includes('.') ? mask.split('.').reduce((sum, octet) => sum + countOnes(Number(octet)), 0) : Number(mask);
  list.addSubnet(address, bits, type);
}

const countOnes = (octet: number) => octet.toString(2).replaceAll('0', '').length;
