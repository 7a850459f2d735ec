import type { EntityManager } from '@mikro-orm/postgresql';
import type { StorageType } from '../embeddings/embedding-asset.contract.ts';
import type { PurposeId } from '../../kernel/contract/fields.ts';
import { builtinPresets } from './builtin.ts';
import { ImportedCookieEntity, ImportedServiceEntity } from './imported.entity.ts';
import type { Preset } from './preset.ts';

/**
 * The catalog the onboarding operations consult: the built-in presets plus what operators
 * imported. It recognises a service by a cookie or storage key (exact name first, then
 * patterns; built-in before imported; names common to many sites never) and by the URL of a
 * script or frame.
 */

export type CatalogCookie = {
  name: string;
  wildcard: boolean;
  /** null: imported rows, which do not say where a key is kept, match any storage. */
  storageType: StorageType | null;
  lifetime: string;
  description: Partial<Record<string, string>>;
};

export type CatalogEntry = {
  id: number;
  name: string;
  vendor: string;
  purpose: PurposeId;
  category: string;
  privacyPolicyUrl: string;
  translations: Record<string, { name: string; description: string }>;
  cookies: CatalogCookie[];
  signals: Preset['signals'];
  source: 'builtin' | 'imported';
};

/** How a name was recognised. */
export type MatchRule = 'exact' | 'wildcard' | 'imported';

export type StorageKeyMatch = { entry: CatalogEntry; cookie: CatalogCookie; rule: MatchRule };

const fromPreset = (preset: Preset): CatalogEntry => ({
  ...preset,
  cookies: preset.cookies.map((cookie) => ({ ...cookie, description: cookie.description })),
  source: 'builtin',
});

/** `_ga_*` → /^_ga_.*$/ */
const patternOf = (name: string) =>
  new RegExp(`^${name.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

type Indexed = { entry: CatalogEntry; cookie: CatalogCookie; pattern?: RegExp };

/**
 * Names many websites give their own cookies and storage keys (a cart, a CSRF token, a user id):
 * a service that also uses one still lists it among its assets, but finding the name on a site
 * says nothing about which service set it.
 */
const COMMON_NAMES = new Set(
  [
    'cart', 'basket', 'checkout', 'csrftoken', 'csrf_token', 'xsrf-token', '_csrf', 'token', 'session', 'sessionid',
    'session_id', 'sid', 'uid', 'userid', 'user_id', 'id', 'lang', 'language', 'locale', 'localization', 'currency',
    'country', 'region', 'consent', 'cookieconsent', 'player', 'test', 'test_cookie', 'debug', 'theme', 'timezone',
  ],
);

/** Fixed characters a name or pattern needs before it counts as evidence of a service. */
const MIN_DISTINCTIVE = 3;

/** Whether a catalog name may recognise its service (see COMMON_NAMES). */
function isDistinctive(cookie: Pick<CatalogCookie, 'name' | 'wildcard'>): boolean {
  const fixed = cookie.wildcard ? cookie.name.split('*')[0]! : cookie.name;
  return fixed.length >= MIN_DISTINCTIVE && !COMMON_NAMES.has(cookie.name.toLowerCase());
}

export class Catalog {
  readonly entries: readonly CatalogEntry[];
  readonly #byId: Map<number, CatalogEntry>;
  readonly #exact = { builtin: new Map<string, Indexed>(), imported: new Map<string, Indexed>() };
  readonly #patterns = { builtin: [] as Indexed[], imported: [] as Indexed[] };

  constructor(entries: CatalogEntry[]) {
    this.entries = entries;
    this.#byId = new Map(entries.map((entry) => [entry.id, entry]));
    for (const entry of entries) {
      for (const cookie of entry.cookies) {
        if (!isDistinctive(cookie)) continue;
        const indexed: Indexed = { entry, cookie };
        if (cookie.wildcard) this.#patterns[entry.source].push({ ...indexed, pattern: patternOf(cookie.name) });
        else {
          const key = `${cookie.storageType ?? '*'} ${cookie.name}`;
          if (!this.#exact[entry.source].has(key)) this.#exact[entry.source].set(key, indexed);
        }
      }
    }
  }

  byId(id: number): CatalogEntry | undefined {
    return this.#byId.get(id);
  }

  /** The service a cookie or storage key belongs to, and by which rule, if any. */
  matchStorageKey(name: string, storageType: StorageType): StorageKeyMatch | undefined {
    const exact = this.#exact.builtin.get(`${storageType} ${name}`);
    if (exact) return { ...exact, rule: 'exact' };
    const wildcard = this.#patterns.builtin.find((p) => p.cookie.storageType === storageType && p.pattern!.test(name));
    if (wildcard) return { ...wildcard, rule: 'wildcard' };
    const imported = this.#exact.imported.get(`* ${name}`) ?? this.#patterns.imported.find((p) => p.pattern!.test(name));
    if (imported) return { ...imported, rule: 'imported' };
    return undefined;
  }

  /** The services whose script or frame signals match a URL. */
  matchUrl(url: string, kind: 'scripts' | 'iframes'): CatalogEntry[] {
    if (!URL.canParse(url)) return [];
    const { hostname, pathname } = new URL(url);
    return this.entries.filter((entry) =>
      entry.signals[kind].some((signal) => {
        const slash = signal.indexOf('/');
        const host = slash === -1 ? signal : signal.slice(0, slash);
        const path = slash === -1 ? '' : signal.slice(slash);
        return (hostname === host || hostname.endsWith(`.${host}`)) && pathname.startsWith(path);
      }),
    );
  }

  /** Services whose name, vendor or cookie names contain `text` (case-insensitive). */
  search(text: string | undefined): CatalogEntry[] {
    const needle = text?.trim().toLowerCase();
    if (!needle) return [...this.entries];
    return this.entries.filter(
      (entry) =>
        entry.name.toLowerCase().includes(needle) ||
        entry.vendor.toLowerCase().includes(needle) ||
        entry.cookies.some((cookie) => cookie.name.toLowerCase().includes(needle)),
    );
  }
}

const builtinEntries = builtinPresets.map(fromPreset);

/** The built-in presets alone (no database: the CLI's scan). */
export const builtinCatalog = () => new Catalog(builtinEntries);

/** The built-in presets and everything imported so far. */
export async function loadCatalog(em: EntityManager): Promise<Catalog> {
  const services = await em.find(ImportedServiceEntity, {}, { orderBy: { id: 'asc' } });
  if (services.length === 0) return new Catalog(builtinEntries);
  const cookies = Map.groupBy(await em.find(ImportedCookieEntity, {}, { orderBy: { name: 'asc' } }), (row) => row.service.id);
  const imported = services.map(
    (service): CatalogEntry => ({
      id: service.id,
      name: service.platform,
      vendor: service.vendor,
      purpose: service.purpose,
      category: 'imported',
      privacyPolicyUrl: service.privacyPolicyUrl,
      translations: { en_US: { name: service.platform, description: `${service.platform}, recognised from an imported cookie list.` } },
      cookies: (cookies.get(service.id) ?? []).map((row) => ({
        name: row.wildcard ? `${row.name}*` : row.name,
        wildcard: row.wildcard,
        storageType: null,
        lifetime: row.retention,
        description: { en_US: row.description },
      })),
      signals: { scripts: [], iframes: [] },
      source: 'imported',
    }),
  );
  return new Catalog([...builtinEntries, ...imported]);
}
