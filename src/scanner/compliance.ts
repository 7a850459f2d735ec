import type { BrowserContext, HTTPResponse, Page } from 'puppeteer-core';
import type { EgressPolicy } from './address-policy.ts';
import type { SharedBrowser } from './browser.ts';
import { type RefusedRequest, startEgressGuard } from './egress-guard.ts';
import { checkStartAddress, type FoundCookie, foundCookieOf, goToStartPage, NOT_A_PAGE, newTab, pageAddress, READ_TIMEOUT_MS, siteOf, VisitError, waitsEndByOf, within } from './site-visit.ts';

/**
 * The compliance scan's browser part: the check a regulator runs. It visits a site three times as
 * a fresh visitor, each time in a fresh incognito context of the shared browser and through the
 * egress guard: without a choice, after "reject all" and after "accept all", both clicked in the
 * site's real banner (vanilla-cookieconsent's first layer). Each time it opens the start page and
 * then a second page of the site (what runs under the stored choice), and records the cookies the
 * browser holds (first and third party), the localStorage and sessionStorage keys of every frame,
 * every request to another site (host, path, resource type, the page it was made on), what the
 * banner holds back, and what the banner says of itself (its domain and configuration revision).
 *
 * It knows nothing of embeddings, the catalog or the database: `check(url) → observations`. What
 * counts as a violation is the compliance feature's business (src/features/compliance/).
 */

export const CONSENT_STATES = ['beforeConsent', 'afterReject', 'afterAcceptAll'] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];

/** The limits of the scanner (ScanLimits) a check uses: every wait is one of these, cut short to end within `totalTimeoutMs`. */
export type ConsentCheckLimits = {
  navigationTimeoutMs: number;
  loadTimeoutMs: number;
  /** Wait after a page loaded (or after the click) before it is read. */
  pageWaitMs: number;
  totalTimeoutMs: number;
};

export type ObservedPage = {
  url: string;
  status: number | null;
  landedUrl?: string;
  error?: string;
  /** The banner's first layer was shown on the page (the visitor is asked). */
  bannerShown: boolean;
};

export type ObservedCookie = FoundCookie & {
  /** The page after whose visit it was first seen. */
  page: string;
};

export type ObservedStorageKey = { storageType: 'localStorage' | 'sessionStorage'; name: string; origin: string; page: string };

/** A request to another site than the visited one (each address, without its query, and resource type once). */
export type ObservedRequest = {
  /** The first such request's whole address (markers may sit in its query). */
  url: string;
  host: string;
  path: string;
  /** Chromium's resource type: script, document (a frame), image, xhr, fetch, ping, stylesheet, font … */
  resourceType: string;
  /** The page the visitor was on. */
  page: string;
  /** The address of the embedded frame that made it; null: the page itself. */
  frameUrl: string | null;
  times: number;
};

/** Something the banner holds back (marked `data-ccm-blocked`, or an iframe it replaced by its notice). */
export type HeldElement = {
  element: 'script' | 'iframe' | 'image';
  /** The address it would load; null: an inline script. */
  src: string | null;
  /** The banner's service (an embedding id) it waits for; null: held by the domain's rules. */
  serviceId: string | null;
  page: string;
};

/** What the banner said of itself (`window.__ccmBanner.config`). */
export type BannerIdentity = { domainId: string; revision: string; consentName: string };

export type StateObservations = {
  state: ConsentState;
  /** The choice clicked: null before consent, or when there was no banner to click. */
  choice: 'necessary' | 'all' | null;
  /** Whether the choice was clicked in the banner (false: no banner, or no such button). */
  clicked: boolean;
  /** The start page, then the second page. */
  pages: ObservedPage[];
  /** Null: no banner runtime on the start page (no snippet, or the service did not answer). */
  banner: BannerIdentity | null;
  /** Whether the page asked the consent service for its banner (`app.js?domain=…`). */
  bannerRequested: boolean;
  /** Before consent: from the first page on; after a choice: what was there after the click. */
  cookies: ObservedCookie[];
  storage: ObservedStorageKey[];
  /** Requests to other sites than the visited one; after a choice, those made after the click. The banner's own are left out. */
  requests: ObservedRequest[];
  heldBack: HeldElement[];
};

export type ConsentCheck = {
  url: string;
  /** The registrable domain of the site (where the start page landed): other sites are third parties. */
  site: string;
  /** The consent service's origin, as the page loaded the banner from it (its requests are not listed); null: none seen. */
  bannerOrigin: string | null;
  states: Record<ConsentState, StateObservations>;
  refusedRequests: RefusedRequest[];
  durationMs: number;
};

