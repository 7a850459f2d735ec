import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BannerConfig } from '../../../src/features/banner/banner-config.ts';
import { appScript, guardSnippet, loadBannerBundles, type BannerBundles } from '../../../src/features/banner/runtime-bundle.ts';
import { BANNER_CONFIG, SERVICE_IDS } from './fixtures/banner-config.ts';
import { clickInModal, launchVisitorBrowser, listenOnLoopback } from './fixtures/browser.ts';

/**
 * The snippet the service hands out (an inline guard that loads app.js without blocking the
 * page) when the service is healthy, hung, failing, and back: the page never waits for it, and
 * nothing from another site runs before the domain's configuration has said it may. The site
 * is `shop.internal`; the service's app.js comes from `consent.internal`, whose behaviour each
 * test sets (`mode`); trackers live on `tracker.example`, a library CDN on `cdn.example` (all
 * this test's server on loopback, which logs every request by host).
 */

const SITE = 'shop.internal';
const SERVICE = 'consent.internal';
const HOSTS = [SITE, SERVICE, 'tracker.example', 'cdn.example'];

type Mode = 'healthy' | 'hung' | 'failing' | 'idle';
/** How the service answers app.js now; `afterFirst` applies from its second request on (a service that comes back). */
let mode: Mode = 'healthy';
let afterFirst: Mode | null = null;
let appRequests = 0;
const hanging: ServerResponse[] = [];

const config = (): BannerConfig => ({
  ...BANNER_CONFIG,
  categories: BANNER_CONFIG.categories.map((category) => ({
    ...category,
    services: category.services.map((service) =>
      service.id === SERVICE_IDS.analytics ? { ...service, scriptMarkers: [`tracker.example:${port}/analytics.js`] } : service,
    ),
  })),
  // The CDN library and its plugin are scripts no service claims; with blockNewScripts off they run as soon as the configuration says so.
  scripts: { blockUnknown: false, blockFirstParty: false, blockInline: false, evalInline: false, allowedMarkers: [], blockedMarkers: [] },
});

const counting = (key: string) => `(window.ran = window.ran || []).push(${JSON.stringify(key)});`;

const page = () => `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><title>Shop</title>
${guardSnippet(bundles, `http://${SERVICE}:${port}/app.js?domain=${BANNER_CONFIG.domainId}`)}
<script>window.ccmEvents = []; addEventListener('ccm19WidgetLoaded', function () { ccmEvents.push('loaded'); });</script>
<script src="http://tracker.example:${port}/analytics.js?k=parser"></script>
<script src="http://cdn.example:${port}/library.js?k=library"></script>
<script src="http://cdn.example:${port}/plugin.js?k=plugin"></script>
<script src="/own.js?k=own"></script>
<script>
  ${counting('inline')}
  var s = document.createElement('script'); s.src = 'http://tracker.example:${port}/analytics.js?k=inserted'; document.head.appendChild(s);
