import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** API keys: `dcs_` and 32 random bytes in base64url. High entropy, so a plain SHA-256 is a safe hash. */

export const KEY_PREFIX_LENGTH = 12;

/** Hashes of recently presented keys: a request needs its key's hash several times (limits, authentication). */
const recent = new Map<string, Buffer>();

export function hashKey(key: string): Buffer {
  let hash = recent.get(key);
  if (!hash) {
    hash = createHash('sha256').update(key, 'utf8').digest();
    if (recent.size >= 1_000) recent.clear();
    recent.set(key, hash);
  }
  return hash;
}

export function generateKey(): { key: string; prefix: string; hash: string } {
  const key = `dcs_${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, KEY_PREFIX_LENGTH), hash: hashKey(key).toString('hex') };
}

/** Compares a presented key with a stored hash in constant time. */
export const matchesHash = (key: string, storedHex: string): boolean => {
  const stored = Buffer.from(storedHex, 'hex');
  const presented = hashKey(key);
  return stored.length === presented.length && timingSafeEqual(stored, presented);
};
