import type { BrowserContext, HTTPRequest, HTTPResponse, Page, Protocol } from 'puppeteer-core';
import { type PostalAddress, extractAddress } from './address.ts';
import type { EgressPolicy } from './address-policy.ts';
import { BrowserUnavailable, type SharedBrowser } from './browser.ts';
import { type ConsentCheck, createConsentChecker } from './compliance.ts';
import { type RefusedRequest, startEgressGuard } from './egress-guard.ts';
import { type PageLink, legalPageScore, pickLegalPages } from './legal-pages.ts';
import { gateNavigations } from './navigation-gate.ts';
import { type BannerAcceptance, type ExistingBanner, prepareBannerAcceptance } from './existing-banner.ts';
import { createPageQueue, type PageQueue } from './page-choice.ts';
import { createSetterLog, type SetterKind, type SetterLog } from './setters.ts';
import { createTrafficLog, type ScanPhase, type ThirdPartyRequest, type TrafficLog } from './traffic.ts';
import { checkStartAddress, type FoundCookie, foundCookieOf, goToStartPage, NOT_A_PAGE, newTab, pageAddress, READ_TIMEOUT_MS, siteOf, VisitError, waitsEndByOf, within } from './site-visit.ts';

export type { FoundCookie } from './site-visit.ts';
export type { RequestKind, ScanPhase, ThirdPartyRequest } from './traffic.ts';
export type { ExistingBanner } from './existing-banner.ts';

/**
 * The scanner: opens a website in headless Chromium, crawls it breadth-first within its
 * registrable domain (legal pages first), and reports what it found. It knows nothing about
 * the catalog or the database: `scan(url) → findings`.
 */

export type ScanLimits = {
  /**
   * Pages visited at most (a redirect to a page visited already does not count), the start page
   * included. After the start page come its imprint and privacy pages, then the other links of the
   * pages read, grouped by the shape of their address (page-choice.ts): one page of each shape in
   * turn, a shape not visited yet (found one level deeper, say) before a second page of a shape, so
   * that the budget reaches different kinds of pages rather than the start page's first links.
   */
  pageLimit: number;
  /** Time a page's document may take to arrive and be parsed (DOMContentLoaded). */
  navigationTimeoutMs: number;
  /** After DOMContentLoaded, how long a page's `load` is waited for; a page without it by then is read as it is and marked `slow`. */
  loadTimeoutMs: number;
  /**
   * Every page is read as soon as it loaded (its links queued) and again this long after, for what
   * scripts inserted late (scripts, frames, links) and its storage (a fixed wait, as the EDPS Website
   * Evidence Collector does); its tab goes on to the next page meanwhile in a new tab.
   */
  pageWaitMs: number;
  /**
   * Every page stays open after it was read, so that its late tags still fire: the start page for
   * the whole crawl, the others while there is room (`keptOpenLimit`); the scan ends when the page
   * loaded last had this long since its load, and then reads the storage of every page still open
   * (cookies are read for the whole context). The scan's time limit cuts this wait short.
   */
  startPageWaitMs: number;
  /**
   * Pages kept open after they were read, besides the start page and the pages being loaded: when
   * one more would exceed it, the page open longest is read a last time (after its `pageWaitMs`) and
   * closed. With the default limits every page of a scan stays open to its end.
   */
  keptOpenLimit: number;
  /**
   * Extra wait after the last page was read, before the cookies and the storage of the pages still
   * open are read (it runs alongside the rest of the start page's wait).
   */
  graceMs: number;
  /** The whole scan; waits are cut short to end within it, and past it the scan fails with a time-out. */
  totalTimeoutMs: number;
  /** Pages after the start page loaded at once, each in a tab of its own (the start page has a tab of its own too). */
  pageConcurrency: number;
  /**
   * The second pass, behind a consent banner the site already runs (another CMP's): the start
   * page watches for one that `@duckduckgo/autoconsent`'s rules know while the crawl runs; if one
   * showed, once the crawl has been read the banner is accepted (waiting this long at most for
   * that), and what appears only then is read and labelled `after-accept` (AFTER_ACCEPT_PAGES).
   * 0: no second pass.
   */
  existingBannerWaitMs: number;
};

export const DEFAULT_SCAN_LIMITS: ScanLimits = {
  pageLimit: 10,
  navigationTimeoutMs: 15_000,
  loadTimeoutMs: 5_000,
  pageWaitMs: 2_000,
  startPageWaitMs: 5_000,
  keptOpenLimit: 10,
  graceMs: 0,
  totalTimeoutMs: 60_000,
  pageConcurrency: 5,
  existingBannerWaitMs: 6_000,
};

/**
 * What first set a cookie or key, when the scan saw it (setters.ts): the address of the response
 * whose `Set-Cookie` set it, or of the script that wrote it (an inline script: its page's
 * address); null when it was not seen (set before the scan's watch, or by a frame of another
 * process).
 */
type SetBy = { setBy: string | null };

