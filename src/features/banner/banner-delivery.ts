import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { MikroORM } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../../db/change-feed.ts';
import type { AppServices } from '../../kernel/context.ts';
import { buildBannerConfig } from './banner-config.build.ts';
import { withinClientFeatures } from './client-features.ts';
import type { TcfCmp } from '../tcf-vendors/tcf-cmp.ts';
import { readVendorList } from './tcf-vendor-list.build.ts';
import type { DisplayCounter } from './display-counter.ts';
import { type PublishedConfiguration, readPublishedConfiguration } from './published-configuration.ts';
import { appScript, type BannerBundles, CHUNK_NAMES, type ChunkName, loadBannerBundles } from './runtime-bundle.ts';

const chunkPath = (name: ChunkName, bundles: BannerBundles) => `/banner/${name}-${bundles.chunks[name].hash}.js`;
import { REGION_PATH, visitorRegion, type VisitorRegion } from './region/visitor-region.ts';

/** A body ready to send: its bytes, gzipped, and its strong validator; `type`: its Content-Type when it is not a script. */
export type Asset = { body: Buffer; gzip: Buffer; etag: string; type?: string };

export const asset = (text: string, type?: string): Asset => {
  const body = Buffer.from(text);
  return { body, gzip: gzipSync(body, { level: 9 }), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`, ...(type && { type }) };
};

/** What `app.js` answers for one domain and locale. */
export type BannerScript = Asset & {
  clientId: string;
  domainId: string;
  cacheable: boolean;
  /** The domain honours Do Not Track and GPC: its app.js varies by `Sec-GPC` (sec-gpc.ts). */
  privacySignals?: boolean;
};

/** What a switched-off banner (or one with nothing to ask) runs: nothing. */
const IDLE_SCRIPT =
  '/* The consent banner is switched off for this domain, or it has nothing to ask: what the snippet held runs. */\n' +
  'window.__ccmGuard && window.__ccmGuard.release();\n';

type DomainEntry = {
  published: PublishedConfiguration;
  /** What the published configuration reads as (a hash of it): a revalidation that reads the same keeps the built scripts. */
  fingerprint: string;
  /** The active locale a script is in ('' for the visitor's language) → the script. */
  scripts: Map<string, BannerScript>;
  /** `lang` exactly as asked ('' for none) → the script it resolved to, so a warm load resolves nothing. */
  asked: Map<string, BannerScript>;
  /** A TCF domain's vendor list (`/banner/vendor-list/<domain>-<hash>.json`), once built; null: the banner has no TCF. */
  vendorList?: Promise<VendorListAsset | null>;
  /** Bytes held, for the cache's bound. */
  size: number;
  /** When the configuration was read (performance.now()). */
  readAt: number;
  /**
   * A change of the domain was announced, or changes may have been missed (resync): the copy
   * is kept only to be served while the database cannot be read (in-process stale-if-error).
   */
  stale: boolean;
};

type VendorListAsset = { path: string; asset: Asset };

/** A script served from a copy the database could not confirm (it was unreachable): shown with that mark. */
export type StaleBannerScript = BannerScript & { stale: true };

export type BannerDelivery = {
  /**
   * The script for `domainId` in `lang` (or the visitor's language); null: no such domain. While
   * the database cannot be read, the last built copy (marked `stale`), if there is one.
   */
  script(domainId: string, lang: string | null): Promise<BannerScript | StaleBannerScript | null>;
  /**
   * The script if it is built, current and asked for in this spelling before: synchronous, for
   * the hot path (undefined: ask `script`). `domainId` must be canonical (lower case).
   */
  cached(domainId: string, lang: string | null): BannerScript | undefined;
  /** The runtime the scripts load, at its content-hashed path. */
  runtime(): Promise<{ path: string; asset: Asset }>;
  /** The on-demand bundle at `path` (`/banner/tcf-<hash>.js`, …), if it is the current one. */
  chunkAt(path: string): Promise<Asset | undefined>;
  /** A TCF domain's vendor list at `path` (VENDOR_LIST_PATH), if it is the domain's current one. */
  vendorListAt(path: string): Promise<Asset | undefined>;
  counter: DisplayCounter;
  /** Whether a visitor is asked at all, for domains that ask only in the EU (`enableOnlyInEu`). */
  region: VisitorRegion;
  /** Counts for the metrics, read when they are scraped. */
  figures: BannerFigures;
  close(): Promise<void>;
};

/** Banner scripts built (a domain's configuration in one locale) and sent (app.js answered with a script, 200 or 304). */
export type BannerFigures = { builds: number; loads: number };

export type BannerDeliveryOptions = {
  orm: MikroORM;
  services: () => AppServices;
  changes: ChangeFeed;
  /**
   * What a domain publishes (null: no such domain); default: its configuration as it now reads.
   * The service gives the newest revision (features/revisions): consent records name the content
   * hash of the configuration the visitor saw, and must find its revision.
   */
  read?: (domainId: string) => Promise<PublishedConfiguration | null>;
  /**
   * The domain's revision round running in this process, if any (features/revisions): a write is
   * answered before its revision is kept, so a banner asked for meanwhile waits for the round,
   * and shows what the write made.
   */
  recording?: (domainId: string) => Promise<void> | undefined;
  counter: DisplayCounter;
  publicBaseUrl: string;
  /** The CMP the TC strings name (id null: none, and no banner carries TCF); default: none. */
  tcfCmp?: TcfCmp;
  /** Default: by the shipped country database, believing no proxy. */
  region?: VisitorRegion;
  /** Bytes of built banners kept in memory (least recently used go first). */
  maxBytes?: number;
  /**
   * A built banner older than this is read again in the background (and kept if it reads the
   * same): the bound on staleness should the change feed miss a change unnoticed. Default 60 s.
   */
  maxAgeMs?: number;
  /** While the database is unreachable, how often a stale copy's domain is read again. Default 1 s. */
  retryReadMs?: number;
  /** performance.now, unless a test moves time. */
  now?: () => number;
};

export const RUNTIME_PREFIX = '/banner/runtime-';
/** The on-demand bundles' paths: `/banner/<name>-<hash>.js`. */
export const CHUNK_PATH = new RegExp(`^/banner/(?:${CHUNK_NAMES.join('|')})-[0-9a-f]{64}\\.js$`);

/** A TCF domain's vendor list: `/banner/vendor-list/<domain id>-<sha256 of its content>.json` (the id in group 1). */
export const VENDOR_LIST_PREFIX = '/banner/vendor-list/';
export const VENDOR_LIST_PATH = /^\/banner\/vendor-list\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-[0-9a-f]{64}\.json$/;

/** Distinct spellings of `lang` remembered per domain: more are resolved on every load (someone is making them up). */
const MAX_ASKED_SPELLINGS = 16;

const fingerprintOf = (json: string) => createHash('sha256').update(json).digest('base64url');

/**
 * Builds each domain's banner once per configuration and keeps it: a warm request sends no
 * SQL. The database announces every committed change of a domain's published configuration, and
 * every revision stored (db/change-feed.ts), in this process and in every other; the domain's
 * copy is then marked stale and the next load reads it again. A build that overlapped a change is
 * answered but kept only as a stale copy, so no stale banner is served while the database answers. Two more guards: a copy older than `maxAgeMs`
 * is read again in the background (a change the feed lost unnoticed shows within that), and while
 * the database cannot be read, the stale copy is served rather than no banner at all.
 */
export function createBannerDelivery(options: BannerDeliveryOptions): BannerDelivery {
  const now = options.now ?? (() => performance.now());
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const retryReadMs = options.retryReadMs ?? 1_000;
  const cache = new LRUCache<string, DomainEntry>({
    maxSize: options.maxBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (entry) => Math.max(1, entry.size),
  });
  const building = new Map<string, Promise<DomainEntry | null>>();
  const figures: BannerFigures = { builds: 0, loads: 0 };
  const read = options.read ?? ((domainId: string) => readPublishedConfiguration(options.orm, options.services(), domainId));
  /**
   * Ids asked for that name no domain: asked again, they cost no query (a flood of made-up ids
   * must not become a flood of statements). The domain's creation is announced like any change.
   */
  const missing = new LRUCache<string, true>({ max: 10_000 });
  /** Bumped by every change of a domain (`*` by a resync): a build that started before one is not kept. */
  const generations = new Map<string, number>();
  let epoch = 0;
  const generationOf = (domainId: string) => `${epoch}.${generations.get(domainId) ?? 0}`;
  /** Since when reads have failed (undefined: the last read worked): stale copies are then served at once. */
  let unreachableSince: number | undefined;
  const lastTried = new Map<string, number>();

  const unsubscribe = options.changes.subscribe({
    changed(domainId) {
      generations.set(domainId, (generations.get(domainId) ?? 0) + 1);
      const entry = cache.peek(domainId);
      if (entry) entry.stale = true;
      missing.delete(domainId);
      building.delete(domainId);
    },
    resync() {
      epoch++;
      generations.clear();
      cache.forEach((entry) => (entry.stale = true));
      missing.clear();
      building.clear();
    },
  });

  let bundles: Promise<BannerBundles> | undefined;
  const loadBundles = () => (bundles ??= loadBannerBundles());
  let runtimeAsset: Promise<{ path: string; asset: Asset }> | undefined;
  const runtime = () =>
    (runtimeAsset ??= loadBundles().then((loaded) => ({ path: `${RUNTIME_PREFIX}${loaded.runtimeHash}.js`, asset: asset(loaded.runtime) })));
  let chunkAssets: Promise<Map<string, Asset>> | undefined;
  const chunks = () =>
    (chunkAssets ??= loadBundles().then((loaded) => new Map(CHUNK_NAMES.map((name) => [chunkPath(name, loaded), asset(loaded.chunks[name].text)]))));
  const chunkUrls = async () => {
    const loaded = await loadBundles();
    return Object.fromEntries(CHUNK_NAMES.map((name) => [name, `${options.publicBaseUrl}${chunkPath(name, loaded)}`])) as Record<ChunkName, string>;
  };

  /** Reads the domain's configuration once for everyone asking meanwhile, and keeps it unless a change overlapped. */
  function readEntry(domainId: string): Promise<DomainEntry | null> {
    let pending = building.get(domainId);
    if (pending) return pending;
    const generation = generationOf(domainId);
    const previous = cache.peek(domainId);
    pending = read(domainId).then(
      (published) => {
        unreachableSince = undefined;
        if (building.get(domainId) === pending) building.delete(domainId);
        const current = generationOf(domainId) === generation;
        if (!published) {
          if (current) {
            missing.set(domainId, true);
            cache.delete(domainId);
          }
          return null;
        }
        const json = JSON.stringify(published);
        const fingerprint = fingerprintOf(json);
        // Read again and unchanged: the scripts built from it still hold.
        const same = previous && previous.fingerprint === fingerprint;
        const entry: DomainEntry = same
          ? { ...previous, readAt: now(), stale: false }
          : { published, fingerprint, scripts: new Map(), asked: new Map(), size: json.length, readAt: now(), stale: false };
        // A read that overlapped a change is answered but kept only as a stale copy: the next load
        // reads again, and should the database be gone by then, this copy still serves.
        if (current) cache.set(domainId, entry);
        else if (cache.peek(domainId)?.stale !== false) cache.set(domainId, { ...entry, stale: true });
        return entry;
      },
      (error: unknown) => {
        if (building.get(domainId) === pending) building.delete(domainId);
        unreachableSince ??= now();
        throw error;
      },
    );
    building.set(domainId, pending);
    if (lastTried.size >= 10_000) lastTried.clear();
    lastTried.set(domainId, now());
    return pending;
  }

  /**
   * Reads again in the background, unless a read is under way or was tried less than
   * `retryReadMs` ago; a failure leaves the copy as it is.
   */
  const refresh = (domainId: string) => {
    if (building.has(domainId) || now() - (lastTried.get(domainId) ?? -Infinity) < retryReadMs) return;
    readEntry(domainId).catch(() => {});
  };

  async function entryOf(domainId: string): Promise<{ entry: DomainEntry; stale: boolean } | null> {
    // A round that fails (the database went away while it ran) does not fail the banner: the copy, if any, still serves.
    const recording = options.recording?.(domainId);
    if (recording) await recording.catch(() => {});
    const cached = cache.get(domainId);
    if (cached && !cached.stale) {
      if (now() - cached.readAt > maxAgeMs) refresh(domainId);
      return { entry: cached, stale: false };
    }
    if (!cached && missing.has(domainId)) return null;
    if (cached && unreachableSince !== undefined) {
      // The database was unreachable at the last try: serve the copy now, and try again now and then.
      refresh(domainId);
      return { entry: cached, stale: true };
    }
    try {
      const entry = await readEntry(domainId);
      return entry && { entry, stale: false };
    } catch (error) {
      if (cached) return { entry: cached, stale: true };
      throw error;
    }
  }

  /**
   * The domain's vendor list, built once per configuration (a statement or two for a list this
   * process has not parsed yet), if its banner speaks TCF: `tcfEnabled` as the client's switches
   * let it, a list imported, a CMP id.
   */
  function vendorListOf(domainId: string, entry: DomainEntry): Promise<VendorListAsset | null> {
    if (entry.vendorList) return entry.vendorList;
    const shown = withinClientFeatures(entry.published);
    const tcf = shown.tcf;
    if (!tcf || !shown.domain.tcfEnabled || !options.tcfCmp?.id) return (entry.vendorList = Promise.resolve(null));
    const built = readVendorList(options.orm.em.fork(), tcf, shown.locales.map((locale) => locale.name)).then((list) => {
      const text = JSON.stringify(list);
      const made = { path: `${VENDOR_LIST_PREFIX}${domainId}-${createHash('sha256').update(text).digest('hex')}.json`, asset: asset(text, 'application/json; charset=utf-8') };
      entry.size += made.asset.body.length + made.asset.gzip.length;
      if (cache.peek(domainId) === entry) cache.set(domainId, entry);
      return made;
    });
    // A failed read is not kept: the next load tries again.
    built.catch(() => {
      if (entry.vendorList === built) entry.vendorList = undefined;
    });
    return (entry.vendorList = built);
  }

  /** The script of `entry` in `lang`, built now if it is the first load in that locale. */
  async function scriptOf(domainId: string, entry: DomainEntry, lang: string | null): Promise<BannerScript> {
    const askedKey = lang ?? '';
    const known = entry.asked.get(askedKey);
    if (known) return known;
    const { published } = entry;
    const wanted = lang?.replace('-', '_');
    const locale = wanted && published.locales.some((l) => l.name === wanted) ? wanted : '';
    let script = entry.scripts.get(locale);
    if (!script) {
      const vendorList = await vendorListOf(domainId, entry);
      const tcf = vendorList && options.tcfCmp?.id
        ? { cmpId: options.tcfCmp.id, cmpVersion: options.tcfCmp.version, vendorListUrl: `${options.publicBaseUrl}${vendorList.path}` }
        : undefined;
      const config = buildBannerConfig(
        published,
        locale || null,
        `${options.publicBaseUrl}/consent`,
        `${options.publicBaseUrl}${REGION_PATH}`,
        // The script-findings feature's intake (SCRIPT_REPORT_PATH; that feature builds on this one).
        `${options.publicBaseUrl}/script-report`,
        { chunkUrls: await chunkUrls(), publicBaseUrl: options.publicBaseUrl, ...(tcf && { tcf }), ...(options.tcfCmp?.id && { cmpId: options.tcfCmp.id }) },
      );
      // A TCF domain asks for its vendors' purposes even without embeddings.
      const idle = !published.domain.frontendWidgetEnabled || (config.categories.length === 0 && !config.tcf);
      // `frontendWidgetMinifyCode` off: readable code, for debugging (CCM19's meaning).
      const readable = !published.domain.frontendWidgetMinifyCode;
      const text = idle ? IDLE_SCRIPT : appScript(await loadBundles(), config, `${options.publicBaseUrl}${(await runtime()).path}`, readable);
      script = { ...asset(text), clientId: published.clientId, domainId, cacheable: published.domain.frontendWidgetCache, privacySignals: !idle && config.privacySignals === true };
      figures.builds++;
      entry.scripts.set(locale, script);
      entry.size += script.body.length + script.gzip.length;
      // Re-set so the cache accounts for the grown entry (only if it is still the current one).
      if (cache.peek(domainId) === entry) cache.set(domainId, entry);
    }
    if (entry.asked.size < MAX_ASKED_SPELLINGS) entry.asked.set(askedKey, script);
    return script;
  }

  return {
    async script(domainId, lang) {
      const id = domainId.toLowerCase();
      const found = await entryOf(id);
      if (!found) return null;
      const script = await scriptOf(id, found.entry, lang);
      return found.stale ? { ...script, stale: true } : script;
    },
    cached(domainId, lang) {
      const entry = cache.get(domainId);
      if (!entry || entry.stale || options.recording?.(domainId)) return undefined;
      const script = entry.asked.get(lang ?? '');
      if (script && now() - entry.readAt > maxAgeMs) refresh(domainId);
      return script;
    },
    runtime,
    chunkAt: async (path) => (await chunks()).get(path),
    async vendorListAt(path) {
      const domainId = VENDOR_LIST_PATH.exec(path)?.[1];
      if (!domainId) return undefined;
      const found = await entryOf(domainId);
      if (!found) return undefined;
      const list = await vendorListOf(domainId, found.entry);
      // An older list's address (the domain's configuration changed since) is gone, like the app.js that named it.
      return list?.path === path ? list.asset : undefined;
    },
    counter: options.counter,
    region: options.region ?? visitorRegion(),
    figures,
    async close() {
      unsubscribe();
      await options.counter.close();
    },
  };
}
