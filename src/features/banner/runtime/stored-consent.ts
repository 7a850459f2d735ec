import type { BannerConfig } from '../banner-config.ts';

/** What the banner reads of a valid stored consent (cookieconsent's CookieValue): the accepted services per category. */
export type StoredConsent = { services: Record<string, string[]> };

/**
 * The consent cookieconsent stores: its cookie (URI-encoded JSON), or its localStorage item
 * (plain JSON with an `expirationTime`). `sessionStorage` is kept in a session cookie
 * (cookieconsent can store only in a cookie or in localStorage).
 */
export function readStoredRecord(consent: BannerConfig['consent']): Record<string, unknown> | null {
  try {
    if (consent.storage === 'localStorage') {
      const record = parse(localStorage.getItem(consent.name));
      return record && Number(record.expirationTime) > Date.now() ? record : null;
    }
    const prefix = `${consent.name}=`;
    const cookie = document.cookie.split(/;\s*/).find((part) => part.startsWith(prefix));
    return cookie ? parse(decodeURIComponent(cookie.slice(prefix.length))) : null;
  } catch {
    return null;
  }
}

const parse = (text: string | null): Record<string, unknown> | null => {
  const value: unknown = text ? JSON.parse(text) : null;
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
};

/** Whether the record predates `consent.resetBefore` (then it is asked for again). */
export function predatesReset(record: Record<string, unknown>, resetBefore: string | null): boolean {
  if (!resetBefore) return false;
  const given = Date.parse(String(record.lastConsentTimestamp ?? record.consentTimestamp));
  return !(given >= Date.parse(resetBefore));
}

/** The stored consent when cookieconsent will honour it and the domain has not reset it; else null. */
export function validStoredConsent(config: BannerConfig): StoredConsent | null {
  const record = readStoredRecord(config.consent);
  if (!record) return null;
  const { categories, services, revision, consentId, consentTimestamp, lastConsentTimestamp } = record;
  const valid =
    Array.isArray(categories) &&
    typeof consentId === 'string' &&
    consentId !== '' &&
    typeof consentTimestamp === 'string' &&
    typeof lastConsentTimestamp === 'string' &&
    revision === config.revision &&
    !predatesReset(record, config.consent.resetBefore);
  if (!valid) return null;
  return { services: services && typeof services === 'object' ? (services as Record<string, string[]>) : {} };
}

/** The services a stored consent accepts, with every service of a read-only category. */
export function acceptedServices(config: BannerConfig, consent: StoredConsent | null): Set<string> {
  const accepted = new Set<string>();
  for (const category of config.categories) {
    const chosen = consent?.services[category.key];
    for (const service of category.services) {
      if (category.readOnly || (Array.isArray(chosen) && chosen.includes(service.id))) accepted.add(service.id);
    }
  }
  return accepted;
}