/** A storage key (or IndexedDB database, Cache Storage cache) by name and origin, with the phase it was first seen in. */
export type FoundStorageKey = { name: string; origin: string; phase: ScanPhase } & SetBy;

/** A cookie as found, with the phase it was first seen in. */
export type ScannedCookie = FoundCookie & { phase: ScanPhase } & SetBy;

export type VisitedPage = {
  url: string;
  status: number | null;
  error?: string;
  /** Where the page landed after redirects, when it loaded. */
  landedUrl?: string;
  /** Requests of the page were still open when it was read (what had loaded was taken). */
  slow?: boolean;
};

/**
 * A request of another site that one of the site's own pages makes as the browser reads it, which
 * no consent banner running in the page can hold back:
 *
 * - `iframe`: a frame whose navigation the HTML parser started, that is an `<iframe src>` written in
 *   the page's HTML as served. Chromium starts it as the parser inserts the element, before any
 *   script or observer can act. Frames a script put in (`appendChild`, `innerHTML`,
 *   `document.write`, a `data-src` turned into `src`) are not: a banner can hold those.
 * - `stylesheet`, `font`: stylesheets and font files, which load as they are inserted whoever
 *   inserts them, and which a banner holds neither by marker nor otherwise; except those a script
 *   of another site put in (directly, or through a stylesheet it put in), which wait with that
 *   script when the banner holds it.
 *
 * Another site: another registrable domain than the site's, as for cookies' `party`. Redirects
 * count once, under the address the page asked for.
 */
export type UnblockableLoad = {
  kind: 'iframe' | 'stylesheet' | 'font';
  url: string;
  /** The page of the site whose document asked for it (for a frame, the document it is written in). */
  page: string;
};

export type ScanFindings = {
  url: string;
  pages: VisitedPage[];
  cookies: ScannedCookie[];
  localStorage: FoundStorageKey[];
  sessionStorage: FoundStorageKey[];
  /** IndexedDB databases, by name and origin (frame). */
  indexedDB: FoundStorageKey[];
  /** Cache Storage caches, by name and origin (frame). */
  cacheStorage: FoundStorageKey[];
  /** Sources of every script, frame, stylesheet and font the pages loaded. */
  scripts: string[];
  iframes: string[];
  stylesheets: string[];
  fonts: string[];
  /** What of those no consent banner can hold back, page by page (see UnblockableLoad). */
  unblockable: UnblockableLoad[];
  imprintUrl: string | null;
  privacyPolicyUrl: string | null;
  address: PostalAddress;
  /** Requests the egress guard refused (non-public addresses). */
  refusedRequests: RefusedRequest[];
  /**
   * A consent banner of another CMP that the site runs, as autoconsent's rule names it, and whether
   * the scan's second pass accepted it (what appeared after that is labelled `after-accept`); null
   * when none showed on the start page (or the second pass is off).
   */
  existingBanner: ExistingBanner | null;
  /** Every request to a host of another site, page by page, with its kind, initiator and phase (traffic.ts). */
  requests: ThirdPartyRequest[];
  durationMs: number;
};

/** A scan that failed; `failure`: the site itself (400), a refused address (400) or the crawl (500). */
export class ScanError extends VisitError {
  override readonly name = 'ScanError';
}

type PageContent = {
  links: PageLink[];
  iframes: string[];
  scripts: string[];
  stylesheets: string[];
  text: string;
  jsonLd: string[];
  empty: boolean;
};

/** Runs in the page: what the crawl needs from the main document. */
function readPageContent(): PageContent {
  const body = document.body;
  return {
    links: [...document.querySelectorAll('a[href]')].map((anchor) => {
      const a = anchor as HTMLAnchorElement;
      const label = [a.innerText || a.textContent || '', a.title, a.getAttribute('aria-label') ?? ''];
      return { href: a.href, text: label.map((part) => part.trim()).filter(Boolean).join(' ') };
    }),
    iframes: [...document.querySelectorAll('iframe[src]')].map((frame) => (frame as HTMLIFrameElement).src),
    scripts: [...document.querySelectorAll('script[src]')].map((script) => (script as HTMLScriptElement).src),
    stylesheets: [...document.querySelectorAll('link[rel~="stylesheet" i][href]')].map((link) => (link as HTMLLinkElement).href),
    text: body?.innerText ?? '',
    jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((script) => script.textContent ?? ''),
    empty: !body || (body.innerText.trim() === '' && body.children.length === 0),
  };
}

const STORAGE_KINDS = ['localStorage', 'sessionStorage', 'indexedDB', 'cacheStorage'] as const;
type StorageKind = (typeof STORAGE_KINDS)[number];
type FrameStorage = { origin: string } & Record<StorageKind, string[]>;

/**
 * Runs in each frame: the names in the storage of the frame's origin (Web Storage keys, IndexedDB
 * databases, Cache Storage caches). Whatever the frame may not read, or does not have, is empty.
 */
