import type { OnboardingScanResult } from '../onboarding/onboarding.contract.ts';
import type { ScanComparison, StorageKeyFound } from './scan-job.contract.ts';

type Result = OnboardingScanResult;

/** What one list has that the other lacks, by key; each list in the order it was found. */
function addedRemoved<T>(newer: T[], older: T[], key: (item: T) => string): { added: T[]; removed: T[] } {
  const newerKeys = new Set(newer.map(key));
  const olderKeys = new Set(older.map(key));
  return {
    added: uniqueBy(newer.filter((item) => !olderKeys.has(key(item))), key),
    removed: uniqueBy(older.filter((item) => !newerKeys.has(key(item))), key),
  };
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)));
}

const STORAGE_KINDS = ['localStorage', 'sessionStorage', 'indexedDB', 'cacheStorage'] as const;

/** Every storage key, database and cache of a result, with its kind (older results may lack the newer kinds). */
const storageOf = (result: Result): StorageKeyFound[] =>
  STORAGE_KINDS.flatMap((storageType) => (result.storage[storageType] ?? []).map(({ name, origin }) => ({ storageType, name, origin })));

/**
 * How a site changed between two scans: cookies by name and domain (a cookie whose expiry or
 * flags changed is the same cookie), storage by kind, name and origin, services by preset id.
 */
export function compareScanResults(newer: Result, older: Result): Omit<ScanComparison, 'scanId' | 'againstId'> {
  return {
    cookies: addedRemoved(newer.storage.cookies, older.storage.cookies, (cookie) => `${cookie.name}\n${cookie.domain}`),
    storage: addedRemoved(storageOf(newer), storageOf(older), (key) => `${key.storageType}\n${key.name}\n${key.origin}`),
    services: addedRemoved(
      newer.availablePresets.map(({ id, name }) => ({ id, name })),
      older.availablePresets.map(({ id, name }) => ({ id, name })),
      (service) => String(service.id),
    ),
  };
}
