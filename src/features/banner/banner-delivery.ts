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
  /** `lang` as asked (an active locale name, or '' for the visitor's language) → the script. */
  scripts: Map<string, BannerScript>;
  /** Bytes held, for the cache's bound. */
  size: number;
};

export type BannerDelivery = {
  /** The script for `domainId` in `lang` (or the visitor's language); null: no such domain. */
  script(domainId: string, lang: string | null): Promise<BannerScript | null>;
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
};

export const RUNTIME_PREFIX = '/banner/runtime-';

/**
 * Builds each domain's banner once per configuration and keeps it: a warm request sends no
 * SQL. The database announces every committed change of a domain's published configuration, and
 * every revision stored (db/change-feed.ts), in this process and in every other, and the domain's
 * entry is dropped at once. A build that overlapped a change is answered but not kept, so no stale banner stays.
 */
export function createBannerDelivery(options: BannerDeliveryOptions): BannerDelivery {
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

  const unsubscribe = options.changes.subscribe({
    changed(domainId) {
      generations.set(domainId, (generations.get(domainId) ?? 0) + 1);
      cache.delete(domainId);
      missing.delete(domainId);
      building.delete(domainId);
    },
    resync() {
      epoch++;
      generations.clear();
      cache.clear();
      missing.clear();
      building.clear();
    },
  });

  let bundles: Promise<BannerBundles> | undefined;
  const loadBundles = () => (bundles ??= loadBannerBundles());
  let runtimeAsset: Promise<{ path: string; asset: Asset }> | undefined;
  const runtime = () =>
    (runtimeAsset ??= loadBundles().then((loaded) => ({ path: `${RUNTIME_PREFIX}${loaded.runtimeHash}.js`, asset: asset(loaded.runtime) })));

  async function entryOf(domainId: string): Promise<DomainEntry | null> {
    const recording = options.recording?.(domainId);
    if (recording) await recording;
    const cached = cache.get(domainId);
    if (cached) return cached;
    if (missing.has(domainId)) return null;
    let pending = building.get(domainId);
    if (!pending) {
      const generation = generationOf(domainId);
      pending = read(domainId).then((published) => {
        if (building.get(domainId) === pending) building.delete(domainId);
        if (!published) {
          if (generationOf(domainId) === generation) missing.set(domainId, true);
          return null;
        }
        const entry: DomainEntry = { published, scripts: new Map(), size: JSON.stringify(published).length };
        if (generationOf(domainId) === generation) cache.set(domainId, entry);
        return entry;
      });
      building.set(domainId, pending);
      pending.catch(() => building.delete(domainId));
    }
    return pending;
  }

  return {
    async script(domainId, lang) {
      const entry = await entryOf(domainId);
      if (!entry) return null;
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
