import type { AssetCreate, AssetTranslation } from '../embeddings/embedding-asset.contract.ts';
import { type EmbeddingCreate, embeddingCreate, type EmbeddingTranslation } from '../embeddings/embedding.contract.ts';
import { isHttpUrl } from '../../kernel/contract/fields.ts';
import type { CatalogCookie, CatalogEntry } from '../catalog/catalog.ts';

/** Catalog services → embedding payloads, as onboarding creates them. */

const GERMAN_UNITS: Record<string, [string, string]> = {
  second: ['Sekunde', 'Sekunden'],
  minute: ['Minute', 'Minuten'],
  hour: ['Stunde', 'Stunden'],
  day: ['Tag', 'Tage'],
  week: ['Woche', 'Wochen'],
  month: ['Monat', 'Monate'],
  year: ['Jahr', 'Jahre'],
};

/** "2 years" → "2 Jahre", "session" → "Sitzung"; anything else stays as it is. */
function germanLifetime(lifetime: string): string {
  if (lifetime === 'session') return 'Sitzung';
  if (lifetime === 'persistent') return 'dauerhaft';
  const match = /^(\d+) (second|minute|hour|day|week|month|year)s?$/.exec(lifetime);
  if (!match) return lifetime;
  const [singular, plural] = GERMAN_UNITS[match[2]!]!;
  return `${match[1]} ${match[1] === '1' ? singular : plural}`;
}

export function assetFromCatalog(cookie: CatalogCookie): AssetCreate {
  const translations: Record<string, AssetTranslation> = {};
  for (const [locale, description] of Object.entries(cookie.description)) {
    if (description === undefined) continue;
    translations[locale] = { description, lifetime: locale.startsWith('de') ? germanLifetime(cookie.lifetime) : cookie.lifetime };
  }
  return {
    name: cookie.name,
    dynamic: cookie.wildcard,
    storageType: cookie.storageType ?? 'cookie',
    lifetime: cookie.lifetime,
    description: cookie.description.en_US ?? '',
    translations,
  };
}

/** The embedding for a catalog service with the given cookies; checked against the contract. */
export function embeddingFromCatalog(entry: CatalogEntry, cookies: CatalogCookie[], active: boolean): EmbeddingCreate {
  const translations: Record<string, EmbeddingTranslation> = {};
  for (const [locale, texts] of Object.entries(entry.translations)) {
    translations[locale] = { name: texts.name, description: texts.description };
  }
  const candidate: EmbeddingCreate = {
    name: entry.name.slice(0, 255),
    active,
    purpose: entry.purpose,
    vendor: entry.vendor,
    description: entry.translations.en_US?.description ?? '',
    privacyPolicyUrl: isHttpUrl(entry.privacyPolicyUrl) ? entry.privacyPolicyUrl : '',
    scriptMarkers: entry.signals.scripts,
    iframeMarkers: entry.signals.iframes,
    translations,
    // The Consent Mode types the service's tags read, so the banner grants them with the service.
    googleConsentMode: [...entry.googleConsentMode],
    assets: cookies.map(assetFromCatalog),
  };
  return embeddingCreate.parse(candidate);
}
