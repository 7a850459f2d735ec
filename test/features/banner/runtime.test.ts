import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BannerConfig } from '../../../src/features/banner/banner-config.ts';
import { consentIntake } from '../../../src/features/consents/consent.contract.ts';
import { appScript, loadBannerBundles, type BannerBundles } from '../../../src/features/banner/runtime-bundle.ts';
import { BANNER_CONFIG, SERVICE_IDS } from './fixtures/banner-config.ts';
import { fixturePage } from './fixtures/page.ts';
import { clickInModal, launchVisitorBrowser, listenOnLoopback } from './fixtures/browser.ts';

/**
 * The banner in a real (headless) Chromium: app.js first in a page's <head>, as a site embeds
 * it, on pages of a small server of this test. The page is at a host name (a site's cookies
 * have a domain); the "YouTube" iframe comes from the same server at 127.0.0.1, so nothing
 * leaves the machine and the server sees whether the frame was requested.
 */

const SITE = 'shop.internal';

/**
 * The configurations a page can ask app.js for (`?config=`); `reset` asks again for consents
 * given before now. Records of choices go to this test's server at 127.0.0.1 (another origin
 * than the page's, as the service's is a site's): `flaky` to an intake that first answers 503,
 * `refused` to one that answers 400.
 */
const CONFIGS: Record<string, () => BannerConfig> = {
  base: () => withRecords('/consent'),
  english: () => ({ ...withRecords('/consent'), fixedLocale: 'en_US' }),
  revised: () => ({ ...withRecords('/consent'), revision: 2 }),
  reset: () => ({ ...withRecords('/consent'), consent: { ...BANNER_CONFIG.consent, resetBefore: new Date().toISOString() } }),
  flaky: () => withRecords('/consent-flaky'),
  refused: () => withRecords('/consent-refused'),
};
const withRecords = (path: string): BannerConfig => ({ ...BANNER_CONFIG, consentRecordUrl: `http://127.0.0.1:${port}${path}` });

const FRAME_PATH = '/fake-youtube.com/embed/x';
/** The same, written by the site with `data-src`. */
const HELD_FRAME_PATH = '/fake-youtube.com/embed/held';
const MAP_PATH = '/maps.example/embed';
const SCRIPTS: Record<string, string> = {
  '/ads.js': 'window.adsRan = (window.adsRan || 0) + 1;',
  '/chat-loader.js': 'window.chatLoaderRan = (window.chatLoaderRan || 0) + 1;',
};

let bundles: BannerBundles;
let server: Server;
let browser: Browser;
let port: number;
/** Paths the server was asked for, in order. */
const requested: string[] = [];
const site = () => `http://${SITE}:${port}`;
const times = (path: string) => requested.filter((entry) => entry === path).length;

/** A request to one of the server's consent intakes: what the banner sent, and whether `POST /consent` would take it. */
type Delivery = { method: string; path: string; contentType: string | undefined; body: any; valid: boolean };
const deliveries: Delivery[] = [];
const records = (path = '/consent') => deliveries.filter((delivery) => delivery.path === path && delivery.method === 'POST').map((delivery) => delivery.body);
const INTAKE_HEADERS = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };

/** An intake as the service's: 201 with the receipt; the flaky one answers 503 to its first request. */
function intake(request: IncomingMessage, response: ServerResponse, path: string): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Kept as text: the assertions show it.
    }
    const delivery: Delivery = { method: request.method ?? '', path, contentType: request.headers['content-type'], body, valid: consentIntake.safeParse(body).success };
    deliveries.push(delivery);
    if (request.method !== 'POST') return void response.writeHead(405, INTAKE_HEADERS).end();
    if (path === '/consent-refused' || (path === '/consent-flaky' && records(path).length === 1)) {
      const status = path === '/consent-refused' ? 400 : 503;
      return void response.writeHead(status, { ...INTAKE_HEADERS, 'content-type': 'application/problem+json' }).end(JSON.stringify({ status }));
    }
    response
      .writeHead(201, { ...INTAKE_HEADERS, 'content-type': 'application/json; charset=utf-8' })
      .end(JSON.stringify({ consentId: body?.consentId, receivedAt: new Date().toISOString() }));
  });
}

