import type { BrowserContext, HTTPResponse, Page } from 'puppeteer-core';
import { getDomain } from 'tldts';
import { type PostalAddress, extractAddress } from './address.ts';
import type { EgressPolicy } from './address-policy.ts';
import type { SharedBrowser } from './browser.ts';
import { type RefusedRequest, startEgressGuard } from './egress-guard.ts';
import { type PageLink, legalPageScore, pickLegalPages } from './legal-pages.ts';

/**
 * The scanner: opens a website in headless Chromium, crawls it breadth-first within its
 * registrable domain (legal pages first), and reports what it found. It knows nothing about
 * the catalog or the database: `scan(url) → findings`.
 */

export type ScanLimits = {
  /** Pages visited at most. */
  pageLimit: number;
  /** Time one page may take to load. */
  navigationTimeoutMs: number;
  /** How long the network must be quiet before a page counts as settled (waited for at most `navigationTimeoutMs`). */
  networkIdleMs: number;
  /** Extra wait after the start page and after the last page, for cookies that scripts set late. */
  graceMs: number;
  /** The whole scan; past it the scan fails with a time-out. */
  totalTimeoutMs: number;
  /** Pages loaded at once (tabs of the scan's browser context). */
  pageConcurrency: number;
};

export const DEFAULT_SCAN_LIMITS: ScanLimits = {
  pageLimit: 10,
  navigationTimeoutMs: 15_000,
  networkIdleMs: 500,
  graceMs: 1_000,
  totalTimeoutMs: 60_000,
  pageConcurrency: 3,
};

export type FoundCookie = {
  name: string;
  domain: string;
  path: string;
  /** ISO time, or null for a session cookie. */
  expires: string | null;
  httpOnly: boolean;
  secure: boolean;
  sameSite: string | null;
  /** Set for the site's own registrable domain (first party) or another one (third party). */
  party: 'first' | 'third';
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
  imprintUrl: string | null;
  privacyPolicyUrl: string | null;
  address: PostalAddress;
  /** Requests the egress guard refused (non-public addresses). */
  refusedRequests: RefusedRequest[];
  durationMs: number;
};

/** Why a scan failed: the site itself (400), a refused address (400) or the crawl (500). */
export type ScanFailure = 'site' | 'refused' | 'crawl';

export class ScanError extends Error {
  readonly failure: ScanFailure;
  constructor(failure: ScanFailure, message: string) {
    super(message);
    this.name = 'ScanError';
    this.failure = failure;
  }
}

/** Marker headers the egress guard puts on its own answers. */
const REFUSED = 'x-scan-refused';
const UNREACHABLE = 'x-scan-unreachable';

const SKIPPED_EXTENSIONS = /\.(?:pdf|zip|gz|rar|7z|jpe?g|png|gif|webp|svg|ico|mp4|mp3|webm|avi|mov|docx?|xlsx?|pptx?|csv|xml|json|txt)$/i;

type PageContent = {
  links: PageLink[];
  iframes: string[];
  scripts: string[];
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
    text: body?.innerText ?? '',
    jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((script) => script.textContent ?? ''),
    empty: !body || (body.innerText.trim() === '' && body.children.length === 0),
  };
}

/** Runs in each frame: the storage keys of the frame's origin. */
function readStorageKeys() {
  const keys = (storage: Storage) => Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '');
  return { origin: location.origin, local: keys(localStorage), session: keys(sessionStorage) };
}

/**
 * The registrable domain (eTLD+1), counting the private part of the public-suffix list as
 * browsers do: `shop.myshopify.com` and `other.myshopify.com` are different sites.
 */
const siteOf = (hostname: string) => getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;

