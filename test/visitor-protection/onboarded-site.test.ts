import { writeFile } from 'node:fs/promises';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_OF_PURPOSE } from '../../src/features/banner/banner-config.ts';
import { CONSENT_NAME } from '../../src/features/banner/banner-config.build.ts';
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
import { createClient, createDomain, type DomainPath } from '../support/fixtures.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * What a visitor of a site onboarded the documented way gets, proven on the network.
 *
 * The fixture site (test/fixtures/vendor-site.ts) carries the vendors' stock snippets; the
 * onboarding runs through the service's REST API as the README describes it (scan, import every
 * service the scan found, snippet); then a visitor's Chromium opens the site in two markups
 * (snippet only; rewritten as the README advises) and four states (no choice yet, "reject all",
 * "accept all", one category through the settings), each in a fresh incognito context. The
 * evidence is what the fake vendor hosts were asked for, every cookie of the context (CDP), the
 * web storage of every frame, and which vendor scripts ran.
 *
 * The contract (the visitor-side spec; the README's "The banner on the site"): before a choice
 * and after "reject all" no vendor script runs, no tracking host is contacted and nothing but the
 * consent itself is stored. Three kinds of contact are recorded
 * instead of failed, because no script on the page can prevent them:
 * - a `<script src>` written in the HTML may be fetched by Chromium's preload scanner before the
 *   banner's code has seen it; fetched is not run ("fetched, not run");
 * - an `<iframe src>` written in the HTML is requested as the parser inserts it (the snippet-only
 *   markup): a known limit, not a pass;
 * - Google Fonts' stylesheet and font files load as the parser reaches the `<link>`.
 * After "accept all" every vendor runs (so the fixture does work); with one category accepted,
 * only that category's vendors run.
 *
 * At the end the suite prints a leak table (markdown, for the README); with LEAK_TABLE_OUT set it
 * also writes it to that file.
 */

const STATES = ['before', 'reject', 'accept', 'analytics'] as const;
type State = (typeof STATES)[number];
const STATE_LABEL: Record<State, string> = {
  before: 'before a choice',
  reject: 'after “reject all”',
  accept: 'after “accept all”',
  analytics: 'analytics only',
};
/** The category the one-category state accepts. */
const ONE_CATEGORY = 'analytics';

const VARIANTS = ['snippet-only', 'advised'] as const;
type Variant = (typeof VARIANTS)[number];
const VARIANT_LABEL: Record<Variant, string> = { 'snippet-only': 'snippet only', advised: 'advised markup' };

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

type Cookie = { name: string; domain: string; path: string };
type StorageKey = { origin: string; area: 'localStorage' | 'sessionStorage'; key: string };

/** Everything one visitor state left behind. */
type Evidence = {
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
type Finding = {
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
 * `im_<service>` cookie, which remembers that an embed was allowed.
 */
const isConsentName = (name: string) => name === CONSENT_NAME || /^im_[0-9a-f-]{36}$/.test(name);
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

function findingsOf(evidence: Evidence): { byVendor: Map<VendorKey, Finding>; unattributed: string[] } {
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
function describeFinding(finding: Finding): string {
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

// ── the visitor ─────────────────────────────────────────────────────────────────────────────

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

describe('a site onboarded as the README says, seen by its visitors', () => {
  let site: VendorSite;
  let service: TestService;
  let domain: DomainPath;
  let browser: Browser;
  let snippet: string;
  /** Each vendor's embedding, as the onboarding made it (none: the scan did not recognise it). */
  const embeddings = new Map<VendorKey, { id: string; category: string; active: boolean }>();
  let scanFound: { id: number; name: string }[] = [];
  let legalFindings = 'not applied';
  const results = new Map<string, ReturnType<typeof findingsOf> & { evidence: Evidence }>();
  /** Whether a visitor saw no banner start (the configuration has nothing to ask, or the banner fails). */
  let bannerMissing = false;

  beforeAll(async () => {
    site = await startVendorSite();
    // The scan's own browser closes as soon as the scan ends: the visitor's is the suite's one browser after that.
    const scanner = createScanner({ browser: createSharedBrowser({ acceptInsecureCerts: true, idleCloseMs: 0 }), policy: site.policy, limits: SCAN_LIMITS });
    service = await startTestService({ scanner, publicBaseUrl: 'self' });
    const client = await createClient(service);
    domain = await createDomain(service, SITE_URL, { clientId: client.id });

    // "Onboarding a website", step by step.
    const scan = await service.rest('GET', `${domain.base}/onboarding/scan`);
    expect(scan.status, scan.text).toBe(200);
    scanFound = scan.body.availablePresets.map(({ id, name }: { id: number; name: string }) => ({ id, name }));
    // Every service found, in the README example's plain form `{"id":1}`: whether that puts the
    // service in the banner is the onboarding's default (an inactive embedding is left out of the
    // banner, so nothing of that service would be held back).
    const imported = await service.rest(
      'POST',
      `${domain.base}/onboarding/presets`,
      scanFound.map(({ id }) => ({ id })),
    );
    expect(imported.status, imported.text).toBe(201);
    const embeddingOfPreset = new Map<number, string>(imported.body.map((row: { presetId: number; embeddingId: string }) => [row.presetId, row.embeddingId]));
    const stored = await service.rest('GET', `${domain.base}/embedding`);
    expect(stored.status, stored.text).toBe(200);
    for (const vendor of VENDORS) {
      const preset = scanFound.find((found) => found.name === vendor.preset);
      const embeddingId = preset && embeddingOfPreset.get(preset.id);
      const embedding = (stored.body as { id: string; purpose: keyof typeof CATEGORY_OF_PURPOSE; active: boolean }[]).find((row) => row.id === embeddingId);
      if (embedding) embeddings.set(vendor.key, { id: embedding.id, category: CATEGORY_OF_PURPOSE[embedding.purpose], active: embedding.active });
    }

    // The scan's legal findings go into the placeholders, where REST has a route for it (the
    // service's OpenAPI document says; older versions had the GraphQL mutation only).
    const openApi = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const legalRoute = Object.entries(openApi.paths).find(([path, methods]) => /legal/i.test(path) && ('post' in methods || 'put' in methods));
    if (legalRoute) {
      const [template, methods] = legalRoute;
      const path = template.replace('{clientId}', domain.clientId).replace('{domainId}', domain.domainId);
      const findings = { address: scan.body.address, imprintUrl: scan.body.imprintUrl, privacyPolicyUrl: scan.body.privacyPolicyUrl };
      const applied = await service.rest('post' in methods ? 'POST' : 'PUT', path, findings);
      expect(applied.status, applied.text).toBeLessThan(300);
      legalFindings = `applied through ${template}`;
    } else {
      legalFindings = 'skipped: no REST route for the legal findings (GraphQL applyLegalFindings only)';
    }

    const embed = await service.rest('GET', `${domain.base}/onboarding/embed`);
    expect(embed.status, embed.text).toBe(200);
    snippet = embed.body.default;
    // The first banner asked for builds the runtime bundles when the install did not: not on a visitor's clock.
    await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`).then((answer) => answer.text());

    const binary = await findChromium(process.env.CHROME_PATH);
    browser = await puppeteer.launch({
      executablePath: binary.path,
      headless: 'shell',
      acceptInsecureCerts: true,
      args: [...CHROMIUM_FLAGS, `--host-resolver-rules=${site.hostResolverRules}`],
    });
  }, 120_000);

  afterAll(async () => {
    const table = leakTable();
    if (table) {
      console.log(table);
      if (process.env.LEAK_TABLE_OUT) await writeFile(process.env.LEAK_TABLE_OUT, `${table}\n`);
    }
    await browser?.close();
    await service?.close();
    await site?.close();
  }, 60_000);

  const markupOf = (variant: Variant): SiteMarkup => {
    if (variant === 'snippet-only') return { variant, snippet };
    const hold: Partial<Record<HeldTag, Hold>> = {};
    for (const [tag, vendor] of Object.entries(HELD_TAG_VENDOR) as [HeldTag, VendorKey][]) {
      const embedding = embeddings.get(vendor);
      if (embedding) hold[tag] = { category: embedding.category, service: embedding.id };
    }
    return { variant, snippet, hold };
  };

  /** One visitor in a fresh incognito context, going through `state`; its evidence. */
  async function visit(variant: Variant, state: State): Promise<Evidence> {
    const markup = markupOf(variant);
    site.serve(markup);
    const evidence: Evidence = { requests: [], ran: new Set(), cookies: [], storage: [], written: { scripts: new Set(), frames: new Set() }, problems: [] };
    for (const path of ['/', INNER_PAGE]) {
      const { scripts, frames } = writtenAddresses(pageHtml(path, markup)!);
      scripts.forEach((address) => evidence.written.scripts.add(address));
      frames.forEach((address) => evidence.written.frames.add(address));
    }
    const from = site.requests.length;
    const context: BrowserContext = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      await page.evaluateOnNewDocument(WATCH_BANNER);
      // A banner that did not start on the first page will not on the next: no more waiting for it
      // then; and once it never started for a visitor, the next visitors give it less time.
      let bannerStarts = true;
      const open = async (path: string | 'reload') => {
        if (path === 'reload') await page.reload({ waitUntil: 'load' });
        else await page.goto(new URL(path, SITE_URL).href, { waitUntil: 'load' });
        if (bannerStarts) {
          const timeout = bannerMissing ? 3_000 : 8_000;
          await page
            .waitForFunction(() => (window as unknown as { __bannerLoaded?: boolean }).__bannerLoaded === true, { timeout })
            .catch(() => {
              bannerStarts = false;
              bannerMissing = true;
              evidence.problems.push(`the banner did not start on ${path} within ${timeout / 1000} s`);
            });
        }
        await settle(page);
        await snapshot(page, evidence);
      };
      const click = async (selector: string) => {
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
      };
      const chosen = async () => {
        await settle(page);
        await snapshot(page, evidence);
      };

      await open('/');
      if (state === 'reject') {
        await click('#cc-main .cm__btn[data-role="necessary"]');
        await chosen();
        await open('reload');
      } else if (state === 'accept') {
        await click('#cc-main .cm__btn[data-role="all"]');
        await chosen();
      } else if (state === 'analytics') {
        await click('#cc-main .cm__btn[data-role="show"]');
        if (bannerStarts) await page.waitForSelector(`#cc-main .pm input.section__toggle[value="${ONE_CATEGORY}"]`, { timeout: 5_000 }).catch(() => undefined);
        const toggled = await page.evaluate((category) => {
          const toggle = document.querySelector<HTMLInputElement>(`#cc-main .pm input.section__toggle[value="${category}"]`);
          if (!toggle) return false;
          if (!toggle.checked) toggle.click();
          return toggle.checked;
        }, ONE_CATEGORY);
        if (!toggled && bannerStarts) evidence.problems.push(`the settings have no “${ONE_CATEGORY}” category to switch on`);
        await click('#cc-main .pm__btn[data-role="save"]');
        await chosen();
        await open('reload');
      }
      await open(INNER_PAGE);
    } finally {
      await context.close();
    }
    // Beacons sent as a page unloads may still be on their way.
    await new Promise((resolve) => setTimeout(resolve, 300));
    evidence.requests = site.requests.slice(from);
    return evidence;
  }

  it('onboards the site: the scan recognises every vendor of the page, and each gets an embedding', () => {
    const missing = VENDORS.filter((vendor) => !embeddings.has(vendor.key)).map((vendor) => vendor.preset);
    expect.soft(missing, `the scan found ${scanFound.map((found) => found.name).join(', ')}`).toEqual([]);
    expect(snippet).toContain(`/app.js?domain=${domain.domainId}`);
  });

  for (const variant of VARIANTS) {
    describe(VARIANT_LABEL[variant], () => {
      for (const state of STATES) {
        it(STATE_LABEL[state], { timeout: 90_000 }, async () => {
          const evidence = await visit(variant, state);
          const found = findingsOf(evidence);
          results.set(`${variant} ${state}`, { ...found, evidence });
          expect.soft(evidence.problems, 'the visit went as planned').toEqual([]);
          assertContract(state, found);
        });
      }
    });
  }

  /** The contract of a state, one soft assertion per vendor and kind of evidence, so that a run names every breach. */
  function assertContract(state: State, { byVendor, unattributed }: ReturnType<typeof findingsOf>) {
    for (const vendor of VENDORS) {
      const finding = byVendor.get(vendor.key)!;
      if (allowed(state, vendor.key)) {
        if (vendor.runs) expect.soft(finding.ran, `${vendor.label} runs once allowed`).toBe(true);
        continue;
      }
      if (vendor.runs) expect.soft(finding.ran, `${vendor.label} must not run`).toBe(false);
      expect.soft(finding.contacts, `${vendor.label}: requests to its hosts`).toEqual([]);
      expect.soft(finding.cookies, `${vendor.label}: cookies`).toEqual([]);
      expect.soft(finding.storage, `${vendor.label}: web storage`).toEqual([]);
    }
    if (state !== 'accept') expect.soft(unattributed, 'nothing else is stored or contacted').toEqual([]);
  }

  /**
   * Whether the visitor let the vendor in: everything after "accept all" (the fixture must then
   * work), with one category only the services the banner lists in it (an inactive embedding is
   * not in the banner, so nobody accepted it).
   */
  function allowed(state: State, vendor: VendorKey): boolean {
    const embedding = embeddings.get(vendor);
    return state === 'accept' || (state === 'analytics' && !!embedding?.active && embedding.category === ONE_CATEGORY);
  }

  /** Whether a cell breaks the contract of its state (what assertContract checks). */
  function breaks(state: State, vendor: VendorKey, finding: Finding): boolean {
    if (allowed(state, vendor)) {
      return VENDORS.find((candidate) => candidate.key === vendor)!.runs && !finding.ran;
    }
    return finding.ran || finding.contacts.length > 0 || finding.cookies.length > 0 || finding.storage.length > 0;
  }

  function leakTable(): string | null {
    if (results.size === 0) return null;
    const columns = VARIANTS.flatMap((variant) => STATES.map((state) => ({ variant, state, key: `${variant} ${state}` })));
    const escape = (text: string) => text.replace(/\|/g, '\\|');
    const lines = [
      `| Vendor (category) | Gets in as | ${columns.map(({ variant, state }) => `${VARIANT_LABEL[variant]}: ${STATE_LABEL[state]}`).join(' | ')} |`,
      `| --- | --- | ${columns.map(() => '---').join(' | ')} |`,
    ];
    for (const vendor of VENDORS) {
      const embedding = embeddings.get(vendor.key);
      const category = embedding ? `${embedding.category}${embedding.active ? '' : ', inactive'}` : 'no embedding';
      const cells = columns.map(({ state, key }) => {
        const result = results.get(key);
        if (!result) return 'not run';
        const finding = result.byVendor.get(vendor.key)!;
        return `${breaks(state, vendor.key, finding) ? '✗ ' : ''}${describeFinding(finding)}`;
      });
      lines.push(`| ${escape(vendor.label)} (${category}) | ${vendor.arrival} | ${cells.map(escape).join(' | ')} |`);
    }
    const others = columns.map(({ key }) => results.get(key)?.unattributed ?? []);
    if (others.some((items) => items.length > 0)) {
      lines.push(`| anything else | | ${others.map((items) => escape(items.length > 0 ? items.join('; ') : 'clean')).join(' | ')} |`);
    }
    return [
      '## Leak table: a site onboarded as the README says',
      '',
      `Scan found: ${scanFound.map((found) => found.name).join(', ') || 'nothing'}. Legal findings: ${legalFindings}.`,
      '“✗” marks a cell that breaks the contract: before a choice or after “reject all” (and for the categories not accepted) no vendor script runs,',
      'no vendor host is contacted and nothing but the consent is stored; once accepted, the vendor runs. “fetched, not run”: Chromium’s preload',
      'scanner fetched a `<script src>` written in the HTML, which never ran. An `<iframe src>` in the HTML is requested before any script can act',
      '(known limit); Google Fonts load with the page (not blockable by a banner).',
      '',
      ...lines,
    ].join('\n');
  }
});