beforeAll(async () => {
  bundles = await loadBannerBundles();
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    requested.push(url.pathname);
    const send = (type: string, body: string) => response.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' }).end(body);
    const config = CONFIGS[url.searchParams.get('config') ?? 'base'];
    if (['/consent', '/consent-flaky', '/consent-refused'].includes(url.pathname)) {
      intake(request, response, url.pathname);
    } else if (url.pathname === '/page' && config) {
      send('text/html', fixturePage({ config: url.searchParams.get('config') ?? 'base', lang: url.searchParams.get('lang') ?? 'de', frameOrigin: `http://127.0.0.1:${port}` }));
    } else if (url.pathname === '/app.js' && config) {
      send('text/javascript', appScript(bundles, config(), `${url.origin}/runtime.js`));
    } else if (url.pathname === '/runtime.js') {
      send('text/javascript', bundles.runtime);
    } else if (SCRIPTS[url.pathname]) {
      send('text/javascript', SCRIPTS[url.pathname]!);
    } else if (url.pathname.startsWith('/fake-youtube.com/') || url.pathname === MAP_PATH) {
      send('text/html', '<!doctype html><title>Embedded</title><p>Embedded content</p>');
    } else {
      response.writeHead(404).end();
    }
  });
  port = await listenOnLoopback(server);
  browser = await launchVisitorBrowser([SITE]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

type Visit = { context: BrowserContext; page: Page; problems: string[] };

/** A tab in a browser context of its own (no cookies or storage of other tests). */
async function visit(): Promise<Visit> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  // The records' events (the fixture page collects the others in window.ccmEvents).
  await page.evaluateOnNewDocument(() => {
    (window as any).recordEvents = [];
    ['ccm19ConsentRecorded', 'ccm19ConsentRecordFailed'].forEach((name) =>
      window.addEventListener(name, (event) => (window as any).recordEvents.push({ name, detail: (event as CustomEvent).detail })),
    );
  });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) problems.push(message.text());
  });
  return { context, page, problems };
}

/** Opens a fixture page and waits until the banner's runtime is ready (`ccm19WidgetLoaded`). */
async function open(page: Page, query = 'config=base'): Promise<void> {
  await page.goto(`${site()}/page?${query}`, { waitUntil: 'load' });
  await page.waitForFunction(() => (window as any).ccmEvents?.some((event: any) => event.name === 'ccm19WidgetLoaded'), { timeout: 10_000 });
}

/** The addresses of the frames whose documents loaded (committed) in the page. */
const loadedFrames = (page: Page) => page.frames().map((frame) => frame.url()).filter((url) => url.startsWith('http://127.0.0.1'));

const bannerShown = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('show--consent'));
const title = (page: Page) => page.$eval('#cm__title', (element) => element.textContent);
const cookieNames = (page: Page) => page.evaluate(() => document.cookie.split(';').map((part) => part.split('=')[0]!.trim()).filter(Boolean));
/** The page's dataLayer, each gtag call (an Arguments object) as an array. */
const dataLayer = (page: Page) => page.evaluate(() => ((window as any).dataLayer as ArrayLike<unknown>[]).map((entry) => JSON.parse(JSON.stringify(Array.from(entry)))));
const consentCommands = async (page: Page) => (await dataLayer(page)).filter((entry) => entry[0] === 'consent');
const flag = (page: Page, name: string) => page.evaluate((name) => (window as any)[name] as unknown, name);
const recordEvents = (page: Page) => page.evaluate(() => (window as any).recordEvents as { name: string; detail: any }[]);
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
const events = (page: Page, name: string) => page.evaluate((name) => (window as any).ccmEvents.filter((event: any) => event.name === name).map((event: any) => event.detail), name);

