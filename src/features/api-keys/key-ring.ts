import type { MikroORM } from '@mikro-orm/postgresql';
import type { Caller } from '../../kernel/context.ts';
import { ApiKeyEntity } from './api-key.entity.ts';
import { hashKey, isPlausibleKey, KEY_PREFIX_LENGTH, matchesHash } from './key-material.ts';

/**
 * Who a presented API key belongs to. The administrator key from the settings is compared in
 * constant time; stored keys are found by their prefix and compared by hash. Answers are kept
 * for a short while, so most requests cost no query; a key revoked or a client deactivated in
 * this process takes effect at once, one revoked elsewhere (another instance) within `cacheMs`.
 */
export type KeyRing = {
  /** The caller the key stands for; `inactive` for a valid key of a client that is not active. */
  authenticate(key: string): Promise<KeyOwner | undefined>;
  /** Drops what is remembered of a key (after revoking it). */
  forget(keyId: string): void;
  /** Drops what is remembered of a client's keys (after deleting or changing the client). */
  forgetClient(clientId: string): void;
};

/** A valid key's owner: a caller, or a client whose keys are refused while it is not active. */
export type KeyOwner = Caller | { kind: 'inactive'; clientId: string };

/** How the administrator key of the settings (ADMIN_API_KEY), which is not stored, is named where a write is attributed. */
export const ADMIN_SETTINGS_KEY_NAME = 'administrator key (ADMIN_API_KEY)';

/** Keys remembered at most (each entry is a few hundred bytes). */
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
  // Kept as bytes: every request with the administrator key compares against it.
  const adminHash = adminApiKey ? Buffer.from(hashKey(adminApiKey)) : undefined;
  const remembered = new Map<string, { owner: KeyOwner; keyId: string; until: number }>();

  return {
    async authenticate(key) {
      if (!isPlausibleKey(key)) return undefined;
      if (adminHash && matchesHash(key, adminHash)) return { kind: 'admin', keyName: ADMIN_SETTINGS_KEY_NAME };
      const fingerprint = hashKey(key).toString('hex');
      const known = remembered.get(fingerprint);
      if (known && known.until > Date.now()) return known.owner;
      const candidates = await orm.em
        .fork()
        .find(ApiKeyEntity, { prefix: key.slice(0, KEY_PREFIX_LENGTH) }, { populate: ['client'] });
      const row = candidates.find((candidate) => matchesHash(key, candidate.hash));
      if (!row) return undefined;
      const client = row.client;
      const owner: KeyOwner = !client
        ? { kind: 'admin', keyId: row.id, keyName: row.name }
        : client.active
          ? { kind: 'client', clientId: client.id, keyId: row.id, keyName: row.name }
          : { kind: 'inactive', clientId: client.id };
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(fingerprint, { owner, keyId: row.id, until: Date.now() + cacheMs });
      return owner;
    },
    forget(keyId) {
      for (const [fingerprint, entry] of remembered) if (entry.keyId === keyId) remembered.delete(fingerprint);
    },
    forgetClient(clientId) {
      for (const [fingerprint, entry] of remembered) {
        if ('clientId' in entry.owner && entry.owner.clientId === clientId) remembered.delete(fingerprint);
      }
    },
  };
}
