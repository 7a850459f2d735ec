import { randomBytes } from 'node:crypto';

/**
 * The visitors this process has seen per domain today (UTC): a check in constant time on the
 * banner's hot path. An address is kept only as a hash keyed with this process's random key, so
 * the set holds no address. Bounded: once it holds `max`, it starts over — the database
 * deduplicates too (display-counter.ts), so starting over costs rows sent, not counts.
 */
export type SeenVisitors = {
  /** The UTC day (days since 1970) if this is the visitor's first load of the domain's banner today, else undefined. */
  firstToday(domainId: string, network: string): number | undefined;
};

const DAY_MS = 86_400_000;

export function createSeenVisitors({ now, max }: { now: () => number; max: number }): SeenVisitors {
  const key = randomBytes(8);
  const seeds = [key.readInt32LE(0), key.readInt32LE(4)] as const;
  let day = -1;
  let byDomain = new Map<string, Set<number>>();
  let size = 0;

  return {
    firstToday(domainId, network) {
      const today = Math.floor(now() / DAY_MS);
      if (today !== day || size >= max) {
        day = today;
        byDomain = new Map();
        size = 0;
      }
      let seen = byDomain.get(domainId);
      if (!seen) byDomain.set(domainId, (seen = new Set()));
      const hash = keyedHash(seeds, network);
      if (seen.has(hash)) return undefined;
      seen.add(hash);
      size++;
      return today;
    },
  };
}

/**
 * A 53-bit hash of `text` under a secret seed: two 32-bit multiply-xor lanes. Not a cryptographic
 * hash — nobody outside the process sees it, and a collision only merges two visitors of a day —
 * but a tenth of the cost of one (this runs on every banner load).
 */
function keyedHash([seedA, seedB]: readonly [number, number], text: string): number {
  let a = seedA;
  let b = seedB;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x85ebca6b);
    a ^= a >>> 13;
    b = Math.imul(b ^ code, 0xc2b2ae35);
    b ^= b >>> 16;
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  return (a >>> 0) * 0x200000 + (b >>> 11);
}
