import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { CATEGORY_OF_PURPOSE } from '../../src/features/banner/banner-config.ts';
import { CONSENT_NAME } from '../../src/features/banner/banner-config.build.ts';
import { THEME_COLORS } from '../../src/features/themes/theme.contract.ts';
import { createSharedBrowser } from '../../src/scanner/browser.ts';
import { CHROMIUM_FLAGS, findChromium } from '../../src/scanner/chromium.ts';
import { createScanner, DEFAULT_SCAN_LIMITS } from '../../src/scanner/scan.ts';
import {
  HELD_TAG_VENDOR,
  type HeldTag,
  type Hold,
  INNER_PAGE,
  pageHtml,
  SITE_URL,
  type SiteMarkup,
  startVendorSite,
  type VendorKey,
  type VendorRequest,
  type VendorSite,
  VENDORS,
} from '../fixtures/vendor-site.ts';
import { createClient, createDomain, type DomainPath } from './fixtures.ts';
import { startTestService, type TestService, type TestServiceOptions } from './service.ts';

/**
 * The fixture law-office site (test/fixtures/vendor-site.ts) onboarded through the service's REST
 * API exactly as the README says — scan, import every service the scan found as `{id}`, apply the
 * legal findings, take the snippet — and a visitor's Chromium for it; and the evidence a visit
 * leaves (what the fake vendor hosts were asked for, every cookie of the context, the web storage
 * of every frame, which vendor scripts ran). Banner tests start from here, not from a
 * configuration written for the test: a setting under test is changed through the API after.
 */

/** Scan limits for a four-page fixture site that still let late tags fire. */
const SCAN_LIMITS = {
  ...DEFAULT_SCAN_LIMITS,
  navigationTimeoutMs: 5_000,
  loadTimeoutMs: 2_000,
  pageWaitMs: 400,
  startPageWaitMs: 800,
  graceMs: 300,
  totalTimeoutMs: 30_000,
};

export type Cookie = { name: string; domain: string; path: string };
export type StorageKey = { origin: string; area: 'localStorage' | 'sessionStorage'; key: string };

/** Everything one visitor state left behind. */
export type Evidence = {
  requests: VendorRequest[];
  ran: Set<VendorKey>;
  cookies: Cookie[];
  storage: StorageKey[];
  /** Script and iframe addresses written in the HTML of the pages visited (noscript content aside). */
  written: { scripts: Set<string>; frames: Set<string> };
  /** What went wrong on the way (a banner that never loaded, a button not found). */
  problems: string[];
};

/** One vendor's part of the evidence, sorted into what the table shows and what breaks the contract. */
export type Finding = {
  ran: boolean;
  /** Script fetches of `<script src>` written in the HTML (the preload scanner). */
  preloaded: string[];
  /** Frame documents of `<iframe src>` written in the HTML. */
  framedByMarkup: string[];
  /** Google Fonts' requests. */
  fonts: string[];
  /** Every other request to the vendor's hosts: contact. */
  contacts: string[];
  cookies: string[];
  storage: string[];
};

const siteOrigin = new URL(SITE_URL).origin;
const siteHost = new URL(SITE_URL).hostname;
const registrable = (domain: string) => domain.replace(/^\./, '').split('.').slice(-2).join('.');

/**
 * The consent itself: the only thing the contract lets the banner keep. That is the choice
 * (`ccm_consent`, a cookie or a localStorage item as the domain says) and iframemanager's
 * `im_<service>` cookie, which remembers that an embed was allowed; `ccm_consent_iframes`, the
 * iframe hosts the visitor allowed (`rememberIframeConsentPerDomain`).
 */
const isConsentName = (name: string) => name === CONSENT_NAME || name === `${CONSENT_NAME}_iframes` || /^im_[0-9a-f-]{36}$/.test(name);
const isNecessaryCookie = (cookie: Cookie) => isConsentName(cookie.name) && cookie.domain.replace(/^\./, '').endsWith(registrable(siteHost));
const isNecessaryStorage = (item: StorageKey) => isConsentName(item.key) && item.origin === siteOrigin;

const vendorOfCookie = (cookie: Cookie): VendorKey | null =>
  VENDORS.find((vendor) => vendor.cookieDomains.includes(registrable(cookie.domain)))?.key ??
  VENDORS.find((vendor) => vendor.cookieNames.test(cookie.name))?.key ??
  null;
const vendorOfStorage = (item: StorageKey): VendorKey | null => {
  const host = new URL(item.origin).hostname;
  return VENDORS.find((vendor) => vendor.cookieDomains.includes(registrable(host)))?.key ?? (item.key.startsWith('_hj') ? 'hotjar' : null);
};