/** A check that failed; `failure` as a scan's (src/scanner/scan.ts `ScanError`). */
export class ConsentCheckError extends VisitError {
  override readonly name = 'ConsentCheckError';
}

/** The banner's markup and attributes (src/features/banner/runtime/attributes.ts and vanilla-cookieconsent's). */
const BANNER = {
  modal: '#cc-main .cm',
  shownClass: 'show--consent',
  firstLayerButton: (role: string) => `#cc-main .cm__btn[data-role="${role}"]`,
  preferencesButton: (role: string) => `#cc-main .pm__btn[data-role="${role}"]`,
  blocked: 'data-ccm-blocked',
  heldImageSrc: 'data-ccm-src',
  placeholder: 'data-ccm-placeholder',
} as const;

/** A desktop visitor's window. */
const VIEWPORT = { width: 1280, height: 800 };
/** Time the banner may take to close after the click. */
const CLOSE_TIMEOUT_MS = 3_000;

export type ConsentChecker = (url: string) => Promise<ConsentCheck>;

/** The check on the scanner's browser, egress policy and limits (the Scanner's `checkConsent`). */
export function createConsentChecker({
  browser,
  policy,
  limits,
}: {
  browser: SharedBrowser;
  policy: EgressPolicy;
  limits: ConsentCheckLimits;
}): ConsentChecker {
  return async (url) => {
    const started = performance.now();
    const target = new URL(url);
    await checkStartAddress(policy, target, ConsentCheckError);
    const startUrl = pageAddress(target.toString())!;
    const guard = await startEgressGuard(policy);
    const controller = new AbortController();
    const run: Run = {
      limits,
      startUrl,
      refused: guard.refused,
      signal: controller.signal,
      waitsEndBy: waitsEndByOf(started, limits.totalTimeoutMs),
      site: siteOf(target.hostname),
      bannerOrigins: new Set(),
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ConsentCheckError('crawl', `the compliance scan took longer than ${Math.round(limits.totalTimeoutMs / 1000)} s and was stopped`));
      }, limits.totalTimeoutMs);
    });
    try {
      // The three visitors at once, each in a context of its own: nothing carries over between them.
      const visits = Promise.all(CONSENT_STATES.map((state) => browser.withContext(guard.proxyServer, (context) => visit(context, state, run))));
      visits.catch(() => {});
      const observed = await Promise.race([visits, timeout]);
      const bannerOrigin = [...run.bannerOrigins][0] ?? null;
      const states = Object.fromEntries(
        observed.map((state) => [state.state, { ...state, requests: state.requests.filter((request) => !run.bannerOrigins.has(new URL(request.url).origin)) }]),
      ) as Record<ConsentState, StateObservations>;
      return { url: startUrl, site: run.site, bannerOrigin, states, refusedRequests: [...guard.refused], durationMs: Math.round(performance.now() - started) };
    } catch (error) {
      if (error instanceof ConsentCheckError) throw error;
      throw new ConsentCheckError('crawl', `the browser failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
      controller.abort();
      await guard.close();
    }
  };
}

/** What the three visits share. */
type Run = {
  limits: ConsentCheckLimits;
  startUrl: string;
  refused: RefusedRequest[];
  signal: AbortSignal;
  /** `performance.now()` by which every wait ends. */
  waitsEndBy: number;
  /** The visited site (updated where the start page landed). */
  site: string;
  /** Origins the pages loaded the banner's app.js from. */
  bannerOrigins: Set<string>;
};

/** What one visitor gathers. */
type Visit = {
  run: Run;
  /** The page the visitor is on (requests are attributed to it). */
  current: string;
  /** Whether requests are recorded now (after a choice: from the click on). */
  recording: boolean;
  bannerRequested: boolean;
  requests: Map<string, ObservedRequest>;
  cookies: Map<string, ObservedCookie>;
  storage: Map<string, ObservedStorageKey>;
  held: Map<string, HeldElement>;
  banner: BannerIdentity | null;
};

const sleep = (run: Run, ms: number) =>
  new Promise<void>((resolve) => {
    const limit = Math.min(ms, run.waitsEndBy - performance.now());
    if (limit <= 0 || run.signal.aborted) return resolve();
    const timer = setTimeout(done, limit);
    run.signal.addEventListener('abort', done);
    function done() {
      clearTimeout(timer);
      run.signal.removeEventListener('abort', done);
      resolve();
    }
  });

/** A time-out for a wait, cut short to end within the check's time (at least 1 ms). */
const bounded = (run: Run, ms: number) => Math.max(1, Math.min(ms, run.waitsEndBy - performance.now()));

async function visit(context: BrowserContext, state: ConsentState, run: Run): Promise<StateObservations> {
  const seen: Visit = {
    run,
    current: run.startUrl,
    recording: state === 'beforeConsent',
    bannerRequested: false,
    requests: new Map(),
    cookies: new Map(),
    storage: new Map(),
    held: new Map(),
    banner: null,
  };
  const page = await newTab(context, { signal: run.signal, navigationTimeoutMs: run.limits.navigationTimeoutMs });
  await page.setViewport(VIEWPORT);
  page.on('request', (request) => {
    const url = request.url();
    if (!/^https?:/.test(url)) return;
    const address = new URL(url);
    if (/\/app\.js$/.test(address.pathname) && address.searchParams.has('domain')) {
      run.bannerOrigins.add(address.origin);
      seen.bannerRequested = true;
    }
    if (!seen.recording || siteOf(address.hostname) === run.site) return;
    const resourceType = request.resourceType();
    const key = `${address.host} ${address.pathname} ${resourceType}`;
    const known = seen.requests.get(key);
    if (known) {
      known.times++;
      return;
    }
    const frame = request.frame();
    const frameUrl = frame && frame !== page.mainFrame() && resourceType !== 'document' ? pageAddress(frame.url()) ?? null : null;
    seen.requests.set(key, { url, host: address.host, path: address.pathname, resourceType, page: seen.current, frameUrl, times: 1 });
  });

  const pages: ObservedPage[] = [];
  const start = await openStartPage(page, seen);
  pages.push(start.entry);
  seen.banner = await readBanner(page);

  let choice: StateObservations['choice'] = null;
  let clicked = false;
  if (state === 'beforeConsent') {
    await sleep(run, start.loadedAt + run.limits.pageWaitMs - performance.now());
  } else {
    choice = state === 'afterReject' ? 'necessary' : 'all';
    // What happens from the click on is this state's.
    seen.recording = true;
    clicked = start.entry.bannerShown && (await choose(page, choice, run));
    await sleep(run, run.limits.pageWaitMs);
  }
  await read(page, context, seen);

  // A second page of the site (or the start page again): what runs on the next page under the stored choice.
  const next = (await within(READ_TIMEOUT_MS, page.evaluate(sameSiteLinks))) ?? [];
  const second =
    next
      .map(pageAddress)
      .find(
        (href): href is string =>
          !!href && siteOf(new URL(href).hostname) === run.site && href !== start.entry.url && href !== start.entry.landedUrl && !NOT_A_PAGE.test(new URL(href).pathname),
      ) ??
    start.entry.landedUrl ??
    run.startUrl;
  if (!run.signal.aborted && performance.now() < run.waitsEndBy) {
    const entry = await openPage(page, second, seen, state === 'beforeConsent');
    pages.push(entry);
    await read(page, context, seen);
  }
  if (run.signal.aborted) throw new ConsentCheckError('crawl', 'the compliance scan was stopped');
  await page.close().catch(() => {});

  return {
    state,
    choice,
    clicked,
    pages,
    banner: seen.banner,
    bannerRequested: seen.bannerRequested,
    cookies: [...seen.cookies.values()],
    storage: [...seen.storage.values()],
    requests: [...seen.requests.values()],
    heldBack: [...seen.held.values()],
  };
}

/** Waits for the page's `load`, `loadTimeoutMs` at most: true if it came. */
async function waitForLoad(page: Page, run: Run): Promise<boolean> {
  const complete = await within(
    bounded(run, run.limits.loadTimeoutMs) + 500,
    page.waitForFunction(() => document.readyState === 'complete', { timeout: bounded(run, run.limits.loadTimeoutMs), polling: 50 }),
  );
  return complete !== undefined;
}

/**
 * Waits until the banner's first layer is shown and has finished appearing (it slides and fades
 * in): visible, opaque, on screen, nothing in it still moving. True if it did.
 */
async function bannerAppears(page: Page, run: Run, ms: number): Promise<boolean> {
  const shown = await within(
    bounded(run, ms) + 500,
    page.waitForFunction(
      (modal: string, shownClass: string) => {
        const element = document.querySelector(modal);
        if (!element || !document.documentElement.classList.contains(shownClass)) return false;
        const style = getComputedStyle(element);
        if (style.opacity !== '1' || style.visibility !== 'visible' || element.getAnimations({ subtree: true }).length > 0) return false;
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && box.top < innerHeight && box.bottom > 0;
      },
      { timeout: bounded(run, ms), polling: 50 },
      BANNER.modal,
      BANNER.shownClass,
    ),
  );
  return shown !== undefined;
}

/** How long the banner may take to appear after the page loaded: the snippet loads app.js and the runtime meanwhile. */
const bannerWaitOf = (limits: ConsentCheckLimits) => limits.loadTimeoutMs + limits.pageWaitMs;

/** Opens the start page: its failures (an error status, a refusal, no answer) end the check. */
async function openStartPage(page: Page, seen: Visit): Promise<{ entry: ObservedPage; loadedAt: number }> {
  const { run } = seen;
  const status = await goToStartPage(page, run.startUrl, run.refused, ConsentCheckError);
  const landed = pageAddress(page.url()) ?? run.startUrl;
  // A site that moved is judged where it landed: its own requests are first party.
  run.site = siteOf(new URL(landed).hostname);
  seen.current = landed;
  await waitForLoad(page, run);
  const loadedAt = performance.now();
  const bannerShown = await bannerAppears(page, run, bannerWaitOf(run.limits));
  return { entry: { url: run.startUrl, status, landedUrl: landed, bannerShown }, loadedAt };
}

/** Opens a later page; its failure is only recorded. `askedAgain`: wait for the banner (no choice was made). */
async function openPage(page: Page, url: string, seen: Visit, askedAgain: boolean): Promise<ObservedPage> {
  const { run } = seen;
  seen.current = url;
  let response: HTTPResponse | null;
  try {
    response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: bounded(run, run.limits.navigationTimeoutMs) });
  } catch (error) {
    return { url, status: null, error: error instanceof Error ? error.message.replace(/\s+at .*$/s, '') : String(error), bannerShown: false };
  }
  const landed = pageAddress(page.url()) ?? url;
  seen.current = landed;
  await waitForLoad(page, run);
  const loadedAt = performance.now();
  const bannerShown = askedAgain
    ? await bannerAppears(page, run, bannerWaitOf(run.limits))
    : ((await within(READ_TIMEOUT_MS, page.evaluate((shownClass: string) => document.documentElement.classList.contains(shownClass), BANNER.shownClass))) ?? false);
  await sleep(run, loadedAt + run.limits.pageWaitMs - performance.now());
  return { url, status: response?.status() ?? null, landedUrl: landed, bannerShown };
}

/**
 * Clicks "reject all" (`necessary`) or "accept all" (`all`) in the banner's first layer, or, when
 * it has no such button, in its second layer; then waits for the banner to close. False: no such
 * button, or the banner did not close.
 */
async function choose(page: Page, role: 'necessary' | 'all', run: Run): Promise<boolean> {
  try {
    const firstLayer = BANNER.firstLayerButton(role);
    if (await page.$(firstLayer)) await click(page, firstLayer);
    else {
      const settings = BANNER.firstLayerButton('show');
      if (!(await page.$(settings))) return false;
      await click(page, settings);
      const secondLayer = BANNER.preferencesButton(role);
      await page.waitForFunction(
        (selector: string) => {
          const modal = document.querySelector(selector)?.closest('.pm');
          if (!modal) return false;
          const style = getComputedStyle(modal);
          return style.opacity === '1' && style.visibility === 'visible' && modal.getAnimations({ subtree: true }).length === 0;
        },
        { timeout: bounded(run, CLOSE_TIMEOUT_MS), polling: 50 },
        secondLayer,
      );
      await click(page, secondLayer);
    }
  } catch {
    return false;
  }
  // The choice took when the banner closed.
  const closed = await within(
    bounded(run, CLOSE_TIMEOUT_MS) + 500,
    page.waitForFunction((shownClass: string) => !document.documentElement.classList.contains(shownClass), { timeout: bounded(run, CLOSE_TIMEOUT_MS), polling: 50 }, BANNER.shownClass),
  );
  return closed !== undefined;
}

/** Clicks as a visitor does, with the mouse; the button's own click if the mouse cannot reach it (something lies over it). */
async function click(page: Page, selector: string): Promise<void> {
  try {
    await page.click(selector);
  } catch {
    await page.$eval(selector, (button) => (button as HTMLElement).click());
  }
}

/** Runs in the page: the addresses of its links (the second page is one of the site's). */
function sameSiteLinks(): string[] {
  return [...document.querySelectorAll('a[href]')].map((anchor) => (anchor as HTMLAnchorElement).href);
}

/** Runs in the page: what the banner says of itself. */
function bannerIdentity(): BannerIdentity | null {
  const config = (window as unknown as { __ccmBanner?: { config?: { domainId?: unknown; contentRevision?: unknown; consent?: { name?: unknown } } } }).__ccmBanner?.config;
  if (!config || typeof config.domainId !== 'string' || typeof config.contentRevision !== 'string') return null;
  return { domainId: config.domainId, revision: config.contentRevision, consentName: typeof config.consent?.name === 'string' ? config.consent.name : '' };
}

async function readBanner(page: Page): Promise<BannerIdentity | null> {
  return (await within(READ_TIMEOUT_MS, page.evaluate(bannerIdentity))) ?? null;
}

type HeldInPage = Omit<HeldElement, 'page'>;

/** Runs in the page: what the banner holds back (scripts, iframes and images it marked, iframes it replaced by its notice). */
function heldInPage(blocked: string, heldImageSrc: string, placeholder: string): HeldInPage[] {
  const absolute = (address: string | null) => {
    if (address === null || address === '') return null;
    try {
      return new URL(address, location.href).href;
    } catch {
      return address;
    }
  };
  const held: HeldInPage[] = [];
  // Only what still waits: a released script's copy may carry the marks on, but runs (its type is no longer text/plain).
  for (const element of document.querySelectorAll(`[${blocked}]`)) {
    const serviceId = element.getAttribute('data-service');
    if (element instanceof HTMLScriptElement) {
      if (element.type === 'text/plain') held.push({ element: 'script', src: absolute(element.getAttribute('src')), serviceId });
    } else if (element instanceof HTMLIFrameElement) {
      if (!element.hasAttribute('src')) held.push({ element: 'iframe', src: absolute(element.getAttribute('data-src')), serviceId });
    } else if (element instanceof HTMLImageElement && element.hasAttribute(heldImageSrc)) {
      held.push({ element: 'image', src: absolute(element.getAttribute(heldImageSrc)), serviceId });
    }
  }
  // An iframe the banner replaced by iframemanager's notice keeps its address in `data-id` (`$` doubled).
  for (const box of document.querySelectorAll(`[${placeholder}][data-service][data-id]`)) {
    held.push({ element: 'iframe', src: absolute(box.getAttribute('data-id')!.replace(/\$\$/g, '$')), serviceId: box.getAttribute('data-service') });
  }
  return held;
}

/** Runs in each frame: the names of its origin's Web Storage. */
function frameStorage(): { origin: string; localStorage: string[]; sessionStorage: string[] } {
  const keys = (storage: () => Storage) => {
    try {
      const store = storage();
      return Array.from({ length: store.length }, (_, i) => store.key(i) ?? '');
    } catch {
      return [];
    }
  };
  return { origin: location.origin, localStorage: keys(() => localStorage), sessionStorage: keys(() => sessionStorage) };
}

/** Takes in what the page holds now: cookies, every frame's storage, what the banner holds back; each kept with the page it was first seen on. */
async function read(page: Page, context: BrowserContext, seen: Visit): Promise<void> {
  const where = seen.current;
  const held = (await within(READ_TIMEOUT_MS, page.evaluate(heldInPage, BANNER.blocked, BANNER.heldImageSrc, BANNER.placeholder))) ?? [];
  for (const element of held) {
    const key = `${element.element} ${element.src ?? ''} ${element.serviceId ?? ''}`;
    if (!seen.held.has(key)) seen.held.set(key, { ...element, page: where });
  }
  seen.banner ??= await readBanner(page);
  await Promise.all(
    page.frames().map(async (frame) => {
      const found = await within(READ_TIMEOUT_MS, frame.evaluate(frameStorage));
      if (!found || found.origin === 'null') return;
      for (const storageType of ['localStorage', 'sessionStorage'] as const) {
        for (const name of found[storageType]) {
          const key = `${storageType} ${found.origin} ${name}`;
          if (!seen.storage.has(key)) seen.storage.set(key, { storageType, name, origin: found.origin, page: where });
        }
      }
    }),
  );
  for (const cookie of (await within(READ_TIMEOUT_MS, context.cookies())) ?? []) {
    const key = `${cookie.name} ${cookie.domain} ${cookie.path}`;
    if (seen.cookies.has(key)) continue;
    seen.cookies.set(key, { ...foundCookieOf(cookie, seen.run.site), page: where });
  }
}