</script>
</head><body><main><h1>Willkommen im Shop</h1></main></body></html>`;

let bundles: BannerBundles;
let server: Server;
let browser: Browser;
let port: number;
const requests: string[] = [];

function serveApp(response: ServerResponse): void {
  const now = appRequests++ === 0 || !afterFirst ? mode : afterFirst;
  if (now === 'hung') return void hanging.push(response);
  // As the service's: any origin may read app.js (the snippet fetches it).
  const cors = { 'access-control-allow-origin': '*' };
  if (now === 'failing') return void response.writeHead(503, { ...cors, 'content-type': 'text/plain' }).end('unavailable');
  const text = now === 'idle' ? 'window.__ccmGuard && window.__ccmGuard.release();' : appScript(bundles, config(), `http://${SERVICE}:${port}/runtime.js`);
  response.writeHead(200, { ...cors, 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(text);
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
  requests.push(`${url.hostname} ${url.pathname}${url.search}`);
  const send = (type: string, body: string) => void response.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' }).end(body);
  if (url.hostname === SERVICE && url.pathname === '/app.js') return serveApp(response);
  if (url.hostname === SERVICE && url.pathname === '/runtime.js') return send('text/javascript', bundles.runtime);
  if (url.pathname === '/page') return send('text/html', page());
  // The plugin needs the library, as a jQuery plugin needs jQuery: run out of order, it would record that.
  if (url.pathname === '/plugin.js') return send('text/javascript', "(window.ran = window.ran || []).push(window.library ? 'plugin' : 'plugin without library');");
  if (url.pathname.endsWith('.js')) return send('text/javascript', `${counting(url.searchParams.get('k') ?? url.pathname)}${url.pathname === '/library.js' ? 'window.library = true;' : ''}`);
  response.writeHead(404).end();
}

beforeAll(async () => {
  bundles = await loadBannerBundles();
  server = createServer(handle);
  port = await listenOnLoopback(server);
  browser = await launchVisitorBrowser(HOSTS);
}, 60_000);

afterAll(async () => {
  for (const response of hanging.splice(0)) response.destroy();
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

function serviceBehaves(now: Mode, later: Mode | null = null): void {
  mode = now;
  afterFirst = later;
  appRequests = 0;
  for (const response of hanging.splice(0)) response.destroy();
}

/** Every visitor's browser context; closed after each test, so no page of one test asks the service for app.js in another. */
const contexts: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function visit(): Promise<{ page: Page; problems: string[]; from: number }> {
  const context = await browser.createBrowserContext();
  contexts.push(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  const from = requests.length;
  await page.goto(`http://${SITE}:${port}/page`, { waitUntil: 'load', timeout: 10_000 });
  return { page, problems, from };
}

const ran = (page: Page) => page.evaluate(() => [...((window as any).ran ?? [])] as string[]);
const since = (from: number, host: string) => requests.slice(from).filter((entry) => entry.startsWith(`${host} `));
const bannerReady = (page: Page, timeout = 10_000) => page.waitForFunction(() => (window as any).ccmEvents?.includes('loaded'), { timeout });
const acceptAll = (page: Page) => clickInModal(page, '#cc-main .cm__btn[data-role="all"]');
const settle = (ms = 400) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the snippet when the service is healthy', () => {
  it('shows the banner; scripts of other sites the configuration lets run, run in their order; the tracker waits for consent', async () => {
    serviceBehaves('healthy');
    const { page, problems, from } = await visit();
    await bannerReady(page);
    await page.waitForFunction(() => (window as any).ran?.includes('plugin'), { timeout: 5_000 });
    const order = await ran(page);
    // The site's own and inline scripts run at once; the CDN's two after the configuration came, the library before its plugin.
    expect(order.slice(0, 2).sort()).toEqual(['inline', 'own']);
    expect(order.filter((key) => key === 'library' || key === 'plugin')).toEqual(['library', 'plugin']);
    expect(order).not.toContain('parser');
    expect(order).not.toContain('inserted');
    expect(since(from, 'tracker.example').filter((entry) => !entry.includes('k=parser'))).toEqual([]);

    await acceptAll(page);
    await page.waitForFunction(() => (window as any).ran?.includes('inserted') && (window as any).ran?.includes('parser'), { timeout: 5_000 });
    expect(problems).toEqual([]);
  });

  it('runs everything held as it was when the domain has no banner (nothing to ask, or switched off)', async () => {
    serviceBehaves('idle');
    const { page } = await visit();
    await page.waitForFunction(() => ['library', 'plugin', 'parser', 'inserted'].every((key) => (window as any).ran?.includes(key)), { timeout: 5_000 });
    const order = await ran(page);
    expect(order.indexOf('library')).toBeLessThan(order.indexOf('plugin'));
  });
});

describe('the snippet when the service does not answer', () => {
  it('lets the page load and paint at once, runs the site’s own scripts, and holds everything from other sites', async () => {
    serviceBehaves('hung');
    const started = Date.now();
    const { page, from } = await visit();
    // `load` came while app.js is still unanswered: the page did not wait for the service. (On a
    // busy machine the guard's request may reach the hung service only after `load`; it must come.)
    expect(Date.now() - started).toBeLessThan(8_000);
    for (let waited = 0; hanging.length === 0 && waited < 5_000; waited += 50) await settle(50);
    expect(hanging.length, 'the guard asked the service for app.js, which never answered').toBe(1);
    expect(await page.$eval('h1', (heading) => heading.textContent)).toBe('Willkommen im Shop');
    await settle();
    expect((await ran(page)).sort()).toEqual(['inline', 'own']);
    expect(since(from, 'tracker.example').filter((entry) => !entry.includes('k=parser'))).toEqual([]);
    expect(since(from, 'cdn.example').filter((entry) => !/k=(library|plugin)/.test(entry))).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.classList.contains('show--consent'))).toBe(false);
  });

  it('asks again and shows the banner once the service is back, and the visitor can consent', async () => {
    serviceBehaves('hung', 'healthy');
    const { page } = await visit();
    expect(await ran(page)).not.toContain('library');
    // The guard asks again 5 s after a request that got no answer.
    await bannerReady(page, 15_000);
    expect(appRequests).toBe(2);
    await page.waitForFunction(() => (window as any).ran?.includes('plugin'), { timeout: 5_000 });
    expect(await ran(page)).not.toContain('inserted');
    await acceptAll(page);
    await page.waitForFunction(() => (window as any).ran?.includes('inserted'), { timeout: 5_000 });
  }, 30_000);

  it('asks again soon after an error answer (503), holding everything meanwhile', async () => {
    serviceBehaves('failing', 'healthy');
    const { page } = await visit();
    expect(await ran(page)).not.toContain('parser');
    await bannerReady(page, 10_000);
    expect(appRequests).toBe(2);
  }, 20_000);
});
