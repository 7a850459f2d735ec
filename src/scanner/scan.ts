import type { BrowserContext, HTTPRequest, HTTPResponse, Page, Protocol } from 'puppeteer-core';
import { type PostalAddress, extractAddress } from './address.ts';
import type { EgressPolicy } from './address-policy.ts';
import type { SharedBrowser } from './browser.ts';
import { type ConsentCheck, createConsentChecker } from './compliance.ts';
import { type RefusedRequest, startEgressGuard } from './egress-guard.ts';
import { type PageLink, legalPageScore, pickLegalPages } from './legal-pages.ts';
import { checkStartAddress, type FoundCookie, foundCookieOf, goToStartPage, NOT_A_PAGE, newTab, pageAddress, READ_TIMEOUT_MS, siteOf, VisitError, waitsEndByOf, within } from './site-visit.ts';

export type { FoundCookie } from './site-visit.ts';

/**
 * The scanner: opens a website in headless Chromium, crawls it breadth-first within its
 * registrable domain (legal pages first), and reports what it found. It knows nothing about
 * the catalog or the database: `scan(url) → findings`.
 */

export type ScanLimits = {
  /** Pages visited at most (a redirect to a page visited already does not count). */
  pageLimit: number;
  /** Time a page's document may take to arrive and be parsed (DOMContentLoaded). */
  navigationTimeoutMs: number;
  /** After DOMContentLoaded, how long a page's `load` is waited for; a page without it by then is read as it is and marked `slow`. */
  loadTimeoutMs: number;
  /**
   * Wait on every page after it loaded, before it is read, for keys that scripts set late (a fixed
   * wait, as the EDPS Website Evidence Collector does).
   */
  pageWaitMs: number;
  /**
   * The start page stays open in a tab of its own for the whole crawl, and at least this long after
   * it loaded, so that its late tags still fire; the other pages are crawled meanwhile.
   */
  startPageWaitMs: number;
  /**
   * Extra wait after the last page was read, before the cookies and the storage of the pages still
   * open are read (it runs alongside the rest of the start page's wait).
   */
  graceMs: number;
  /** The whole scan; waits are cut short to end within it, and past it the scan fails with a time-out. */
  totalTimeoutMs: number;
  /** Tabs crawling the pages after the start page at once (the start page has a tab of its own). */
  pageConcurrency: number;
};

export const DEFAULT_SCAN_LIMITS: ScanLimits = {
  pageLimit: 10,
  navigationTimeoutMs: 15_000,
  loadTimeoutMs: 5_000,
  pageWaitMs: 2_000,
  startPageWaitMs: 5_000,
  graceMs: 0,
  totalTimeoutMs: 60_000,
  pageConcurrency: 5,
};

export type FoundStorageKey = { name: string; origin: string };

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
  cookies: FoundCookie[];
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
        // The browser could not start, crashed or lost its connection.
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
  queue: string[];
  /** Addresses queued or visited: each is queued once. */
  seen: Set<string>;
  /** Addresses of the pages visited, as asked for and where they landed: a later visit landing on one of them does not count. */
  visited: Set<string>;
  /** Pages still being read, which may queue more links (the start page until its second read, the tabs' current pages). */
  busy: number;
};

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
    else crawl.queue.push(next);
  }
  // Imprint and privacy pages go to the front of the queue.
  crawl.queue.unshift(...legal.sort((a, b) => b.score - a.score).map((candidate) => candidate.url));
  return content;
}

/** Reads the storage names of every frame of the page (each kept once per origin and name). */
async function readStorage(page: Page, crawl: Crawl): Promise<void> {
  await Promise.all(
    page.frames().map(async (frame) => {
      const found = await within(READ_TIMEOUT_MS, frame.evaluate(readFrameStorage));
      if (!found || found.origin === 'null') return;
      for (const kind of STORAGE_KINDS) {
        for (const name of found[kind]) crawl.storage[kind].set(`${found.origin} ${name}`, { name, origin: found.origin });
      }
    }),
  );
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
  return { entry, loadedAt };
}