/** The addresses of executable `<script src>` and of `<iframe src>` in a page, leaving out `<noscript>` (inert with scripting on). */
function writtenAddresses(html: string) {
  const live = html.replace(/<noscript>[\s\S]*?<\/noscript>/g, '');
  const decode = (value: string) => value.replace(/&amp;/g, '&');
  const scripts = [...live.matchAll(/<script\b([^>]*)>/g)]
    .map((match) => match[1]!)
    .filter((attributes) => !/\stype="(?!text\/javascript"|module")/.test(attributes))
    .flatMap((attributes) => /\ssrc="([^"]+)"/.exec(attributes)?.[1] ?? [])
    .map(decode);
  const frames = [...live.matchAll(/<iframe\b[^>]*?\ssrc="([^"]+)"/g)].map((match) => decode(match[1]!));
  return { scripts, frames };
}

const addressOf = (request: VendorRequest) => `https://${request.host}${request.path}${request.search}`;
const where = (request: VendorRequest) => `${request.host}${request.path}`;
const unique = (items: string[]) => [...new Set(items)];

export function findingsOf(evidence: Evidence): { byVendor: Map<VendorKey, Finding>; unattributed: string[] } {
  const byVendor = new Map<VendorKey, Finding>(
    VENDORS.map((vendor) => [vendor.key, { ran: evidence.ran.has(vendor.key), preloaded: [], framedByMarkup: [], fonts: [], contacts: [], cookies: [], storage: [] }]),
  );
  const unattributed: string[] = [];
  for (const request of evidence.requests) {
    const finding = request.vendor ? byVendor.get(request.vendor)! : null;
    if (!finding) {
      unattributed.push(`request to ${where(request)}`);
      continue;
    }
    if (request.vendor === 'googleFonts') finding.fonts.push(`${request.kind} ${request.host}`);
    else if (request.kind === 'script' && evidence.written.scripts.has(addressOf(request))) finding.preloaded.push(where(request));
    else if (request.kind === 'frame document' && evidence.written.frames.has(addressOf(request))) finding.framedByMarkup.push(where(request));
    else finding.contacts.push(`${request.kind} ${where(request)}`);
  }
  for (const cookie of evidence.cookies) {
    if (isNecessaryCookie(cookie)) continue;
    const vendor = vendorOfCookie(cookie);
    const text = `${cookie.name} (${cookie.domain})`;
    if (vendor) byVendor.get(vendor)!.cookies.push(text);
    else unattributed.push(`cookie ${text}`);
  }
  for (const item of evidence.storage) {
    if (isNecessaryStorage(item)) continue;
    const vendor = vendorOfStorage(item);
    const text = `${item.area} ${item.key} (${item.origin})`;
    if (vendor) byVendor.get(vendor)!.storage.push(text);
    else unattributed.push(text);
  }
  for (const finding of byVendor.values()) {
    for (const key of ['preloaded', 'framedByMarkup', 'fonts', 'contacts', 'cookies', 'storage'] as const) finding[key] = unique(finding[key]);
  }
  return { byVendor, unattributed: unique(unattributed) };
}

/** A leak-table cell: what happened, shortest first. */
export function describeFinding(finding: Finding): string {
  const facts: string[] = [];
  // A vendor that ran was let in: the requests written in the markup are then simply its requests.
  const contacts = finding.ran ? [...finding.preloaded, ...finding.framedByMarkup, ...finding.contacts] : finding.contacts;
  if (finding.ran) facts.push('ran');
  else {
    if (finding.preloaded.length > 0) facts.push('fetched, not run');
    if (finding.framedByMarkup.length > 0) facts.push('frame requested (iframe src in the HTML: known limit)');
  }
  if (finding.fonts.length > 0) facts.push(`fetched: ${finding.fonts.map((font) => font.split(' ')[0]).join(' + ')} (not blockable)`);
  const hosts = unique(contacts.map((contact) => contact.split(' ').at(-1)!.split('/')[0]!)).sort();
  if (hosts.length > 0) facts.push(`request to ${hosts.join(', ')}`);
  const cookies = unique(finding.cookies.map((cookie) => cookie.split(' ')[0]!)).sort();
  if (cookies.length > 0) facts.push(`cookie ${cookies.join(', ')}`);
  const keys = unique(finding.storage.map((item) => item.split(' ')[1]!)).sort();
  if (keys.length > 0) facts.push(`storage ${keys.join(', ')}`);
  return facts.length > 0 ? facts.join('; ') : 'clean';
}

