import type { MikroORM } from '@mikro-orm/postgresql';
import type { Caller } from '../../context.ts';
import { ApiKeyEntity } from './api-key.entity.ts';
import { hashKey, KEY_PREFIX_LENGTH, matchesHash } from './key-material.ts';

/**
 * Who a presented API key belongs to. The administrator key from the settings is compared in
 * constant time; stored keys are found by their prefix and compared by hash. Answers are kept
 * for a short while, so most requests cost no query; a key revoked in this process stops
 * working at once, one revoked elsewhere (another instance) within `cacheMs`.
 */
export type KeyRing = {
  authenticate(key: string): Promise<Caller | undefined>;
  /** Whether the key is known to be valid without asking the database (the administrator key, or recently seen). */
  isKnown(key: string): boolean;
  /** Drops what is remembered of a key (after revoking it). */
  forget(keyId: string): void;
  /** Drops what is remembered of a client's keys (after deleting the client). */
  forgetClient(clientId: string): void;
};

const MAX_REMEMBERED = 10_000;

export function createKeyRing({
  orm,
  adminApiKey,
  cacheMs = 30_000,
}: {
  orm: MikroORM;
  adminApiKey: string | undefined;
  cacheMs?: number;
}): KeyRing {
  const adminHash = adminApiKey ? hashKey(adminApiKey).toString('hex') : undefined;
  const remembered = new Map<string, { caller: Caller; keyId: string; until: number }>();

  return {
    async authenticate(key) {
      if (key.length < KEY_PREFIX_LENGTH || key.length > 512) return undefined;
      if (adminHash && matchesHash(key, adminHash)) return { kind: 'admin' };
      const fingerprint = hashKey(key).toString('hex');
      const known = remembered.get(fingerprint);
      if (known && known.until > Date.now()) return known.caller;
      const candidates = await orm.em.fork().find(ApiKeyEntity, { prefix: key.slice(0, KEY_PREFIX_LENGTH) });
      const row = candidates.find((candidate) => matchesHash(key, candidate.hash));
      if (!row) return undefined;
      const caller: Caller = row.client ? { kind: 'client', clientId: row.client.id } : { kind: 'admin' };
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(fingerprint, { caller, keyId: row.id, until: Date.now() + cacheMs });
      return caller;
    },
    isKnown(key) {
      if (adminHash && matchesHash(key, adminHash)) return true;
      const known = remembered.get(hashKey(key).toString('hex'));
      return known !== undefined && known.until > Date.now();
    },
    forget(keyId) {
      for (const [fingerprint, entry] of remembered) if (entry.keyId === keyId) remembered.delete(fingerprint);
    },
    forgetClient(clientId) {
      for (const [fingerprint, entry] of remembered) {
        if (entry.caller.kind === 'client' && entry.caller.clientId === clientId) remembered.delete(fingerprint);
      }
    },
  };
}
