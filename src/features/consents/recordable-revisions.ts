import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { buildBannerConfig } from '../banner/banner-config.build.ts';
import { readClientFeatures, withFeaturesOf, withinClientFeatures } from '../banner/client-features.ts';
import { readRevisions } from '../revisions/revision-store.ts';

/**
 * What a consent record may name under one configuration revision of a domain: the services and
 * categories that revision's banner offered, and the sites its pages may be on. Revisions are
 * immutable once stored, so what is read once is kept in the process, by domain and content hash:
 * a warm record costs no statement for its check. A hash no revision of the domain has is not
 * kept (the next record asks again), so a revision stored later by another process is found.
 *
 * As the banner does, the revision is read within its client's feature switches (a switch the
 * administrator turned off takes its settings out: without `canUseConsentSharing` no
 * consent-sharing domain's page is the domain's own). A change of the switches touches the
 * client's domains, which the change feed tells: their kept revisions are read again.
 */

export type RecordableRevision = {
  services: ReadonlySet<string>;
  categories: ReadonlySet<string>;
  /** The domain's host and its `consentSharingDomains`, as this revision's banner uses them (none without `canUseConsentSharing`). */
  site: { host: string; sharingDomains: readonly string[] };
};

/** Revisions kept at most; the least recently used go first. */
const MAX_KEPT = 2_000;

/** The revision's banner, as the check needs it, or null when the domain has no revision of that hash. */
async function readRecordable(em: EntityManager, domainId: string, hash: string): Promise<RecordableRevision | null> {
  const [revision] = await readRevisions(em, domainId, { hash });
  if (!revision) return null;
  const published = withFeaturesOf(await readClientFeatures(em, revision.configuration.clientId), revision.configuration);
  const { categories } = buildBannerConfig(published, null);
  const { domain } = withinClientFeatures(published);
  return {
    services: new Set(categories.flatMap((category) => category.services.map((service) => service.id))),
    categories: new Set(categories.map((category) => category.key)),
    site: { host: domain.name, sharingDomains: domain.consentSharingDomains },
  };
}

export class RecordableRevisions {
  /** Lookups in flight are kept too: a burst of records of one revision reads it once. */
  readonly #kept = new Map<string, Promise<RecordableRevision | null>>();

  constructor(changes?: ChangeFeed) {
    changes?.subscribe({
      changed: (domainId) => {
        for (const key of this.#kept.keys()) if (key.startsWith(`${domainId}/`)) this.#kept.delete(key);
      },
      resync: () => this.#kept.clear(),
    });
  }

  /** The revision `hash` of the domain, or null if the domain has none with that hash (or no such domain). */
  async lookup(em: EntityManager, domainId: string, hash: string): Promise<RecordableRevision | null> {
    const key = `${domainId}/${hash}`;
    const kept = this.#kept.get(key);
    if (kept) {
      // Used again: to the back of the line.
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept;
    }
    const reading = readRecordable(em, domainId, hash);
    this.#kept.set(key, reading);
    for (const oldest of this.#kept.keys()) {
      if (this.#kept.size <= MAX_KEPT) break;
      this.#kept.delete(oldest);
    }
    const found = await reading.catch((error: unknown) => {
      this.#kept.delete(key);
      throw error;
    });
    if (!found && this.#kept.get(key) === reading) this.#kept.delete(key);
    return found;
  }
}