async function readFrameStorage(): Promise<FrameStorage> {
  const keys = (storage: () => Storage) => {
    try {
      const store = storage();
      return Array.from({ length: store.length }, (_, i) => store.key(i) ?? '');
    } catch {
      return []; // no access: a sandboxed frame, storage switched off
    }
  };
  // A listing that fails or does not answer within a second counts as empty.
  const names = (list: () => Promise<string[]>) =>
    new Promise<string[]>((resolve) => {
      setTimeout(() => resolve([]), 1_000);
      Promise.resolve()
        .then(list)
        .then(resolve, () => resolve([]));
    });
  const databases =
    typeof indexedDB === 'object' && typeof indexedDB.databases === 'function'
      ? await names(async () => (await indexedDB.databases()).flatMap((database) => (database.name ? [database.name] : [])))
      : [];
  // Cache Storage exists in secure contexts only.
  const cacheNames = typeof globalThis.caches === 'object' ? await names(() => globalThis.caches.keys()) : [];
  return {
    origin: location.origin,
    localStorage: keys(() => localStorage),
    sessionStorage: keys(() => sessionStorage),
    indexedDB: databases,
    cacheStorage: cacheNames,
  };
}

export type ScanOptions = {
  /**
   * Called each time a page visit ends (the start page when it has been read first; a later page
   * when it has been read, or failed): `index` counts the visits ended so far (1-based), `limit` is
   * the most pages the scan visits.
   */
  onPage?: (page: VisitedPage, index: number, limit: number) => void;
};

export type Scanner = {
  scan(url: string, options?: ScanOptions): Promise<ScanFindings>;
  /** The compliance scan's three visits (before consent, after "reject all", after "accept all"): compliance.ts. */
  checkConsent(url: string): Promise<ConsentCheck>;
  /**
   * Checks that the browser starts (readiness checks): launches it unless it runs or has started
   * before; one launched only for this closes again when no scan has used it for a while.
   */
  warmUp(): Promise<void>;
  close(): Promise<void>;
};

