import { createRequire } from 'node:module';
import type * as Tldts from 'tldts';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { StorageType } from '../embeddings/embedding-asset.contract.ts';
import type { GoogleConsentMode } from '../embeddings/embedding.contract.ts';
import type { PurposeId } from '../../kernel/contract/fields.ts';
import { builtinPresets } from './builtin.ts';
import { ImportedCookieEntity, ImportedServiceEntity } from './imported.entity.ts';
import type { Preset } from './preset.ts';

/**
 * The catalog the onboarding operations consult: the built-in presets plus what operators
 * imported. It recognises a service by the URL of a script, frame, stylesheet or font, and says
 * whom a cookie or storage key belongs to (`attribute`):
 *
 * - By name, in this order of precedence: a built-in exact name, an imported exact name, a
 *   built-in pattern, an imported pattern; among patterns the most specific (longest fixed part)
 *   wins. An exact name is surer than any pattern, whoever wrote it: `AMP_TOKEN` (Google, an exact
 *   name of the Open Cookie Database) is not Amplitude's `AMP_*`. Names common to many sites, and
 *   names shorter than three fixed characters, never count by name alone.
 * - A name several services declare (`_ga`: Google Analytics 4 and Universal Analytics), or one
 *   that another service sets too (`alsoSetBy`), goes to the one the site shows other evidence of,
 *   else to the first by precedence.
 * - By domain: a cookie set on the registrable domain of a found service's signal hosts, or of a
 *   domain the service declares, belongs to that service (`fr` on `.facebook.com` with Meta Pixel
 *   found), whatever its name, unless several found services own that domain and none lists the
 *   name. A short or common name that exactly one service lists, on a domain of that service,
 *   also counts (Stripe's `m` on `m.stripe.com`).
 */

export type CatalogCookie = {
  name: string;
  wildcard: boolean;
  /** null: imported rows, which do not say where a key is kept, match any storage. */
  storageType: StorageType | null;
  lifetime: string;
  description: Partial<Record<string, string>>;
  /** Other presets whose code sets the same name without listing it (see Preset). */
  alsoSetBy?: readonly number[] | undefined;
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
  /** `beacons`: where the service sends its hits (see Preset), only when it says. */
  signals: { scripts: string[]; iframes: string[]; resources: string[]; beacons?: string[] };
  /** Domains the service declares as its own besides its signal hosts (imported: the file's Domain column). */
  domains: string[];
  /** The Google Consent Mode types the service reads (see Preset); none for imported services, whose files do not say. */
  googleConsentMode: GoogleConsentMode[];
  /** Whether the banner can hold the service back until consent (see `isBlockable`). */
  blockable: boolean;
  source: 'builtin' | 'imported';
};

/** How a name was recognised: by name (`exact`, `wildcard`, `imported`) or by the domain it was set on. */
export type MatchRule = 'exact' | 'wildcard' | 'imported' | 'domain';

export type StorageKeyMatch = { entry: CatalogEntry; cookie: CatalogCookie; rule: MatchRule };

/** A cookie or storage key found on a site; `domain` is a cookie's domain or a storage key's origin (or its host). */
export type FoundKey = { name: string; storageType: StorageType; domain?: string | undefined };

/** Whom a found key belongs to; `cookie` is the catalog's account of it, null when the service does not list the name. */
export type Attribution = { entry: CatalogEntry; cookie: CatalogCookie | null; rule: MatchRule };

/** The kinds of URL a scan reports, and the signal list each is matched against. */
export type UrlKind = 'scripts' | 'iframes' | 'resources';

/**
 * Whether the banner can hold a service back until the visitor consents. It holds a service by its
 * scripts and frames (an embedding's script and iframe markers, made from `signals.scripts` and
 * `signals.iframes`) and clears its cookies on opting out; stylesheets and fonts it cannot hold:
 * the browser requests them as it reads the page. So a service that shows itself only by
 * stylesheets and fonts (resource signals, no script or iframe signals: Google Fonts, Bunny Fonts)
 * is not blockable, and a switch for it in the banner would do nothing. Any other is, services
 * known by their cookies alone included (the banner clears those, and the operator adds markers).
 */
export const isBlockable = (signals: CatalogEntry['signals']): boolean =>
  signals.scripts.length > 0 || signals.iframes.length > 0 || signals.resources.length === 0;

