import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { MikroORM } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from '../../db/change-feed.ts';
import type { AppServices } from '../../kernel/context.ts';
import { buildBannerConfig } from './banner-config.build.ts';
import type { DisplayCounter } from './display-counter.ts';
import { type PublishedConfiguration, readPublishedConfiguration } from './published-configuration.ts';
import { appScript, type BannerBundles, loadBannerBundles } from './runtime-bundle.ts';

/** A body ready to send: its bytes, gzipped, and its strong validator. */
export type Asset = { body: Buffer; gzip: Buffer; etag: string };

export const asset = (text: string): Asset => {
  const body = Buffer.from(text);
  return { body, gzip: gzipSync(body, { level: 9 }), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
};

/** What `app.js` answers for one domain and locale. */
export type BannerScript = Asset & { clientId: string; domainId: string; cacheable: boolean };

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
  counter: DisplayCounter;
  close(): Promise<void>;
};

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
      const config = buildBannerConfig(published, locale || null, `${options.publicBaseUrl}/consent`);
      const idle = !published.domain.frontendWidgetEnabled || config.categories.length === 0;
      const text = idle ? IDLE_SCRIPT : appScript(await loadBundles(), config, `${options.publicBaseUrl}${(await runtime()).path}`);
      script = { ...asset(text), clientId: published.clientId, domainId, cacheable: published.domain.frontendWidgetCache };
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
    counter: options.counter,
    async close() {
      unsubscribe();
      await options.counter.close();
    },
  };
}