export function createScanner({
  browser,
  policy,
  limits = DEFAULT_SCAN_LIMITS,
}: {
  browser: SharedBrowser;
  policy: EgressPolicy;
  limits?: ScanLimits;
}): Scanner {
  return {
    async scan(url, options = {}) {
      const started = performance.now();
      const target = new URL(url);
      await checkStartAddress(policy, target, ScanError);

      const guard = await startEgressGuard(policy);
      try {
        return await withTimeout(
          limits.totalTimeoutMs - (performance.now() - started),
          (signal) =>
            browser.withContext(guard.proxyServer, (context) =>
              crawl(context, target, limits, guard.refused, {
                signal,
                // The waits end early enough to leave time for reading cookies and storage at the end.
                waitsEndBy: waitsEndByOf(started, limits.totalTimeoutMs),
                onPage: options.onPage,
              }).then((found) => ({
                ...found,
                durationMs: Math.round(performance.now() - started),
              })),
            ),
          limits.totalTimeoutMs,
        );
      } catch (error) {
        if (error instanceof ScanError) throw error;
        if (error instanceof BrowserUnavailable) {
          throw new ScanError('crawl', `the browser does not start: ${error.message}`, { cause: error });
        }
        // The browser crashed or lost its connection.
        throw new ScanError('crawl', `the browser failed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await guard.close();
      }
    },
    checkConsent: createConsentChecker({ browser, policy, limits }),
    warmUp: () => browser.warmUp(),
    close: () => browser.close(),
  };
}

/** Runs `work`; past `ms` it fails with a time-out (naming `limitMs`) and `signal` tells the work to stop. */
async function withTimeout<T>(ms: number, work: (signal: AbortSignal) => Promise<T>, limitMs: number): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ScanError('crawl', `the scan took longer than ${Math.round(limitMs / 1000)} s and was stopped`));
    }, ms);
  });
  const running = work(controller.signal);
  running.catch(() => {}); // after a time-out its failure no longer matters
  try {
    return await Promise.race([running, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Pages of the budget a second page of a shape may not take while pages being loaded may still
 * link to new shapes: enough to follow a chain of new shapes (category → product) down.
 */
const NEW_SHAPE_RESERVE = 2;

/** What one crawl gathers while its tabs visit pages. */
type Crawl = {
  site: string;
  limits: ScanLimits;
  refused: RefusedRequest[];
  signal: AbortSignal;
  /** `performance.now()` by which every wait ends, and after which no further page is opened. */
  waitsEndBy: number;
  scripts: Set<string>;
  iframes: Set<string>;
  stylesheets: Set<string>;
  fonts: Set<string>;
  /** The frames, stylesheets and fonts requested, with what started each (for `unblockable`), by `kind url page`. */
  loads: Map<string, Load>;
  /** Per kind, by `origin name`. */
  storage: Record<StorageKind, Map<string, FoundStorageKey>>;
  texts: Map<string, { text: string; jsonLd: string[] }>;
  /** The links to pages of the site itself, from every page visited (for the legal pages), by `href text`. */
  allLinks: Map<string, PageLink>;
  /** Visits in the order they started (a visit fills in its entry as it goes). */
  pages: VisitedPage[];
  queue: PageQueue;
  /** Pages being loaded, whose links are not queued yet. */
  loading: number;
  /** Pages read and kept open (not the start page), the one open longest first. */
  open: KeptPage[];
  /** Pages closed to make room, until their last read is done. */
  closing: Promise<void>[];
  /** Addresses queued or visited: each is queued once. */
  seen: Set<string>;
  /** Addresses of the pages visited, as asked for and where they landed: a later visit landing on one of them does not count. */
  visited: Set<string>;
  /** Pages still being read, which may queue more links (the start page until its second read, the tabs' current pages). */
  busy: number;
  /** What each tab's top-level navigations may do (allowNavigation). */
  navigation: WeakMap<Page, TabNavigation>;
  /** The phase of the scan now: what is seen from here on is labelled so. */
  phase: ScanPhase;
  traffic: TrafficLog;
  setters: SetterLog;
  /** The start page's watch for a banner of another CMP (the second pass), unless it is off. */
  banner?: BannerAcceptance;
};

/**
 * A tab's visit as its navigations see it: `asked`, the address it loads (none once the page has
 * loaded: a page kept open stays where it is); `anywhere` for the start page, which may move to
 * another site; `refused`, a redirect's address that was refused because it had been visited.
 */
type TabNavigation = { asked?: string; anywhere?: boolean; refused?: string };

/**
 * Whether a top-level navigation of `tab` to `href` may go on (navigation-gate.ts), decided as it
 * starts: while a visit loads, to the address asked for, or by a redirect to an address not visited
 * yet, which is taken for this visit then and there so no other tab loads it too. A redirect to a
 * page visited or being loaded elsewhere is refused, and the visit does not count.
 */
function allowNavigation(crawl: Crawl, tab: Page, href: string): boolean {
  const navigation = crawl.navigation.get(tab);
  const url = pageAddress(href);
  if (!navigation?.asked || !url) return false;
  if (url !== navigation.asked && !navigation.anywhere && crawl.visited.has(url)) {
    navigation.refused = url;
    return false;
  }
  crawl.visited.add(url);
  crawl.seen.add(url);
  return true;
}

/** A page read and kept open for its late keys; `read`: its second read, `pageWaitMs` after it loaded. */
type KeptPage = { tab: Page; loadedAt: number; read: Promise<void> };

/**
 * A frame, stylesheet or font a page requested, with what started the request (the browser's
 * initiator): the HTML or CSS parser of the document or stylesheet at `from`, or a script, with
 * the addresses of the scripts on its stack.
 */
type Load = {
  kind: UnblockableLoad['kind'];
  url: string;
  page: string;
  by: 'parser' | 'script' | 'other';
  from: string | undefined;
  scripts: string[];
};

/** The script addresses on an initiator's stack, its asynchronous parents' included. */
function stackScripts(stack: Protocol.Runtime.StackTrace | undefined): string[] {
  const scripts: string[] = [];
  for (let trace = stack; trace; trace = trace.parent) for (const frame of trace.callFrames) scripts.push(frame.url);
  return scripts;
}

/** Notes a frame, stylesheet or font request with its initiator, once per kind, address and page. */
function noteLoad(crawl: Crawl, request: HTTPRequest, kind: Load['kind']): void {
  // A redirect's next hop was not asked for by the page: the address it asked for counts.
  if (request.redirectChain().length > 0) return;
  const initiator = request.initiator();
  const frame = request.frame();
  // A frame is written in its parent's document; a stylesheet or font is asked for by its frame's.
  const written = kind === 'iframe' ? (initiator?.type === 'parser' ? initiator.url : frame?.parentFrame()?.url()) : frame?.url();
  const page = written && pageAddress(written);
  if (!page) return;
  const url = request.url();
  const key = `${kind} ${url} ${page}`;
  if (crawl.loads.has(key)) return;
  const by = initiator?.type === 'parser' || initiator?.type === 'script' ? initiator.type : 'other';
  crawl.loads.set(key, { kind, url, page, by, from: initiator?.url, scripts: stackScripts(initiator?.stack) });
}

async function openTab(context: BrowserContext, crawl: Crawl): Promise<Page> {
  const page = await newTab(context, { signal: crawl.signal, navigationTimeoutMs: crawl.limits.navigationTimeoutMs });
  page.on('request', (request) => {
    const type = request.resourceType();
    const url = request.url();
    if (type === 'script') crawl.scripts.add(url);
    else if (type === 'document' && request.frame() && request.frame() !== page.mainFrame()) {
      crawl.iframes.add(url);
      noteLoad(crawl, request, 'iframe');
    }
    // Only what came from somewhere: not data: fonts embedded in a stylesheet.
    else if (!/^https?:/.test(url)) return;
    else if (type === 'stylesheet') {
      crawl.stylesheets.add(url);
      noteLoad(crawl, request, 'stylesheet');
    } else if (type === 'font') {
      crawl.fonts.add(url);
      noteLoad(crawl, request, 'font');
    }
  });
  await gateNavigations(page, (url) => allowNavigation(crawl, page, url));
  await crawl.traffic.watch(page, { site: () => crawl.site, phase: () => crawl.phase });
  await crawl.setters.watch(page);
  return page;
}

/**
 * Of the loads noted, those of another site than `site` that a page of the site asked for and no
 * consent banner can hold back (see UnblockableLoad): frames the HTML parser started; stylesheets
 * and fonts unless a script of another site put them in, directly or through the stylesheets that
 * asked for them (followed up to a document, or a few steps).
 */
function unblockableLoads(loads: Iterable<Load>, site: string): UnblockableLoad[] {
  const all = [...loads];
  const stylesheets = new Map(all.filter((load) => load.kind === 'stylesheet').map((load) => [load.url, load]));
  const otherSite = (address: string) => URL.canParse(address) && siteOf(new URL(address).hostname) !== site;
  const byOtherSitesScript = (load: Load): boolean => {
    for (let step: Load | undefined = load, depth = 0; step && depth < 8; depth++) {
      if (step.by === 'script') return step.scripts.some(otherSite);
      if (step.by !== 'parser' || !step.from) return false;
      step = stylesheets.get(step.from);
    }
    return false;
  };
  return all
    .filter((load) => otherSite(load.url) && !otherSite(load.page))
    .filter((load) => (load.kind === 'iframe' ? load.by === 'parser' : !byOtherSitesScript(load)))
    .map(({ kind, url, page }) => ({ kind, url, page }));
}

/**
 * Waits `ms`, cut short at the end of the scan's waiting time or when the scan is stopped, or
 * until `until` settles if it comes first: true if it did.
 */
function wait(crawl: Crawl, ms: number, until?: Promise<unknown>): Promise<boolean> {
  const { signal } = crawl;
  const limit = Math.min(ms, crawl.waitsEndBy - performance.now());
  return new Promise((resolve) => {
    if (signal.aborted || (limit <= 0 && !until)) return resolve(false);
    const finish = (settled: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      resolve(settled);
    };
    const stop = () => finish(false);
    const timer = setTimeout(stop, Math.max(0, limit));
    signal.addEventListener('abort', stop);
    until?.then(
      () => finish(true),
      () => finish(false),
    );
  });
}

/** Waits for the page's `load` after DOMContentLoaded, for `loadTimeoutMs` at most: true if it came. */
async function waitForLoad(page: Page, crawl: Crawl): Promise<boolean> {
  let loaded!: () => void;
  const load = new Promise<void>((resolve) => (loaded = resolve));
  page.once('load', loaded);
  try {
    const state = await page.evaluate(() => document.readyState).catch(() => undefined);
    if (state === 'complete') return true;
    return await wait(crawl, crawl.limits.loadTimeoutMs, load);
  } finally {
    page.off('load', loaded);
  }
}

/**
 * Reads the page's main document and takes in what it shows: the sources of its scripts, frames
 * and stylesheets, its text (for the imprint), and its same-site links, queued (imprint and
 * privacy pages first). Undefined if the page could not be read.
 */
async function readPage(page: Page, url: string, crawl: Crawl): Promise<PageContent | undefined> {
  const content = await within(READ_TIMEOUT_MS, page.evaluate(readPageContent));
  if (!content) return undefined;
  for (const src of content.scripts) crawl.scripts.add(src);
  for (const src of content.iframes) crawl.iframes.add(src);
  for (const href of content.stylesheets) if (/^https?:/.test(href)) crawl.stylesheets.add(href);
  const text = { text: content.text, jsonLd: content.jsonLd };
  crawl.texts.set(url, text);
  const landed = pageAddress(page.url());
  if (landed) crawl.texts.set(landed, text);

  const legal: { url: string; score: number }[] = [];
  for (const link of content.links) {
    const next = pageAddress(link.href);
    if (!next) continue;
    const nextUrl = new URL(next);
    // Only the site's own pages: a "Datenschutz" link to an embedded service's policy is not the site's.
    if (siteOf(nextUrl.hostname) !== crawl.site) continue;
    crawl.allLinks.set(`${next} ${link.text}`, { href: next, text: link.text });
    if (crawl.seen.has(next) || NOT_A_PAGE.test(nextUrl.pathname)) continue;
    crawl.seen.add(next);
    const score = Math.max(legalPageScore(link, 'imprint'), legalPageScore(link, 'privacy'));
    if (score > 0) legal.push({ url: next, score });
    else crawl.queue.add(next);
  }
  // Imprint and privacy pages go to the front of the queue.
  crawl.queue.addLegal(legal.sort((a, b) => b.score - a.score).map((candidate) => candidate.url));
  return content;
}

/** Reads the storage names of every frame of the page (each kept once per origin and name). */
async function readStorage(page: Page, crawl: Crawl): Promise<void> {
  await Promise.all(
    page.frames().map(async (frame) => {
      const found = await within(READ_TIMEOUT_MS, frame.evaluate(readFrameStorage));
      if (!found || found.origin === 'null') return;
      for (const kind of STORAGE_KINDS) {
        for (const name of found[kind]) {
          const key = `${found.origin} ${name}`;
          // The phase it was first seen in.
          if (!crawl.storage[kind].has(key)) crawl.storage[kind].set(key, { name, origin: found.origin, phase: crawl.phase, setBy: setterOf(crawl, kind, name) });
        }
      }
    }),
  );
}

/** What set a key, for the kinds scripts write through the watched calls (setters.ts). */
function setterOf(crawl: Crawl, kind: StorageKind | 'cookie', name: string): string | null {
  return kind === 'indexedDB' || kind === 'cacheStorage' ? null : (crawl.setters.setterOf(kind satisfies SetterKind, name) ?? null);
}

/** Where the page is now, without its fragment. */
const landedOn = (page: Page, fallback: string) => pageAddress(page.url()) ?? fallback;

/**
 * Opens the start page: its failures (error status, empty page, refusal) end the scan. Waits for
 * its `load` (a while at most), reads it and queues its links; the page then stays open.
 */
async function openStartPage(
  page: Page,
  url: string,
  crawl: Crawl,
  onAnswered: () => void,
): Promise<{ entry: VisitedPage; loadedAt: number }> {
  const entry: VisitedPage = { url, status: null };
  crawl.pages.push(entry);
  const navigation: TabNavigation = { asked: url, anywhere: true };
  crawl.navigation.set(page, navigation);
  entry.status = await goToStartPage(page, url, crawl.refused, ScanError);
  const landed = landedOn(page, url);
  entry.landedUrl = landed;
  crawl.visited.add(landed);
  crawl.seen.add(landed);
  // A site that moved (example.com → www.example.de) is crawled where it landed.
  crawl.site = siteOf(new URL(landed).hostname);
  onAnswered();

  if (!(await waitForLoad(page, crawl))) entry.slow = true;
  const loadedAt = performance.now();
  let content = await readPage(page, url, crawl);
  if (!content || content.empty) {
    // Scripts may still fill it in.
    await wait(crawl, crawl.limits.pageWaitMs);
    content = await readPage(page, url, crawl);
    if (!content || content.empty) throw new ScanError('site', `the website answered ${url} with an empty page`);
  }
  // From here on the start page stays where it is (a script sending it elsewhere is refused).
  navigation.asked = undefined;
  return { entry, loadedAt };
}

/** Notes the visit of a page after the start page, as it is taken from the queue. */
function startVisit(url: string, crawl: Crawl): VisitedPage {
  const entry: VisitedPage = { url, status: null };
  crawl.pages.push(entry);
  crawl.visited.add(url);
  return entry;
}

/**
 * Visits a page after the start page (noted by startVisit): loads it and queues its links as soon as it loaded (the
 * rest is keepOpen's). Its failures are only recorded (no `loadedAt`). Undefined if it redirected
 * to a page visited already (it is then left out of the pages).
 */
async function visitPage(page: Page, entry: VisitedPage, crawl: Crawl): Promise<{ entry: VisitedPage; loadedAt?: number } | undefined> {
  const { url } = entry;
  const navigation: TabNavigation = { asked: url };
  crawl.navigation.set(page, navigation);
  const redirectedToVisited = () => {
    crawl.pages.splice(crawl.pages.indexOf(entry), 1);
    return undefined;
  };
  let response: HTTPResponse | null;
  try {
    const timeout = Math.max(1, Math.min(crawl.limits.navigationTimeoutMs, crawl.waitsEndBy - performance.now()));
    response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout });
  } catch (error) {
    if (navigation.refused) return redirectedToVisited();
    navigation.asked = undefined;
    entry.error = error instanceof Error ? error.message : String(error);
    return { entry };
  }
  // Where it landed was taken for this visit as the redirect started (allowNavigation).
  const landed = landedOn(page, url);
  entry.status = response?.status() ?? null;
  entry.landedUrl = landed;

  if (!(await waitForLoad(page, crawl))) entry.slow = true;
  navigation.asked = undefined;
  const loadedAt = performance.now();
  await readPage(page, url, crawl);
  return { entry, loadedAt };
}

/**
 * Keeps a page read open in its tab: reads it again `pageWaitMs` after it loaded (its links too),
 * with its storage, then leaves it open for the end of the scan. Beyond `keptOpenLimit` pages, the
 * page open longest is closed after its last read. Ends the page's `busy` after its second read.
 */
function keepOpen(tab: Page, url: string, loadedAt: number, crawl: Crawl): void {
  const read = (async () => {
    await wait(crawl, loadedAt + crawl.limits.pageWaitMs - performance.now());
    await readPage(tab, url, crawl);
    await readStorage(tab, crawl);
  })().finally(() => crawl.busy--);
  crawl.open.push({ tab, loadedAt, read });
  while (crawl.open.length > crawl.limits.keptOpenLimit) {
    const oldest = crawl.open.shift()!;
    crawl.closing.push(
      (async () => {
        await oldest.read;
        await readStorage(oldest.tab, crawl);
        await oldest.tab.close().catch(() => {});
      })(),
    );
  }
}

async function crawl(
  context: BrowserContext,
  start: URL,
  limits: ScanLimits,
  refused: RefusedRequest[],
  { signal, waitsEndBy, onPage }: { signal: AbortSignal; waitsEndBy: number; onPage: ScanOptions['onPage'] },
): Promise<Omit<ScanFindings, 'durationMs'>> {
  const startUrl = pageAddress(start.toString())!;
  const state: Crawl = {
    site: siteOf(start.hostname),
    limits,
    refused,
    signal,
    waitsEndBy,
    scripts: new Set(),
    iframes: new Set(),
    stylesheets: new Set(),
    fonts: new Set(),
    loads: new Map(),
    storage: { localStorage: new Map(), sessionStorage: new Map(), indexedDB: new Map(), cacheStorage: new Map() },
    texts: new Map(),
    allLinks: new Map(),
    pages: [],
    queue: createPageQueue(),
    loading: 0,
    open: [],
    closing: [],
    seen: new Set([startUrl]),
    visited: new Set([startUrl]),
    busy: 1,
    navigation: new WeakMap(),
    phase: 'before-consent',
    traffic: createTrafficLog(),
    setters: createSetterLog(),
  };
  let ended = 0;
  const pageEnded = (page: VisitedPage) => onPage?.(page, ++ended, limits.pageLimit);

  const first = await openTab(context, state);
  if (limits.existingBannerWaitMs > 0) state.banner = await prepareBannerAcceptance(first, { acceptAtOnce: false });
  // Once the start page has answered, the tabs for the other pages open while it loads; each starts
  // crawling when it is open and the start page's links are queued.
  let startRead!: (read: boolean) => void;
  const startWasRead = new Promise<boolean>((resolve) => (startRead = resolve));
  let crawling: Promise<unknown> = Promise.resolve();
  const openTabs = () => {
    crawling = Promise.all(
      Array.from({ length: Math.max(0, Math.min(limits.pageConcurrency, limits.pageLimit - 1)) }, async () => {
        const tab = await openTab(context, state);
        if (await startWasRead) await crawlWith(tab);
      }),
    );
    crawling.catch(() => {}); // awaited below, unless the start page fails first
  };
  let startPage: Awaited<ReturnType<typeof openStartPage>>;
  try {
    startPage = await openStartPage(first, startUrl, state, openTabs);
  } catch (error) {
    startRead(false);
    throw error;
  }
  pageEnded(startPage.entry);
  startRead(true);

  // The start page keeps its tab for the whole crawl; once its tags had `pageWaitMs`, it is read again.
  const startReadAgain = (async () => {
    await wait(state, startPage.loadedAt + limits.pageWaitMs - performance.now());
    await readPage(first, startUrl, state);
    await readStorage(first, state);
  })().finally(() => state.busy--);

  // Meanwhile the rest of the site, a few tabs at a time; each page read stays open (keepOpen) and
  // its tab's crawler goes on in a new tab.
  async function crawlWith(firstTab: Page): Promise<void> {
    let tab: Page | undefined = firstTab;
    while (!signal.aborted && performance.now() < waitsEndBy) {
      const left = limits.pageLimit - state.pages.length;
      // A second page of a shape leaves the last pages of the budget to new shapes that the pages being
      // loaded may link to (a page deeper down), until they are read.
      const url = left > 0 ? state.queue.next(left > Math.min(state.loading, NEW_SHAPE_RESERVE)) : undefined;
      if (url === undefined) {
        // Pages being read may still queue links, or turn out not to count (a redirect to a page visited).
        if (state.busy === 0) return;
        await sleep(20);
        continue;
      }
      if (state.visited.has(url)) continue; // an earlier redirect landed there
      state.busy++;
      state.loading++;
      let visited: Awaited<ReturnType<typeof visitPage>>;
      try {
        // The page counts, in the order pages were taken, while its tab opens.
        const entry = startVisit(url, state);
        tab ??= await openTab(context, state);
        visited = await visitPage(tab, entry, state);
      } catch (error) {
        state.busy--;
        throw error;
      } finally {
        state.loading--;
      }
      if (visited) pageEnded(visited.entry);
      if (visited?.loadedAt === undefined) {
        state.busy--;
        continue;
      }
      keepOpen(tab, url, visited.loadedAt, state);
      tab = undefined;
    }
  }
  await crawling;
  await startReadAgain;
  await Promise.all(state.open.map((kept) => kept.read));
  // Until the page loaded last had the start page's minimum time (and `graceMs` after the last
  // read), then the storage of every page still open: keys set since a page was read are not lost.
  const lastLoad = Math.max(startPage.loadedAt, ...state.open.map((kept) => kept.loadedAt));
  await wait(state, Math.max(lastLoad + limits.startPageWaitMs, performance.now() + limits.graceMs) - performance.now());
  await Promise.all([first, ...state.open.map((kept) => kept.tab)].map((tab) => readStorage(tab, state)));
  await Promise.all(state.closing);
  if (signal.aborted) throw new ScanError('crawl', 'the scan was stopped');

  const cookies = (await context.cookies()).map((cookie) => ({
    ...foundCookieOf(cookie, state.site),
    phase: state.phase,
    setBy: setterOf(state, 'cookie', cookie.name),
  }));
  const existingBanner = state.banner?.found() ? await afterAccept(context, first, state) : null;
  if (existingBanner?.accepted) {
    const before = new Set(cookies.map(cookieKey));
    for (const cookie of await context.cookies()) {
      if (before.has(cookieKey(cookie))) continue;
      cookies.push({ ...foundCookieOf(cookie, state.site), phase: 'after-accept', setBy: setterOf(state, 'cookie', cookie.name) });
    }
    if (signal.aborted) throw new ScanError('crawl', 'the scan was stopped');
  }
  await state.traffic.settled();

  const { imprintUrl, privacyPolicyUrl } = pickLegalPages([...state.allLinks.values()]);
  const imprint = imprintUrl ? state.texts.get(imprintUrl) : undefined;
  return {
    url: start.toString(),
    pages: state.pages,
    cookies,
    localStorage: [...state.storage.localStorage.values()],
    sessionStorage: [...state.storage.sessionStorage.values()],
    indexedDB: [...state.storage.indexedDB.values()],
    cacheStorage: [...state.storage.cacheStorage.values()],
    scripts: [...state.scripts],
    iframes: [...state.iframes],
    stylesheets: [...state.stylesheets],
    fonts: [...state.fonts],
    unblockable: unblockableLoads(state.loads.values(), state.site),
    imprintUrl,
    privacyPolicyUrl,
    address: imprint
      ? extractAddress({ text: imprint.text, jsonLd: imprint.jsonLd.flatMap(parseJson) })
      : { company: null, street: null, zipCode: null, city: null },
    refusedRequests: [...refused],
    existingBanner,
    requests: state.traffic.requests(),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A cookie's identity in the browser: name, domain and path. */
const cookieKey = (cookie: { name: string; domain: string; path: string }) => `${cookie.name} ${cookie.domain} ${cookie.path}`;

/**
 * Pages loaded again in the second pass, after the banner was accepted, besides the start page
 * where it was accepted: the first pages the crawl visited after the start page (tags that run on
 * a page load once the choice is stored).
 */
const AFTER_ACCEPT_PAGES = 2;

/**
 * The second pass (ScanLimits.existingBannerWaitMs): accepts the banner the start page shows;
 * then, from here on labelled `after-accept`, waits `pageWaitMs` on the start page for what the
 * choice releases while the first AFTER_ACCEPT_PAGES pages load again in tabs of their own, and
 * reads the storage of all of them. The scan's time limit cuts it short.
 */
async function afterAccept(context: BrowserContext, startTab: Page, crawl: Crawl): Promise<ExistingBanner> {
  const cmp = crawl.banner!.found()!;
  const remaining = crawl.waitsEndBy - performance.now();
  if (remaining <= 0) return { cmp, accepted: false, error: 'no time was left within the scan to accept it' };
  // Some banners reload the page once accepted.
  crawl.navigation.set(startTab, { asked: crawl.pages[0]!.landedUrl, anywhere: true });
  // The tags a click releases load while autoconsent is still reporting it.
  crawl.phase = 'after-accept';
  const accepted = (await crawl.banner!.accept(Math.min(crawl.limits.existingBannerWaitMs, remaining))) ?? {
    cmp,
    accepted: false,
    error: 'the banner did not answer',
  };
  if (!accepted.accepted) return accepted;
  const acceptedAt = performance.now();
  const again = crawl.pages
    .filter((page) => page.status !== null && page.status < 400 && page.landedUrl)
    .slice(1, 1 + AFTER_ACCEPT_PAGES)
    .map((page) => page.landedUrl!);
  const revisits = again.map(async (url) => {
    const tab = await openTab(context, crawl);
    crawl.navigation.set(tab, { asked: url, anywhere: true });
    const timeout = Math.max(1, Math.min(crawl.limits.navigationTimeoutMs, crawl.waitsEndBy - performance.now()));
    const loaded = await tab.goto(url, { waitUntil: 'domcontentloaded', timeout }).then(
      () => true,
      () => false,
    );
    if (!loaded) return;
    await waitForLoad(tab, crawl);
    await wait(crawl, crawl.limits.pageWaitMs);
    await readStorage(tab, crawl);
  });
  await wait(crawl, acceptedAt + crawl.limits.pageWaitMs - performance.now());
  await Promise.all([readStorage(startTab, crawl), ...revisits]);
  return accepted;
}

function parseJson(text: string): unknown[] {
  try {
    return [JSON.parse(text)];
  } catch {
    return [];
  }
}