/** Set in every document before its own scripts: tells the test when the banner has started (it changes nothing the page does). */
const WATCH_BANNER = () => {
  addEventListener('ccm19WidgetLoaded', () => ((window as unknown as { __bannerLoaded: boolean }).__bannerLoaded = true));
};

async function settle(page: Page) {
  await page.waitForNetworkIdle({ idleTime: 500, timeout: 6_000 }).catch(() => undefined);
}

/** Records what the page's frames hold now: the flags of the vendor scripts that ran, and their web storage. */
async function snapshot(page: Page, evidence: Evidence) {
  for (const frame of page.frames()) {
    const seen = await frame
      .evaluate(() => {
        const keys = (area: Storage | undefined) => {
          try {
            return area ? Object.keys(area) : [];
          } catch {
            return [];
          }
        };
        return {
          origin: location.origin,
          ran: Object.keys((window as unknown as { __ran?: Record<string, unknown> }).__ran ?? {}),
          localStorage: keys(globalThis.localStorage),
          sessionStorage: keys(globalThis.sessionStorage),
        };
      })
      .catch(() => null);
    if (!seen || seen.origin === 'null') continue;
    for (const flag of seen.ran) if (VENDORS.some((vendor) => vendor.key === flag)) evidence.ran.add(flag as VendorKey);
    for (const area of ['localStorage', 'sessionStorage'] as const) {
      for (const key of seen[area]) {
        if (!evidence.storage.some((item) => item.origin === seen.origin && item.area === area && item.key === key)) evidence.storage.push({ origin: seen.origin, area, key });
      }
    }
  }
  const session = await page.createCDPSession();
  try {
    const { cookies } = (await session.send('Network.getAllCookies')) as { cookies: Cookie[] };
    for (const { name, domain, path } of cookies) {
      if (!evidence.cookies.some((cookie) => cookie.name === name && cookie.domain === domain && cookie.path === path)) evidence.cookies.push({ name, domain, path });
    }
  } finally {
    await session.detach().catch(() => undefined);
  }
}


/** Each vendor's embedding as the onboarding made it. */
export type OnboardedEmbedding = { id: string; category: string; active: boolean };

export type OnboardedSite = {
  site: VendorSite;
  service: TestService;
  domain: DomainPath;
  /** The snippet the onboarding hands out (`default`: the visitor's language). */
  snippet: string;
  /** Each vendor's embedding (none: the scan did not recognise it). */
  embeddings: Map<VendorKey, OnboardedEmbedding>;
  /** What the scan offered as presets. */
  scanFound: { id: number; name: string }[];
  legalFindings: string;
  /** A visitor's Chromium: the site's and the vendors' names resolve to the fixture servers. */
  browser: Browser;
  /** The markup the README advises with every onboarded tag held, or the snippet alone. */
  markup(variant: 'snippet-only' | 'advised'): SiteMarkup;
  close(): Promise<void>;
};

