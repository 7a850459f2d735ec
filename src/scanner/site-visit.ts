import type { Browser, BrowserContext, Cookie, HTTPResponse, Page, Protocol } from 'puppeteer-core';
import { getDomain } from 'tldts';
import type { EgressPolicy } from './address-policy.ts';
import { REFUSED_HEADER, type RefusedRequest, UNREACHABLE_HEADER } from './egress-guard.ts';

/**
 * What the crawl (scan.ts) and the compliance check (compliance.ts) share of visiting a site in a
 * context of the shared browser: its failures, its addresses, the start page, the tabs, the reads
 * of a page with a time-out, and the cookies as found.
 */

/** Why a visit of a site failed: the site itself (400), a refused address (400) or the crawl (500). */
export type VisitFailure = 'site' | 'refused' | 'crawl';

/** A visit of a site that failed, and why (ScanError, ConsentCheckError). */
export abstract class VisitError extends Error {
  readonly failure: VisitFailure;
  constructor(failure: VisitFailure, message: string, options?: ErrorOptions) {
    super(message, options);
    this.failure = failure;
  }
}

/** The error a visit fails with (ScanError or ConsentCheckError). */
type VisitErrorClass = new (failure: VisitFailure, message: string) => VisitError;

/**
 * The registrable domain (eTLD+1), counting the private part of the public-suffix list as
 * browsers do: `shop.myshopify.com` and `other.myshopify.com` are different sites.
 */
export const siteOf = (hostname: string) => getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;

/** The address of a page: http(s) only (undefined for anything else), without its fragment. */
export function pageAddress(href: string): string | undefined {
  if (!URL.canParse(href)) return undefined;
  const url = new URL(href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  return url.toString();
}

/** Links to files rather than pages, which visits skip. */
export const NOT_A_PAGE = /\.(?:pdf|zip|gz|rar|7z|jpe?g|png|gif|webp|svg|ico|mp4|mp3|webm|avi|mov|docx?|xlsx?|pptx?|csv|xml|json|txt)$/i;

/** Time kept at the end of a visit's time limit for reading what the pages hold and closing them. */
const WRAP_UP_MS = 1_000;

/** `performance.now()` by which the waits of a visit that started at `started` end, leaving time to wrap up within `totalTimeoutMs`. */
export const waitsEndByOf = (started: number, totalTimeoutMs: number) => started + totalTimeoutMs - Math.min(WRAP_UP_MS, totalTimeoutMs / 5);

/** Time one read of a page, a frame or the cookies may take (a page busy in a script loop does not answer). */
export const READ_TIMEOUT_MS = 5_000;

/** `promise`'s value, or undefined if it fails or takes longer than `ms`. */
export function within<T>(ms: number, promise: Promise<T>): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}

/** Refuses a forbidden start address before a browser is involved (with `Failure`). */
export async function checkStartAddress(policy: EgressPolicy, target: URL, Failure: VisitErrorClass): Promise<void> {
  const first = await policy(target.hostname, Number(target.port || (target.protocol === 'https:' ? 443 : 80)));
  if ('refused' in first) throw new Failure(first.unresolvable ? 'crawl' : 'refused', first.refused);
}

/**
 * A new tab of the context, closed when `signal` stops the visit. It presents itself as the
 * browser would when not headless (browserIdentity), as some sites serve headless browsers
 * differently (no tags, a block page).
 */
export async function newTab(context: BrowserContext, { signal, navigationTimeoutMs }: { signal: AbortSignal; navigationTimeoutMs: number }): Promise<Page> {
  const page = await context.newPage();
  signal.addEventListener('abort', () => void page.close().catch(() => {}));
  page.setDefaultNavigationTimeout(navigationTimeoutMs);
  await page.setUserAgent(await browserIdentity(context.browser()));
  return page;
}

const identities = new WeakMap<Browser, Promise<{ userAgent: string; userAgentMetadata: Protocol.Emulation.UserAgentMetadata }>>();