const fromPreset = (preset: Preset): CatalogEntry => {
  const { scripts, iframes, resources = [], beacons } = preset.signals;
  const signals = { scripts, iframes, resources, ...(beacons ? { beacons } : {}) };
  return {
    ...preset,
    cookies: preset.cookies.map((cookie) => ({ ...cookie })),
    signals,
    domains: preset.domains ?? [],
    googleConsentMode: [...(preset.googleConsentMode ?? [])],
    blockable: isBlockable(signals),
    source: 'builtin',
  };
};

/** `_ga_*` → /^_ga_.*$/ */
const patternOf = (name: string) =>
  new RegExp(`^${name.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

/**
 * The registrable domain (eTLD+1, the private part of the public-suffix list counted, as the
 * scanner counts parties) of a host name, a cookie domain (`.facebook.com`) or an origin.
 */
export function registrableDomain(value: string): string | null {
  let host = value.trim().toLowerCase();
  if (host.includes('://')) {
    if (!URL.canParse(host)) return null;
    host = new URL(host).hostname;
  }
  host = host.replace(/^\.+/, '').replace(/\.$/, '');
  if (host === '') return null;
  return publicSuffixList().getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/** The host of a URL signal (`connect.facebook.net/signals/` → `connect.facebook.net`). */
const hostOfSignal = (signal: string) => signal.split('/')[0]!;

/**
 * Whether a `host/path` signal matches a URL's host (or a subdomain of it) and path: a path that
 * starts with the signal's, or with `wholeSegments` one that is it or goes on after a `/`.
 */
function signalMatches(signal: string, hostname: string, pathname: string, wholeSegments = false): boolean {
  const slash = signal.indexOf('/');
  const host = slash === -1 ? signal : signal.slice(0, slash);
  const path = slash === -1 ? '' : signal.slice(slash);
  if (hostname !== host && !hostname.endsWith(`.${host}`)) return false;
  if (!wholeSegments || path === '' || pathname === path) return pathname.startsWith(path);
  return pathname.startsWith(path.endsWith('/') ? path : `${path}/`);
}

type Indexed = { entry: CatalogEntry; cookie: CatalogCookie; pattern: RegExp | null; fixed: number };

/** A service a name may belong to; `declared` false: it sets the name without listing it (`alsoSetBy`). */
type Candidate = { entry: CatalogEntry; cookie: CatalogCookie; rule: MatchRule; declared: boolean };

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

const fixedLength = (cookie: Pick<CatalogCookie, 'name'>) => cookie.name.replaceAll('*', '').length;

/** Whether a catalog name may recognise its service by itself (see COMMON_NAMES). */
function isDistinctive(cookie: Pick<CatalogCookie, 'name' | 'wildcard'>): boolean {
  const fixed = cookie.wildcard ? cookie.name.split('*')[0]! : cookie.name;
  return fixed.length >= MIN_DISTINCTIVE && !COMMON_NAMES.has(cookie.name.toLowerCase());
}

const fits = (indexed: Indexed, name: string, storageType: StorageType) =>
  (indexed.cookie.storageType === null || indexed.cookie.storageType === storageType) &&
  (indexed.pattern ? indexed.pattern.test(name) : indexed.cookie.name === name);

/** The most specific of the matching patterns (they are kept longest fixed part first). */
const mostSpecific = (matching: Indexed[]) => matching.filter((indexed) => indexed.fixed === matching[0]?.fixed);

export class Catalog {
  readonly entries: readonly CatalogEntry[];
  readonly #byId: Map<number, CatalogEntry>;
  readonly #exact = { builtin: new Map<string, Indexed[]>(), imported: new Map<string, Indexed[]>() };
  readonly #patterns = { builtin: [] as Indexed[], imported: [] as Indexed[] };
  /** Every cookie each service lists, distinctive or not, by service id. */
  readonly #listed = new Map<number, Indexed[]>();
  /** The services that own each registrable domain. */
  readonly #byDomain = new Map<string, CatalogEntry[]>();

  constructor(entries: CatalogEntry[]) {
    this.entries = entries;
    this.#byId = new Map(entries.map((entry) => [entry.id, entry]));
    for (const entry of entries) {
      const listed: Indexed[] = [];
      this.#listed.set(entry.id, listed);
      for (const cookie of entry.cookies) {
        const indexed: Indexed = { entry, cookie, pattern: cookie.wildcard ? patternOf(cookie.name) : null, fixed: fixedLength(cookie) };
        listed.push(indexed);
        if (!isDistinctive(cookie)) continue;
        if (cookie.wildcard) this.#patterns[entry.source].push(indexed);
        else {
          const same = this.#exact[entry.source].get(cookie.name) ?? [];
          same.push(indexed);
          this.#exact[entry.source].set(cookie.name, same);
        }
      }
      const { scripts, iframes, resources } = entry.signals;
      const hosts = [...scripts, ...iframes, ...resources].map(hostOfSignal).concat(entry.domains);
      const owned = new Set(hosts.map(registrableDomain).filter((domain) => domain !== null));
      for (const domain of owned) this.#byDomain.set(domain, [...(this.#byDomain.get(domain) ?? []), entry]);
    }
    // Stable: among equally specific patterns the catalog's order decides.
    for (const patterns of Object.values(this.#patterns)) patterns.sort((a, b) => b.fixed - a.fixed);
  }

  byId(id: number): CatalogEntry | undefined {
    return this.#byId.get(id);
  }

  /**
   * Whether a cookie domain, host or origin is the service's own: on the registrable domain of one
   * of its signal hosts or declared domains. Undefined for a service that names no host at all (an
   * imported row without a Domain): nothing can be said of it.
   */
  isOwnDomain(entry: CatalogEntry, domain: string): boolean | undefined {
    const { scripts, iframes, resources } = entry.signals;
    if (scripts.length + iframes.length + resources.length + entry.domains.length === 0) return undefined;
    const registrable = registrableDomain(domain);
    return registrable !== null && (this.#byDomain.get(registrable) ?? []).includes(entry);
  }

  /**
   * The services a name may belong to, by the precedence of the module comment: those that list
   * it in the first tier that has any (built-in exact, imported exact, built-in pattern, imported
   * pattern), then those that set it without listing it.
   */
  #candidates(name: string, storageType: StorageType): Candidate[] {
    const tiers: [() => Indexed[], MatchRule][] = [
      [() => this.#exact.builtin.get(name) ?? [], 'exact'],
      [() => this.#exact.imported.get(name) ?? [], 'imported'],
      [() => mostSpecific(this.#patterns.builtin.filter((p) => fits(p, name, storageType))), 'wildcard'],
      [() => mostSpecific(this.#patterns.imported.filter((p) => fits(p, name, storageType))), 'imported'],
    ];
    for (const [matches, rule] of tiers) {
      const found = matches().filter((indexed) => fits(indexed, name, storageType));
      if (found.length === 0) continue;
      const candidates: Candidate[] = [];
      const add = (entry: CatalogEntry | undefined, cookie: CatalogCookie, declared: boolean) => {
        if (entry && !candidates.some((candidate) => candidate.entry === entry)) candidates.push({ entry, cookie, rule, declared });
      };
      for (const { entry, cookie } of found) add(entry, cookie, true);
      for (const { cookie } of found) for (const id of cookie.alsoSetBy ?? []) add(this.#byId.get(id), cookie, false);
      return candidates;
    }
    return [];
  }

  /** The cookie of a service's list that a name is, distinctive or not. */
  #listedBy(entry: CatalogEntry, key: FoundKey): CatalogCookie | undefined {
    return this.#listed.get(entry.id)?.find((indexed) => fits(indexed, key.name, key.storageType))?.cookie;
  }

  /** The service a cookie or storage key belongs to by its name alone, and by which rule, if any. */
  matchStorageKey(name: string, storageType: StorageType): StorageKeyMatch | undefined {
    const [first] = this.#candidates(name, storageType);
    return first && { entry: first.entry, cookie: first.cookie, rule: first.rule };
  }

  /**
   * Whom each key found on one site belongs to (null: no service), given the services `shown`
   * by other evidence (scripts, frames, stylesheets, fonts). Names count in rounds, surest first,
   * so that each round can lean on what the earlier ones found: names one service alone accounts
   * for; names one service lists and others set too; names several services list; short or
   * common names on a domain of the one service that lists them. Last, a key on a domain of a
   * found service goes to that service.
   */
  attribute(keys: readonly FoundKey[], shown: Iterable<CatalogEntry> = []): (Attribution | null)[] {
    const found = new Set([...shown].map((entry) => entry.id));
    const result: (Attribution | null)[] = keys.map(() => null);
    const byName = keys.map((key) => this.#candidates(key.name, key.storageType));
    const listers = (candidates: Candidate[]) => candidates.filter((candidate) => candidate.declared).length;
    const rounds: ((candidates: Candidate[]) => boolean)[] = [
      (candidates) => candidates.length === 1,
      (candidates) => candidates.length > 1 && listers(candidates) === 1,
      (candidates) => listers(candidates) > 1,
    ];
    for (const inRound of rounds) {
      const picked: number[] = [];
      byName.forEach((candidates, index) => {
        if (!inRound(candidates)) return;
        const pick = candidates.find((candidate) => found.has(candidate.entry.id)) ?? candidates[0]!;
        result[index] = { entry: pick.entry, cookie: pick.cookie, rule: pick.rule };
        picked.push(pick.entry.id);
      });
      for (const id of picked) found.add(id);
    }

    const domains = keys.map((key) => (key.domain ? registrableDomain(key.domain) : null));
    const listing = (owners: readonly CatalogEntry[], key: FoundKey) =>
      owners.flatMap((entry) => {
        const cookie = this.#listedBy(entry, key);
        return cookie ? [{ entry, cookie }] : [];
      });
    const picked: number[] = [];
    keys.forEach((key, index) => {
      const domain = domains[index];
      if (!domain || byName[index]!.length > 0) return;
      const owners = listing(this.#byDomain.get(domain) ?? [], key);
      if (owners.length !== 1) return;
      result[index] = { ...owners[0]!, rule: 'domain' };
      picked.push(owners[0]!.entry.id);
    });
    for (const id of picked) found.add(id);

    keys.forEach((key, index) => {
      const domain = domains[index];
      if (!domain) return;
      const owners = (this.#byDomain.get(domain) ?? []).filter((entry) => found.has(entry.id));
      const current = result[index];
      if (owners.length === 0 || (current && owners.includes(current.entry))) return;
      const [listed] = listing(owners, key);
      if (listed) result[index] = { ...listed, rule: 'domain' };
      else if (owners.length === 1) result[index] = { entry: owners[0]!, cookie: null, rule: 'domain' };
    });
    return result;
  }

  /**
   * Of several services that list the same cookie, the one it belongs to when they are set up
   * together: the first by name precedence (`_ga`: Google Analytics 4), else the first given.
   */
  preferredOf(entries: readonly CatalogEntry[], cookie: Pick<CatalogCookie, 'name' | 'storageType'>): CatalogEntry | undefined {
    const ranked = this.#candidates(cookie.name, cookie.storageType ?? 'cookie').filter((candidate) => candidate.declared);
    return ranked.map((candidate) => candidate.entry).find((entry) => entries.includes(entry)) ?? entries[0];
  }

  /** The services whose signals of that kind match a URL. */
  matchUrl(url: string, kind: UrlKind): CatalogEntry[] {
    if (!URL.canParse(url)) return [];
    const { hostname, pathname } = new URL(url);
    return this.entries.filter((entry) => entry.signals[kind].some((signal) => signalMatches(signal, hostname, pathname)));
  }

  /**
   * The services whose beacon signals match a URL: `host/path` by host (or a subdomain) and a path
   * that is the URL's or starts a segment of it (`facebook.com/tr` matches `/tr/` and `/tr`, not
   * `/track`); a path alone on any host whose path ends with it (`/matomo.php`).
   */
  matchBeacon(url: string): CatalogEntry[] {
    if (!URL.canParse(url)) return [];
    const { hostname, pathname } = new URL(url);
    return this.entries.filter((entry) =>
      (entry.signals.beacons ?? []).some((signal) => (signal.startsWith('/') ? pathname.endsWith(signal) : signalMatches(signal, hostname, pathname, true))),
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

/**
 * The host names in an Open Cookie Database Domain cell (`cookiebot.com (3rd party)`,
 * `.facebook.com`); descriptions such as "Advertiser's website domain" have none.
 */
const hostsIn = (cell: string) => [...cell.toLowerCase().matchAll(/(?:[a-z0-9-]+\.)+[a-z]{2,}/g)].map((match) => match[0]);

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
      signals: { scripts: [], iframes: [], resources: [] },
      domains: [...new Set((cookies.get(service.id) ?? []).flatMap((row) => hostsIn(row.domain)))],
      googleConsentMode: [],
      // Known by its cookies, which the banner clears on opting out.
      blockable: true,
      source: 'imported',
    }),
  );
  return new Catalog([...builtinEntries, ...imported]);
}

/**
 * The public suffix list (tldts, 200 KB of source), loaded at the first use: an idle service,
 * which has not scanned or imported anything yet, does not hold it.
 */
const publicSuffixList = (): typeof Tldts => (tldts ??= createRequire(import.meta.url)('tldts') as typeof Tldts);
let tldts: typeof Tldts | undefined;