const DENIED = {
  ad_storage: 'denied',
  analytics_storage: 'denied',
  functionality_storage: 'denied',
  personalization_storage: 'denied',
  security_storage: 'denied',
  ad_user_data: 'denied',
  ad_personalization: 'denied',
};

async function axeProblems(page: Page, selector: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: join(import.meta.dirname, '../../../node_modules/axe-core/axe.min.js') });
  const results = await page.evaluate(
    (selector) => (window as any).axe.run(selector, { resultTypes: ['violations'] }) as Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>,
    selector,
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describe('the banner in a browser', () => {
  describe('a visitor who accepts, comes back, then rejects', () => {
    let visitor: Visit;
    beforeAll(async () => {
      visitor = await visit();
    });
    afterAll(async () => {
      await visitor?.context.close();
    });

    it('first visit: the German banner, and nothing of a service before a choice', async () => {
      const { page } = visitor;
      await open(page);
      expect(await bannerShown(page)).toBe(true);
      expect(await title(page)).toBe('Wir verwenden Cookies');
      expect(await page.$eval('#cc-main .cm .ccm-logo', (image) => (image as HTMLImageElement).alt)).toBe('');

      expect(await flag(page, 'analyticsRan')).toBeUndefined();
      expect(await flag(page, 'adsRan')).toBeUndefined();
      expect(await flag(page, 'chatInlineRan')).toBeUndefined();
      expect(await flag(page, 'chatLoaderRan')).toBeUndefined();
      expect(await flag(page, 'htmlCodeRuns')).toBeUndefined();
      expect(await cookieNames(page)).not.toContain('_ga');
      // (Chromium's preload scanner did fetch /ads.js ahead of the parser; it never ran.)
      expect(times('/chat-loader.js')).toBe(0);

      // The YouTube iframes became iframemanager's notices; none of them loaded. The one the
      // site held back with data-src was not even requested (the plain one was, as Chromium
      // inserted it: see runtime/blocker.ts).
      const notices = await page.$$eval(`div[data-service="${SERVICE_IDS.youtube}"]`, (boxes) => boxes.map((box) => (box as HTMLElement).innerText));
      expect(notices).toHaveLength(2);
      expect(notices[0]).toContain('Dieses Video wird von YouTube bereitgestellt.');
      expect(notices[0]).toContain('YouTube immer erlauben');
      expect(await page.$$eval('iframe[src]', (frames) => frames.length)).toBe(0);
      expect(loadedFrames(page)).toEqual([]);
      expect(times(HELD_FRAME_PATH)).toBe(0);
      // The map's iframe is blocked by the domain's iframe rules alone: a plain notice.
      expect(await page.$eval('.ccm-blocked-iframe', (box) => (box as HTMLElement).innerText)).toContain('Dieser Inhalt eines Drittanbieters wurde blockiert.');

      // Consent Mode: every signal denied before the page's own gtag call.
      const layer = await dataLayer(page);
      expect(layer[0]).toEqual(['consent', 'default', { ...DENIED, wait_for_update: 500 }]);
      expect(layer[1]?.[0]).toBe('js');

      expect(await page.$eval('.ccm-cookie-declaration', (element) => element.innerHTML)).toContain('Cookie-Erklärung');
      expect(await page.evaluate(() => ({ ...(window as any).CCM, locales: (window as any).CCM.availableLocales() }))).toMatchObject({
        consent: false,
        ucid: null,
        acceptedEmbeddings: [],
        locales: ['de_DE', 'en_US'],
        version: expect.any(String),
      });
      expect(await events(page, 'ccm19WidgetLoaded')).toEqual([null]);
      expect(await page.$('.ccm-settings-button')).toBeNull();
      expect(records()).toEqual([]);
      expect(visitor.problems).toEqual([]);
    });

    it('loads an iframe blocked by the domain\'s rules when asked to, once', async () => {
      const { page } = visitor;
      await page.click('.ccm-blocked-iframe button');
      await page.waitForFunction((path) => [...document.querySelectorAll('iframe')].some((frame) => frame.src.endsWith(path)), { timeout: 5_000 }, MAP_PATH);
      await expect.poll(() => loadedFrames(page), { timeout: 5_000 }).toEqual([`http://127.0.0.1:${port}${MAP_PATH}`]);
      expect(await bannerShown(page)).toBe(true);
    });

    it('"accept all" runs the scripts, sets their cookies, loads the iframe and grants Consent Mode', async () => {
      const { page } = visitor;
      const framesBefore = times(FRAME_PATH);
      await clickInModal(page, '#cc-main .cm__btn[data-role="all"]');
      await page.waitForFunction(() => (window as any).analyticsRan === 1 && (window as any).adsRan === 1 && (window as any).chatLoaderRan === 1, { timeout: 5_000 });
      expect(await bannerShown(page)).toBe(false);
      expect(await cookieNames(page)).toEqual(expect.arrayContaining(['_ga', '_ga_ABC', 'ccm_consent']));
      // Not declared by any service: deleteUnknownCookies removed it.
      expect(await cookieNames(page)).not.toContain('tracker_x');
      expect(await page.evaluate(() => localStorage.getItem('_ga_store'))).toBe('1');
      expect(await flag(page, 'chatInlineRan')).toBe(1);
      expect(await flag(page, 'htmlCodeRuns')).toBe(1);

      await expect.poll(() => times(FRAME_PATH), { timeout: 5_000 }).toBe(framesBefore + 1);
      await expect.poll(() => times(HELD_FRAME_PATH), { timeout: 5_000 }).toBe(1);
      await expect.poll(() => loadedFrames(page).filter((url) => url.includes('fake-youtube')).length, { timeout: 5_000 }).toBe(2);

      const update = (await consentCommands(page)).at(-1);
      expect(update).toEqual([
        'consent',
        'update',
        { ...DENIED, analytics_storage: 'granted', ad_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted' },
      ]);

      const accepted = await events(page, 'ccm19EmbeddingAccepted');
      expect(accepted).toEqual(
        expect.arrayContaining([
          { name: 'Google Analytics', code: SERVICE_IDS.analytics, purpose: 'analytics', mandatory: false },
          { name: 'YouTube', code: SERVICE_IDS.youtube, purpose: 'social_media', mandatory: false },
          { name: 'Consent-Manager', code: SERVICE_IDS.consent, purpose: 'necessary', mandatory: true },
        ]),
      );
      expect(accepted).toHaveLength(5);
      const [changed] = await events(page, 'ccm19ConsentChanged');
      expect(changed.categories).toEqual(expect.arrayContaining(['necessary', 'analytics', 'social_media', 'marketing']));
      expect(changed.services).toHaveLength(5);
      expect(await events(page, 'ccm19WidgetClosed')).toHaveLength(1);

      const ccm = await page.evaluate(() => ({ ...(window as any).CCM }));
      expect(ccm.consent).toBe(true);
      expect(ccm.ucid).toMatch(/^[0-9a-f-]{36}$/);
      expect(ccm.acceptedEmbeddings).toContainEqual({ id: SERVICE_IDS.youtube, name: 'YouTube' });
      expect(ccm.acceptedCookies).toEqual(expect.arrayContaining(['_ga', '_ga_*', 'ccm_consent']));
      expect(await page.$eval('button.ccm-settings-button', (button) => button.getAttribute('aria-label'))).toBe('Cookie-Einstellungen öffnen');
      expect(visitor.problems).toEqual([]);
    });

    it('records the choice with the service: one POST, without a preflight, that /consent takes', async () => {
      const { page } = visitor;
      await expect.poll(() => recordEvents(page), { timeout: 5_000 }).toHaveLength(1);
      const consentId = await page.evaluate(() => (window as any).CCM.ucid as string);
      expect(consentId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(deliveries).toHaveLength(1);
      const [delivery] = deliveries;
      expect(delivery).toMatchObject({ method: 'POST', path: '/consent', valid: true });
      expect(delivery!.contentType).toMatch(/^text\/plain;\s*charset=utf-8$/i);
      const { categories, services, ...rest } = delivery!.body;
      expect(rest).toEqual({
        domain: BANNER_CONFIG.domainId,
        consentId,
        choice: 'all',
        revision: BANNER_CONFIG.contentRevision,
        locale: 'de_DE',
        url: page.url(),
      });
      expect([...categories].sort()).toEqual(BANNER_CONFIG.categories.map((category) => category.key).sort());
      expect([...services].sort()).toEqual(Object.values(SERVICE_IDS).sort());

      const [recorded] = await recordEvents(page);
      expect(recorded).toEqual({ name: 'ccm19ConsentRecorded', detail: { consentId, receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) } });
      expect(visitor.problems).toEqual([]);
    });

    it('on the next page the choice holds: no banner, the scripts and the iframe run straight away', async () => {
      const { page } = visitor;
      const framesBefore = times(FRAME_PATH);
      const heldBefore = times(HELD_FRAME_PATH);
      await open(page);
      expect(await bannerShown(page)).toBe(false);
      expect(await flag(page, 'analyticsRan')).toBe(1);
      await page.waitForFunction(() => (window as any).adsRan === 1 && (window as any).htmlCodeRuns === 1, { timeout: 5_000 });
      await expect.poll(() => times(FRAME_PATH), { timeout: 5_000 }).toBe(framesBefore + 1);
      await expect.poll(() => times(HELD_FRAME_PATH), { timeout: 5_000 }).toBe(heldBefore + 1);
      expect(await page.$(`div[data-service="${SERVICE_IDS.youtube}"]`)).toBeNull();

      // The stored choice reaches Consent Mode before any tag of the page.
      const layer = await dataLayer(page);
      expect(layer[0]?.[1]).toBe('default');
      expect(layer[1]?.slice(0, 2)).toEqual(['consent', 'update']);
      expect(layer[1]?.[2]).toMatchObject({ analytics_storage: 'granted', ad_storage: 'granted' });
      expect(await events(page, 'ccm19EmbeddingAccepted')).toHaveLength(5);

      // The floating button reopens the preferences.
      await page.click('button.ccm-settings-button');
      await page.waitForFunction(() => document.documentElement.classList.contains('show--preferences'), { timeout: 5_000 });
      await page.evaluate(() => (window as any).CCM.closeControlPanel());
      await page.waitForFunction(() => !document.documentElement.classList.contains('show--preferences'), { timeout: 5_000 });

      // A stored choice is no new one: nothing recorded.
      await settle();
      expect(records()).toHaveLength(1);
      expect(await recordEvents(page)).toEqual([]);
      expect(visitor.problems).toEqual([]);
    });

    it('"reject all" in the control panel removes the services\' cookies and storage and denies Consent Mode', async () => {
      const { page } = visitor;
      await page.evaluate(() => (window as any).CCM.openControlPanel());
      await page.waitForFunction(() => document.documentElement.classList.contains('show--preferences'), { timeout: 5_000 });
      await clickInModal(page, '#cc-main .pm__btn[data-role="necessary"]');
      await page.waitForFunction(() => !document.cookie.includes('_ga'), { timeout: 5_000 });
      expect(await cookieNames(page)).not.toContain('_ga_ABC');
      expect(await cookieNames(page)).toContain('ccm_consent');
      expect(await page.evaluate(() => localStorage.getItem('_ga_store'))).toBeNull();
      expect((await consentCommands(page)).at(-1)).toEqual(['consent', 'update', DENIED]);
      // The videos loaded under the earlier consent are blocked again.
      await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 2, { timeout: 5_000 }, `div[data-service="${SERVICE_IDS.youtube}"]`);
      await expect.poll(() => loadedFrames(page).filter((url) => url.includes('fake-youtube')), { timeout: 5_000 }).toEqual([]);
      expect(await page.evaluate(() => (window as any).CCM.acceptedEmbeddings.map((embedding: any) => embedding.id))).toEqual([SERVICE_IDS.consent]);

      // The change is recorded under the same consent id.
      await expect.poll(() => records(), { timeout: 5_000 }).toHaveLength(2);
      const [first, second] = records();
      expect(second).toEqual({ ...first, choice: 'necessary', categories: ['necessary'], services: [SERVICE_IDS.consent] });
      expect(deliveries.every((delivery) => delivery.valid && delivery.method === 'POST')).toBe(true);
      await expect.poll(() => recordEvents(page), { timeout: 5_000 }).toEqual([{ name: 'ccm19ConsentRecorded', detail: { consentId: first.consentId, receivedAt: expect.any(String) } }]);
      expect(visitor.problems).toEqual([]);
    });

    it('a new revision asks again', async () => {
      const { page } = visitor;
      await open(page, 'config=revised');
      expect(await bannerShown(page)).toBe(true);
      expect(await page.evaluate(() => (window as any).CCM.consent)).toBe(false);
    });
  });

  it('asks again for a consent given before the domain\'s reset', async () => {
    const { context, page } = await visit();
    try {
      await open(page);
      await clickInModal(page, '#cc-main .cm__btn[data-role="all"]');
      await page.waitForFunction(() => (window as any).analyticsRan === 1, { timeout: 5_000 });
      await open(page, 'config=reset');
      expect(await bannerShown(page)).toBe(true);
      expect(await flag(page, 'analyticsRan')).toBeUndefined();
      expect((await consentCommands(page)).filter((command) => command[1] === 'update')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('"always allow" on a video\'s notice accepts YouTube in the consent, and nothing else', async () => {
    const { context, page, problems } = await visit();
    try {
      await open(page);
      const heldBefore = times(HELD_FRAME_PATH);
      await page.click(`div[data-service="${SERVICE_IDS.youtube}"] button.c-la-b`);
      await expect.poll(() => loadedFrames(page).filter((url) => url.includes('fake-youtube')).length, { timeout: 5_000 }).toBe(2);
      expect(times(HELD_FRAME_PATH)).toBe(heldBefore + 1);
      const ccm = await page.evaluate(() => ({ ...(window as any).CCM }));
      expect(ccm.consent).toBe(true);
      expect(ccm.acceptedEmbeddings.map((embedding: any) => embedding.id).sort()).toEqual([SERVICE_IDS.consent, SERVICE_IDS.youtube].sort());
      expect(await flag(page, 'analyticsRan')).toBeUndefined();
      expect((await consentCommands(page)).at(-1)).toEqual(['consent', 'update', DENIED]);
      // A choice too: recorded as a custom one.
      await expect.poll(() => recordEvents(page), { timeout: 5_000 }).toHaveLength(1);
      const record = records().find((candidate) => candidate.consentId === ccm.ucid);
      expect(record?.choice).toBe('custom');
      expect([...record.categories].sort()).toEqual(['necessary', 'social_media']);
      expect([...record.services].sort()).toEqual([SERVICE_IDS.consent, SERVICE_IDS.youtube].sort());
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('speaks English when the snippet fixes en_US, or the page says lang="en"', async () => {
    const { context, page } = await visit();
    try {
      await open(page, 'config=english');
      expect(await title(page)).toBe('We use cookies');
      await open(page, 'config=base&lang=en');
      expect(await title(page)).toBe('We use cookies');
      expect(await page.$eval('.ccm-cookie-declaration', (element) => element.innerHTML)).toContain('Cookie declaration');
      await open(page, 'config=base&lang=de-AT');
      expect(await title(page)).toBe('Wir verwenden Cookies');
      expect(await page.evaluate(() => (window as any).CCM.switchLocale('en'))).toBe(true);
      expect(await title(page)).toBe('We use cookies');
      expect(await page.$eval('.ccm-cookie-declaration', (element) => element.innerHTML)).toContain('Cookie declaration');
    } finally {
      await context.close();
    }
  });

  it('sends a record again, once, after the intake answered 503', async () => {
    const { context, page, problems } = await visit();
    try {
      await open(page, 'config=flaky');
      await clickInModal(page, '#cc-main .cm__btn[data-role="all"]');
      await expect.poll(() => recordEvents(page), { timeout: 6_000 }).toHaveLength(1);
      const [event] = await recordEvents(page);
      expect(event?.name).toBe('ccm19ConsentRecorded');
      const sent = records('/consent-flaky');
      expect(sent).toHaveLength(2);
      expect(sent[1]).toEqual(sent[0]);
      expect(event?.detail.consentId).toBe(sent[0].consentId);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('tells when the intake refuses a record, without retrying', async () => {
    const { context, page } = await visit();
    try {
      await open(page, 'config=refused');
      await clickInModal(page, '#cc-main .cm__btn[data-role="necessary"]');
      await expect.poll(() => recordEvents(page), { timeout: 5_000 }).toEqual([{ name: 'ccm19ConsentRecordFailed', detail: { status: 400 } }]);
      expect(records('/consent-refused')).toHaveLength(1);
      // The choice itself holds.
      expect(await page.evaluate(() => (window as any).CCM.consent)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('has no serious accessibility problem in the banner or the preferences', async () => {
    const { context, page } = await visit();
    try {
      await open(page);
      await page.waitForFunction(() => getComputedStyle(document.querySelector('#cc-main .cm')!).opacity === '1', { timeout: 5_000 });
      expect(await axeProblems(page, '#cc-main')).toEqual([]);
      expect(await axeProblems(page, '.ccm-blocked-iframe')).toEqual([]);
      // The cookie declaration's link opens the preferences.
      await page.click('.ccm-cookie-declaration a[href="#CCM.openControlPanel"]');
      await page.waitForFunction(() => document.documentElement.classList.contains('show--preferences'), { timeout: 5_000 });
      await page.waitForFunction(() => getComputedStyle(document.querySelector('#cc-main .pm')!).opacity === '1', { timeout: 5_000 });
      expect(await axeProblems(page, '#cc-main .pm')).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('crawlers and phones', () => {
  const CUBOT = 'Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
  const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

  it('shows a CUBOT phone the banner, with a way to consent', async () => {
    const { context, page } = await visit();
    try {
      await page.setUserAgent(CUBOT);
      await open(page);
      expect(await bannerShown(page)).toBe(true);
      await clickInModal(page, '#cc-main .cm__btn[data-role="all"]');
      await page.waitForFunction(() => (window as any).analyticsRan === 1, { timeout: 5_000 });
    } finally {
      await context.close();
    }
  });

  it('shows a search engine’s crawler no banner, but blocked content still shows its notice with a way to load it', async () => {
    const { context, page } = await visit();
    try {
      await page.setUserAgent(GOOGLEBOT);
      await open(page);
      expect(await bannerShown(page)).toBe(false);
      expect(await flag(page, 'analyticsRan')).toBeUndefined();
      expect(await page.$$eval(`div[data-service="${SERVICE_IDS.youtube}"]`, (boxes) => boxes.length)).toBe(2);
      expect(await page.$eval('.ccm-blocked-iframe button', (button) => (button as HTMLElement).innerText)).not.toBe('');
    } finally {
      await context.close();
    }
  });
});