/**
 * Visits a page after the start page: loads it, queues its links as soon as it loaded, waits
 * `pageWaitMs` for late keys, then reads it again with its storage. Its failures are only recorded.
 * Undefined if it redirected to a page visited already (it is then left out of the pages).
 */
async function visitPage(page: Page, url: string, crawl: Crawl): Promise<VisitedPage | undefined> {
  const entry: VisitedPage = { url, status: null };
  crawl.pages.push(entry);
  crawl.visited.add(url);
  let response: HTTPResponse | null;
  try {
    const timeout = Math.max(1, Math.min(crawl.limits.navigationTimeoutMs, crawl.waitsEndBy - performance.now()));
    response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout });
  } catch (error) {
    entry.error = error instanceof Error ? error.message : String(error);
    return entry;
  }
  const landed = landedOn(page, url);
  if (landed !== url) {
    if (crawl.visited.has(landed)) {
      crawl.pages.splice(crawl.pages.indexOf(entry), 1);
      return undefined;
    }
    crawl.visited.add(landed);
    crawl.seen.add(landed);
  }
  entry.status = response?.status() ?? null;
  entry.landedUrl = landed;

  if (!(await waitForLoad(page, crawl))) entry.slow = true;
  const loadedAt = performance.now();
  // Its links first, so that tabs without a page can go on meanwhile.
  await readPage(page, url, crawl);
  await wait(crawl, loadedAt + crawl.limits.pageWaitMs - performance.now());
  await readPage(page, url, crawl);
  await readStorage(page, crawl);
  return entry;
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
    queue: [],
    seen: new Set([startUrl]),
    visited: new Set([startUrl]),
    busy: 1,
  };
  let ended = 0;
  const pageEnded = (page: VisitedPage) => onPage?.(page, ++ended, limits.pageLimit);

  const first = await openTab(context, state);
  // Once the start page has answered, the tabs for the other pages open while it loads; each starts
  // crawling when it is open and the start page's links are queued.
  let startRead!: (read: boolean) => void;
  const startWasRead = new Promise<boolean>((resolve) => (startRead = resolve));
  const tabs: Page[] = [];
  let crawling: Promise<unknown> = Promise.resolve();
  const openTabs = () => {
    crawling = Promise.all(
      Array.from({ length: Math.max(0, Math.min(limits.pageConcurrency, limits.pageLimit - 1)) }, async () => {
        const tab = await openTab(context, state);
        tabs.push(tab);
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

  // Meanwhile the rest of the site, breadth-first, a few tabs at a time.
  async function crawlWith(tab: Page): Promise<void> {
    while (!signal.aborted && performance.now() < waitsEndBy) {
      const url = state.pages.length < limits.pageLimit ? state.queue.shift() : undefined;
      if (url === undefined) {
        // Pages being read may still queue links, or turn out not to count (a redirect to a page visited).
        if (state.busy === 0) return;
        await sleep(20);
        continue;
      }
      if (state.visited.has(url)) continue; // an earlier redirect landed there
      state.busy++;
      try {
        const visited = await visitPage(tab, url, state);
        if (visited) pageEnded(visited);
      } finally {
        state.busy--;
      }
    }
  }
  await crawling;
  await startReadAgain;
  // The start page's minimum time (and `graceMs` after the last page), then the storage of every
  // page still open: keys set since a page was read are not lost.
  await wait(state, Math.max(startPage.loadedAt + limits.startPageWaitMs, performance.now() + limits.graceMs) - performance.now());
  await Promise.all([first, ...tabs].map((tab) => readStorage(tab, state)));
  if (signal.aborted) throw new ScanError('crawl', 'the scan was stopped');

  const cookies = (await context.cookies()).map((cookie) => foundCookieOf(cookie, state.site));

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
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function parseJson(text: string): unknown[] {
  try {
    return [JSON.parse(text)];
  } catch {
    return [];
  }
}