function normalise(href: string): string | undefined {
  if (!URL.canParse(href)) return undefined;
  const url = new URL(href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  return url.toString();
}

export type ScanOptions = {
  /**
   * Called each time a page visit ends (loaded, or failed for a page after the start page):
   * `index` counts the visits ended so far (1-based), `limit` is the most pages the scan visits.
   */
  onPage?: (page: VisitedPage, index: number, limit: number) => void;
};

export type Scanner = {
  scan(url: string, options?: ScanOptions): Promise<ScanFindings>;
  /** Launches the browser if it is not running (readiness checks, warm starts). */
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
      // Refuse a forbidden start address before a browser is involved.
      const first = await policy(target.hostname, Number(target.port || (target.protocol === 'https:' ? 443 : 80)));
      if ('refused' in first) throw new ScanError(first.unresolvable ? 'crawl' : 'refused', first.refused);

      const guard = await startEgressGuard(policy);
      try {
        return await withTimeout(
          limits.totalTimeoutMs,
          (signal) =>
            browser.withContext(guard.proxyServer, (context) =>
              crawl(context, target, limits, guard.refused, signal, options.onPage).then((found) => ({
                ...found,
                durationMs: Math.round(performance.now() - started),
              })),
            ),
        );
      } catch (error) {
        if (error instanceof ScanError) throw error;
        // The browser could not start, crashed or lost its connection.
        throw new ScanError('crawl', `the browser failed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await guard.close();
      }
    },
    warmUp: () => browser.warmUp(),
    close: () => browser.close(),
  };
}

/** Runs `work`; past `ms` it fails with a time-out and `signal` tells the work to stop. */
async function withTimeout<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ScanError('crawl', `the scan took longer than ${Math.round(ms / 1000)} s and was stopped`));
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
  scripts: Set<string>;
  iframes: Set<string>;
  storage: { local: Map<string, FoundStorageKey>; session: Map<string, FoundStorageKey> };
  texts: Map<string, { text: string; jsonLd: string[] }>;
  /** The links to pages of the site itself, from every page visited (for the legal pages). */
  allLinks: PageLink[];
  /** Visits in the order they started (a visit fills in its entry when it ends). */
  pages: VisitedPage[];
  queue: string[];
  seen: Set<string>;
};

async function openTab(context: BrowserContext, crawl: Crawl, signal: AbortSignal): Promise<Page> {
  const page = await context.newPage();
  signal.addEventListener('abort', () => void page.close().catch(() => {}));
  page.setDefaultNavigationTimeout(crawl.limits.navigationTimeoutMs);
  page.on('request', (request) => {
    const type = request.resourceType();
    if (type === 'script') crawl.scripts.add(request.url());
    if (type === 'document' && request.frame() && request.frame() !== page.mainFrame()) crawl.iframes.add(request.url());
  });
  return page;
}

/**
 * Visits one page: loads it, waits for the network to settle, reads its links, scripts, frames,
 * text and storage keys, and queues its same-site links (imprint and privacy pages first).
 * The start page's failures end the scan; later pages' failures are only recorded.
 */
async function visit(page: Page, url: string, crawl: Crawl, isStart: boolean): Promise<void> {
  const entry: VisitedPage = { url, status: null };
  crawl.pages.push(entry);
  let response: HTTPResponse | null;
  try {
    response = await page.goto(url, { waitUntil: 'load' });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (isStart) throw startFailure(url, message, crawl.refused);
    entry.error = message;
    return;
  }
  const status = response?.status() ?? null;
  const headers = response?.headers() ?? {};
  if (isStart) {
    if (headers[REFUSED]) throw new ScanError('refused', `refused to open ${url}: ${refusalFor(url, crawl.refused)}`);
    if (headers[UNREACHABLE]) throw new ScanError('crawl', `could not reach ${url}: ${headers[UNREACHABLE]}`);
    if (status === null) throw new ScanError('crawl', `no answer from ${url}`);
    if (status >= 400) throw new ScanError('site', `the website answered ${url} with status ${status}`);
  }
  entry.status = status;
  // A site that moved (example.com → www.example.de) is crawled where it landed.
  if (isStart) crawl.site = siteOf(new URL(page.url()).hostname);
  const { limits } = crawl;
  await page.waitForNetworkIdle({ idleTime: limits.networkIdleMs, timeout: limits.navigationTimeoutMs }).catch(() => {});
  // Tags fire on the landing page; give their late cookies time before moving on. Later pages
  // mostly run the same tags, so they only wait for the network, and the end waits again.
  if (isStart) await sleep(limits.graceMs);
  const content = await page.evaluate(readPageContent).catch(() => undefined);
  if (isStart && (!content || content.empty)) throw new ScanError('site', `the website answered ${url} with an empty page`);
  if (!content) return;

  for (const frame of page.frames()) {
    const keys = await frame.evaluate(readStorageKeys).catch(() => undefined);
    if (!keys || keys.origin === 'null') continue;
    for (const name of keys.local) crawl.storage.local.set(`${keys.origin} ${name}`, { name, origin: keys.origin });
    for (const name of keys.session) crawl.storage.session.set(`${keys.origin} ${name}`, { name, origin: keys.origin });
  }
  for (const src of content.scripts) crawl.scripts.add(src);
  for (const src of content.iframes) crawl.iframes.add(src);
  crawl.texts.set(page.url(), { text: content.text, jsonLd: content.jsonLd });
  crawl.texts.set(url, { text: content.text, jsonLd: content.jsonLd });

  const legal: { url: string; score: number }[] = [];
  for (const link of content.links) {
    const next = normalise(link.href);
    if (!next) continue;
    const nextUrl = new URL(next);
    // Only the site's own pages: a "Datenschutz" link to an embedded service's policy is not the site's.
    if (siteOf(nextUrl.hostname) !== crawl.site) continue;
    crawl.allLinks.push({ href: next, text: link.text });
    if (crawl.seen.has(next) || SKIPPED_EXTENSIONS.test(nextUrl.pathname)) continue;
    crawl.seen.add(next);
    const score = Math.max(legalPageScore(link, 'imprint'), legalPageScore(link, 'privacy'));
    if (score > 0) legal.push({ url: next, score });
    else crawl.queue.push(next);
  }
  // Imprint and privacy pages go to the front of the queue.
  crawl.queue.unshift(...legal.sort((a, b) => b.score - a.score).map((candidate) => candidate.url));
}

async function crawl(
  context: BrowserContext,
  start: URL,
  limits: ScanLimits,
  refused: RefusedRequest[],
  signal: AbortSignal,
  onPage: ScanOptions['onPage'],
): Promise<Omit<ScanFindings, 'durationMs'>> {
  const startUrl = normalise(start.toString())!;
  const state: Crawl = {
    site: siteOf(start.hostname),
    limits,
    refused,
    scripts: new Set(),
    iframes: new Set(),
    storage: { local: new Map(), session: new Map() },
    texts: new Map(),
    allLinks: [],
    pages: [],
    queue: [],
    seen: new Set([startUrl]),
  };

  // The start page alone: its failures (error status, empty page, refusal) end the scan.
  const first = await openTab(context, state, signal);
  await visit(first, startUrl, state, true);
  let ended = 0;
  const pageEnded = (url: string) => onPage?.(state.pages.find((page) => page.url === url)!, ++ended, limits.pageLimit);
  pageEnded(startUrl);

  // Then the rest of the site breadth-first, a few tabs at a time: most of a page's time is
  // spent waiting for its network to settle.
  let active = 0;
  const worker = async (tab: Page) => {
    while (!signal.aborted && state.pages.length < limits.pageLimit) {
      const url = state.queue.shift();
      if (url === undefined) {
        if (active === 0) return;
        await sleep(20); // another tab may still find links
        continue;
      }
      active++;
      try {
        await visit(tab, url, state, false);
        pageEnded(url);
      } finally {
        active--;
      }
    }
  };
  const tabs = [first, ...(await Promise.all(Array.from({ length: limits.pageConcurrency - 1 }, () => openTab(context, state, signal))))];
  await Promise.all(tabs.map(worker));
  if (signal.aborted) throw new ScanError('crawl', 'the scan was stopped');

  await sleep(limits.graceMs);
  const cookies = (await context.cookies()).map((cookie) => ({
    name: cookie.name,
    domain: cookie.domain,
    path: cookie.path,
    expires: cookie.session || cookie.expires < 0 ? null : new Date(cookie.expires * 1000).toISOString(),
    httpOnly: cookie.httpOnly ?? false,
    secure: cookie.secure,
    sameSite: cookie.sameSite ?? null,
    party: siteOf(cookie.domain.replace(/^\./, '')) === state.site ? ('first' as const) : ('third' as const),
  }));

  const { imprintUrl, privacyPolicyUrl } = pickLegalPages(state.allLinks);
  const imprint = imprintUrl ? state.texts.get(imprintUrl) : undefined;
  return {
    url: start.toString(),
    pages: state.pages,
    cookies,
    localStorage: [...state.storage.local.values()],
    sessionStorage: [...state.storage.session.values()],
    indexedDB: [],
    cacheStorage: [],
    scripts: [...state.scripts],
    iframes: [...state.iframes],
    stylesheets: [],
    fonts: [],
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

function refusalFor(url: string, refused: RefusedRequest[]): string {
  return refused.at(-1)?.reason ?? `${new URL(url).hostname} is not a public address`;
}

/** The start page could not be loaded: refused by the guard (400) or a crawl failure (500). */
function startFailure(url: string, message: string, refused: RefusedRequest[]): ScanError {
  if (refused.some((entry) => !entry.unresolvable)) {
    return new ScanError('refused', `refused to open ${url}: ${refusalFor(url, refused)}`);
  }
  const reason = /timeout/i.test(message) ? 'the page did not finish loading in time' : message.replace(/\s+at .*$/s, '');
  return new ScanError('crawl', `could not load ${url}: ${reason}`);
}
