import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** API keys: `dcs_` and 32 random bytes in base64url. High entropy, so a plain SHA-256 is a safe hash. */

export const KEY_PREFIX_LENGTH = 12;

/** Longer strings are no key: refused without hashing or a lookup (ADMIN_API_KEY is bounded alike). */
const MAX_KEY_LENGTH = 512;

export const isPlausibleKey = (key: string): boolean => key.length >= KEY_PREFIX_LENGTH && key.length <= MAX_KEY_LENGTH;

/**
 * Hashes of recently presented keys (a request needs its key's hash more than once), bounded by
 * bytes: a key is at most MAX_KEY_LENGTH characters, its hash 32 bytes, plus the entry's overhead.
 */
const recent = new LRUCache<string, Buffer>({
  maxSize: 1024 * 1024,
  sizeCalculation: (hash, key) => key.length * 2 + hash.length + 100,
});

export function hashKey(key: string): Buffer {
  let hash = recent.get(key);
  if (!hash) {
    hash = createHash('sha256').update(key, 'utf8').digest();
    if (key.length <= MAX_KEY_LENGTH) recent.set(key, hash);
  }
  return hash;
}

export function generateKey(): { key: string; prefix: string; hash: string } {
  const key = `dcs_${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, KEY_PREFIX_LENGTH), hash: hashKey(key).toString('hex') };
}

/** Compares a presented key with a stored hash (hex, or the digest itself) in constant time. */
export const matchesHash = (key: string, storedHash: string | Buffer): boolean => {
  const stored = typeof storedHash === 'string' ? Buffer.from(storedHash, 'hex') : storedHash;
  const presented = hashKey(key);
  return stored.length === presented.length && timingSafeEqual(stored, presented);
};
