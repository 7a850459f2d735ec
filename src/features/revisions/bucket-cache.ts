import type { EntityManager } from '@mikro-orm/postgresql';
import { bucketEntriesOf, type BucketEntries } from '../banner/configuration-manifest.ts';
import { bucketsOf } from './revision-store.ts';

/**
 * The entries of a large domain's embedding buckets (banner/configuration-manifest.ts), with their
 * texts (`BucketEntries`) and how many changes the bucket is stored as, kept in the process by the
 * bucket part's hash, so that a revision round after a write reads none from the database: the
 * round that made a bucket keeps it, the next one changes it and keeps the new one. A part is
 * named by the hash of its content, so a kept bucket is what the database holds under that hash,
 * whoever stored it; another process's buckets are read once. The least recently used go first,
 * past MAX_ENTRIES embeddings' entries in all.
 */

const MAX_ENTRIES = 50_000;

/** A bucket as kept: its entries with their texts, and the changes it is stored as since its last whole copy. */
export type KeptBucket = BucketEntries & { depth: number };

const buckets = new Map<string, KeptBucket>();
let entries = 0;

const keyOf = (domainId: string, hash: string) => `${domainId}/${hash}`;

/** Keeps a bucket (its entries as stored under `hash`: sorted by id). */
export function keepBucket(domainId: string, hash: string, bucket: KeptBucket): void {
  const key = keyOf(domainId, hash);
  const old = buckets.get(key);
  if (old) {
    buckets.delete(key);
    entries -= old.entries.length;
  }
  buckets.set(key, bucket);
  entries += bucket.entries.length;
  for (const [oldest, kept] of buckets) {
    if (entries <= MAX_ENTRIES) break;
    buckets.delete(oldest);
    entries -= kept.entries.length;
  }
}

/** Forgets a bucket a round has just replaced: the domain's next rounds build on the one that replaced it. */
export function forgetBucket(domainId: string, hash: string): void {
  const key = keyOf(domainId, hash);
  const kept = buckets.get(key);
  if (!kept) return;
  buckets.delete(key);
  entries -= kept.entries.length;
}

/** The buckets by hash: those kept, the others read in one statement (and kept). */
export async function bucketsByHash(em: EntityManager, domainId: string, hashes: readonly string[]): Promise<Map<string, KeptBucket>> {
  const found = new Map<string, KeptBucket>();
  const missing: string[] = [];
  for (const hash of hashes) {
    const key = keyOf(domainId, hash);
    const kept = buckets.get(key);
    if (kept) {
      // Used again: to the back of the line.
      buckets.delete(key);
      buckets.set(key, kept);
      found.set(hash, kept);
    } else missing.push(hash);
  }
  for (const [hash, { entries, depth }] of await bucketsOf(em, domainId, missing)) {
    const bucket = { ...bucketEntriesOf(entries), depth };
    keepBucket(domainId, hash, bucket);
    found.set(hash, bucket);
  }
  return found;
}

/** Forgets every kept bucket (for tests). */
export function forgetBuckets(): void {
  buckets.clear();
  entries = 0;
}