/** Starts the fixture site and a service, onboards the site the README's way, and launches a visitor's browser. */
export async function onboardVendorSite(
  options: Omit<TestServiceOptions, 'scanner'> & {
    /** More host names the visitor's browser resolves to the site's server (the same pages under another name). */
    siteAliases?: string[];
  } = {},
): Promise<OnboardedSite> {
  const { siteAliases = [], ...serviceOptions } = options;
  const site = await startVendorSite();
  // The scan's own browser closes as soon as the scan ends: the visitor's is the one browser after that.
  const scanner = createScanner({ browser: createSharedBrowser({ acceptInsecureCerts: true, idleCloseMs: 0 }), policy: site.policy, limits: SCAN_LIMITS });
  const service = await startTestService({ publicBaseUrl: 'self', ...serviceOptions, scanner });
  const client = await createClient(service);
  const domain = await createDomain(service, SITE_URL, { clientId: client.id });

  const scan = await service.rest('GET', `${domain.base}/onboarding/scan`);
  expect(scan.status, scan.text).toBe(200);
  const scanFound: { id: number; name: string }[] = scan.body.availablePresets.map(({ id, name }: { id: number; name: string }) => ({ id, name }));
  // Every service found, in the README example's plain form `{"id":1}`: whether that puts the
  // service in the banner is the onboarding's default.
  const imported = await service.rest(
    'POST',
    `${domain.base}/onboarding/presets`,
    scanFound.map(({ id }) => ({ id })),
  );
  expect(imported.status, imported.text).toBe(201);
  const embeddingOfPreset = new Map<number, string>(imported.body.map((row: { presetId: number; embeddingId: string }) => [row.presetId, row.embeddingId]));
  const stored = await service.rest('GET', `${domain.base}/embedding`);
  expect(stored.status, stored.text).toBe(200);
  const embeddings = new Map<VendorKey, OnboardedEmbedding>();
  for (const vendor of VENDORS) {
    const preset = scanFound.find((found) => found.name === vendor.preset);
    const embeddingId = preset && embeddingOfPreset.get(preset.id);
    const embedding = (stored.body as { id: string; purpose: keyof typeof CATEGORY_OF_PURPOSE; active: boolean }[]).find((row) => row.id === embeddingId);
    if (embedding) embeddings.set(vendor.key, { id: embedding.id, category: CATEGORY_OF_PURPOSE[embedding.purpose], active: embedding.active });
  }

  // The scan's legal findings go into the placeholders, where REST has a route for it (the
  // service's OpenAPI document says; older versions had the GraphQL mutation only).
  let legalFindings = 'skipped: no REST route for the legal findings (GraphQL applyLegalFindings only)';
  const openApi = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const legalRoute = Object.entries(openApi.paths).find(([path, methods]) => /legal/i.test(path) && ('post' in methods || 'put' in methods));
  if (legalRoute) {
    const [template, methods] = legalRoute;
    const path = template.replace('{clientId}', domain.clientId).replace('{domainId}', domain.domainId);
    const findings = { address: scan.body.address, imprintUrl: scan.body.imprintUrl, privacyPolicyUrl: scan.body.privacyPolicyUrl };
    const applied = await service.rest('post' in methods ? 'POST' : 'PUT', path, findings);
    expect(applied.status, applied.text).toBeLessThan(300);
    legalFindings = `applied through ${template}`;
  }

  const embed = await service.rest('GET', `${domain.base}/onboarding/embed`);
  expect(embed.status, embed.text).toBe(200);
  const snippet: string = embed.body.default;
  // The first banner asked for builds the runtime bundles when the install did not: not on a visitor's clock.
  await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`).then((answer) => answer.text());

  const binary = await findChromium(process.env.CHROME_PATH);
  const browser = await puppeteer.launch({
    executablePath: binary.path,
    headless: 'shell',
    acceptInsecureCerts: true,
    args: [...CHROMIUM_FLAGS, `--host-resolver-rules=${withAliases(site.hostResolverRules, siteAliases)}`],
  });

  return {
    site,
    service,
    domain,
    snippet,
    embeddings,
    scanFound,
    legalFindings,
    browser,
    markup(variant) {
      if (variant === 'snippet-only') return { variant, snippet };
      const hold: Partial<Record<HeldTag, Hold>> = {};
      for (const [tag, vendor] of Object.entries(HELD_TAG_VENDOR) as [HeldTag, VendorKey][]) {
        const embedding = embeddings.get(vendor);
        if (embedding) hold[tag] = { category: embedding.category, service: embedding.id };
      }
      return { variant, snippet, hold };
    },
    async close() {
      await browser.close();
      await service.close();
      await site.close();
    },
  };
}

/** The browser's resolver rules with `aliases` mapped where the site's own host is (rules apply first match first). */
function withAliases(rules: string, aliases: string[]): string {
  const siteRule = rules.split(', ').find((rule) => rule.startsWith(`MAP ${new URL(SITE_URL).hostname} `))!;
  const target = siteRule.split(' ')[2]!;
  return [...aliases.map((alias) => `MAP ${alias} ${target}`), rules].join(', ');
}

/** A visitor in a fresh incognito context: opens pages, clicks the banner, and collects the evidence. */
export type Visit = {
  page: Page;
  /** Opens `path` (or reloads), waits for the banner to start (unless it already did not once) and for the network to settle, and records the evidence. */
  open(path: string | 'reload'): Promise<void>;
  /** Clicks a banner button once its modal stands still; a failure is recorded as a problem. */
  click(selector: string): Promise<void>;
  /** Records the evidence after a choice. */
  chosen(): Promise<void>;
  /** Whether the banner started on every page opened so far. */
  readonly bannerStarted: boolean;
  /** Notes something that did not go as planned (it ends up in the evidence). */
  problem(text: string): void;
  /** Closes the context and answers the evidence, including the vendor requests made since the visit began. */
  finish(): Promise<Evidence>;
};

/**
 * Starts a visit of the onboarded site in `markup`. `bannerWaitMs`: how long a page waits for the
 * banner to start (0: not at all, for a visitor who should get no banner).
 */
export async function startVisit(onboarded: OnboardedSite, markup: SiteMarkup, { bannerWaitMs = 8_000, paths = ['/', INNER_PAGE] }: { bannerWaitMs?: number; paths?: string[] } = {}): Promise<Visit> {
  const { site, browser } = onboarded;
  site.serve(markup);
  const evidence: Evidence = { requests: [], ran: new Set(), cookies: [], storage: [], written: { scripts: new Set(), frames: new Set() }, problems: [] };
  for (const path of paths) {
    const html = pageHtml(path, markup);
    if (!html) continue;
    const { scripts, frames } = writtenAddresses(html);
    scripts.forEach((address) => evidence.written.scripts.add(address));
    frames.forEach((address) => evidence.written.frames.add(address));
  }
  const from = site.requests.length;
  const context: BrowserContext = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.evaluateOnNewDocument(WATCH_BANNER);
  let bannerStarts = bannerWaitMs > 0;
  return {
    page,
    get bannerStarted() {
      return bannerStarts;
    },
    problem(text) {
      evidence.problems.push(text);
    },
    async open(path) {
      if (path === 'reload') await page.reload({ waitUntil: 'load' });
      else await page.goto(new URL(path, SITE_URL).href, { waitUntil: 'load' });
      if (bannerStarts) {
        await page
          .waitForFunction(() => (window as unknown as { __bannerLoaded?: boolean }).__bannerLoaded === true, { timeout: bannerWaitMs })
          .catch(() => {
            bannerStarts = false;
            evidence.problems.push(`the banner did not start on ${path} within ${bannerWaitMs / 1000} s`);
          });
      }
      await settle(page);
      await snapshot(page, evidence);
    },
    async click(selector) {
      if (!bannerStarts) return;
      try {
        await page.waitForSelector(selector, { visible: true, timeout: 5_000 });
        // The modals slide and fade in; a click before they stand still can miss.
        await page.waitForFunction(
          (selector) => {
            const modal = document.querySelector(selector)?.closest('.cm, .pm');
            return !!modal && getComputedStyle(modal).opacity === '1' && modal.getAnimations().length === 0;
          },
          { timeout: 5_000 },
          selector,
        );
        await page.click(selector);
      } catch (error) {
        evidence.problems.push(`could not click ${selector}: ${(error as Error).message.split('\n')[0]}`);
      }
    },
    async chosen() {
      await settle(page);
      await snapshot(page, evidence);
    },
    async finish() {
      await context.close();
      // Beacons sent as a page unloads may still be on their way.
      await new Promise((resolve) => setTimeout(resolve, 300));
      evidence.requests = site.requests.slice(from);
      return evidence;
    },
  };
}

/**
 * The REST path of the domain's default theme, the one the banner shows: the onboarding's, or a
 * new one named `name` (readable colours) when the onboarding made none. A test changes the
 * theme setting under test there.
 */
export async function defaultThemePath(onboarded: OnboardedSite, name: string): Promise<string> {
  const { service, domain } = onboarded;
  const themes = await service.rest('GET', `${domain.base}/theme`);
  expect(themes.status, themes.text).toBe(200);
  let themeId: string | undefined = (themes.body as { id: string; default: boolean }[]).find((theme) => theme.default)?.id;
  if (!themeId) {
    const colours = Object.fromEntries(THEME_COLORS.map((colour) => [colour, colour.endsWith('BackgroundColor') ? '#ffffff' : '#224466']));
    const created = await service.rest('POST', `${domain.base}/theme`, { name, default: true, ...colours });
    expect(created.status, created.text).toBe(201);
    themeId = created.body.id as string;
  }
  return `${domain.base}/theme/${themeId}`;
}

/** The vendor requests since `start` (an index into the site's request log), Google Fonts aside: they load with the page whatever a banner does. */
export const vendorRequestsSince = (onboarded: OnboardedSite, start: number): string[] =>
  onboarded.site.requests
    .slice(start)
    .filter((request) => request.vendor && request.vendor !== 'googleFonts')
    .map((request) => `${request.vendor}: ${request.host}${request.path}`);

/** Whether the banner's first layer is showing on `page`. */
export const bannerShown = (page: Page) =>
  page.evaluate(() => {
    const modal = document.querySelector<HTMLElement>('#cc-main .cm');
    return document.documentElement.classList.contains('show--consent') || (!!modal && getComputedStyle(modal).visibility !== 'hidden');
  });

/** The onboarded domain's consent records, as its log lists them. */
export async function consentRecordsOf(onboarded: OnboardedSite): Promise<unknown[]> {
  const answer = await onboarded.service.rest('GET', `${onboarded.domain.base}/consent?limit=1000`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.records as unknown[];
}