/**
 * The user agent of `browser` as a Chromium that is not headless sends it: its own, with
 * `HeadlessChrome/` turned into `Chrome/`, and the client hints (`Sec-CH-UA`, sent over HTTPS) to
 * match, naming Chromium rather than HeadlessChrome. Asked of the browser once.
 */
function browserIdentity(browser: Browser) {
  let identity = identities.get(browser);
  if (!identity) {
    identity = (async () => {
      const userAgent = (await browser.userAgent()).replace(/HeadlessChrome\//g, 'Chrome/');
      const fullVersion = /Chrome\/([\d.]+)/.exec(userAgent)?.[1] ?? '0.0.0.0';
      const major = fullVersion.split('.')[0]!;
      const brands = (version: string) => [
        { brand: 'Chromium', version },
        { brand: 'Not_A Brand', version: version === major ? '24' : '24.0.0.0' },
      ];
      const userAgentMetadata: Protocol.Emulation.UserAgentMetadata = {
        brands: brands(major),
        fullVersionList: brands(fullVersion),
        fullVersion,
        platform: ({ darwin: 'macOS', win32: 'Windows' } as Record<string, string>)[process.platform] ?? 'Linux',
        platformVersion: '',
        architecture: process.arch.startsWith('arm') ? 'arm' : 'x86',
        bitness: process.arch.endsWith('64') ? '64' : '32',
        model: '',
        mobile: false,
      };
      return { userAgent, userAgentMetadata };
    })();
    identities.set(browser, identity);
    identity.catch(() => identities.delete(browser));
  }
  return identity;
}

/**
 * Opens the start page `url` in `page` up to DOMContentLoaded and returns its status; fails with
 * `Failure` when it cannot be loaded (refused by the egress guard: `refused`; otherwise `crawl`),
 * when the site answers with an error status (`site`), or not at all.
 */
export async function goToStartPage(page: Page, url: string, refused: RefusedRequest[], Failure: VisitErrorClass): Promise<number> {
  let response: HTTPResponse | null;
  try {
    response = await page.goto(url, { waitUntil: 'domcontentloaded' });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (refused.some((entry) => !entry.unresolvable)) throw new Failure('refused', `refused to open ${url}: ${refusalFor(url, refused)}`);
    const reason = /timeout/i.test(message) ? 'the page did not finish loading in time' : message.replace(/\s+at .*$/s, '');
    throw new Failure('crawl', `could not load ${url}: ${reason}`);
  }
  const status = response?.status() ?? null;
  const headers = response?.headers() ?? {};
  if (headers[REFUSED_HEADER]) throw new Failure('refused', `refused to open ${url}: ${refusalFor(url, refused)}`);
  if (headers[UNREACHABLE_HEADER]) throw new Failure('crawl', `could not reach ${url}: ${headers[UNREACHABLE_HEADER]}`);
  if (status === null) throw new Failure('crawl', `no answer from ${url}`);
  if (status >= 400) throw new Failure('site', `the website answered ${url} with status ${status}`);
  return status;
}

/** Why the guard refused (its latest refusal; the guard notes one before it answers with its refusal header). */
function refusalFor(url: string, refused: RefusedRequest[]): string {
  return refused.at(-1)?.reason ?? `${new URL(url).hostname} is not a public address`;
}

/** Cookie names of a `Set-Cookie` header as puppeteer gives it (several joined by newlines). */
export function setCookieNames(header: string | undefined): string[] {
  if (!header) return [];
  return header.split('\n').flatMap((line) => {
    const name = line.slice(0, line.indexOf('=')).trim();
    return line.includes('=') && name ? [name] : [];
  });
}

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

/** A cookie of the browser as found on the site `site`. */
export function foundCookieOf(cookie: Cookie, site: string): FoundCookie {
  return {
    name: cookie.name,
    domain: cookie.domain,
    path: cookie.path,
    expires: cookie.session || cookie.expires < 0 ? null : new Date(cookie.expires * 1000).toISOString(),
    httpOnly: cookie.httpOnly ?? false,
    secure: cookie.secure,
    sameSite: cookie.sameSite ?? null,
    party: siteOf(cookie.domain.replace(/^\./, '')) === site ? 'first' : 'third',
  };
}
