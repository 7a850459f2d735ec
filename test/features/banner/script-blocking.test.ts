import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BannerConfig } from '../../../src/features/banner/banner-config.ts';
import { appScript, loadBannerBundles, type BannerBundles } from '../../../src/features/banner/runtime-bundle.ts';
import { BANNER_CONFIG, SERVICE_IDS } from './fixtures/banner-config.ts';
import { clickInModal, launchVisitorBrowser, listenOnLoopback } from './fixtures/browser.ts';

/**
 * The automatic script blocker in a real Chromium, at the network level: a page whose scripts
 * put trackers in every way scripts do (appendChild, insertBefore with `src` set afterwards,
 * setAttribute, append, document.write, `new Image()`, iframes by createElement and by
 * insertAdjacentHTML), on `shop.internal`, with the trackers on `tracker.example`, a CDN on
 * `cdn.example` and videos on `video.example` (all this test's server on loopback). The server
 * logs every request by host; every script counts its runs in `window.ran`.
 */

const SITE = 'shop.internal';
const HOSTS = [SITE, 'tracker.example', 'cdn.example', 'video.example'];

const withServices = (scripts: Partial<BannerConfig['scripts']>): BannerConfig => ({
  ...BANNER_CONFIG,
  categories: BANNER_CONFIG.categories.map((category) => ({
    ...category,
    services: category.services.map((service) => {
      if (service.id === SERVICE_IDS.analytics) return { ...service, scriptMarkers: ['tracker.example:PORT/analytics.js'.replace('PORT', String(port))] };
      if (service.id === SERVICE_IDS.ads) return { ...service, scriptMarkers: [`tracker.example:${port}/pixel`] };
      if (service.id === SERVICE_IDS.youtube) return { ...service, iframeMarkers: ['video.example'] };
      return service;
    }),
  })),
  scripts: {
    blockUnknown: true,
    blockFirstParty: false,
    blockInline: false,
    evalInline: false,
    // `harness`: the page's inline scripts that do the inserting run under the strictest settings too.
    allowedMarkers: ['cdn.example:PORT/allowed.js'.replace('PORT', String(port)), '/* harness */'],
    blockedMarkers: ['/never.js'],
    ...scripts,
  },
});

/** The domain's settings per page (`?config=`): CCM19's defaults, and the strictest. */
const CONFIGS: Record<string, () => BannerConfig> = {
  defaults: () => withServices({}),
  strict: () => withServices({ blockFirstParty: true, blockInline: true }),
  strictEval: () => withServices({ blockFirstParty: true, blockInline: true, evalInline: true }),
};

const counting = (key: string) => `(window.ran = window.ran || {})[${JSON.stringify(key)}] = (window.ran[${JSON.stringify(key)}] || 0) + 1;`;

/** Every way a script of the page puts a tracker, a CDN script, its own script or an inline one in the page. */
const page = (config: string) => `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><title>Shop</title>
<script src="/app.js?config=${config}"></script>
<script>/* harness */ window.ccmEvents = []; addEventListener('ccm19WidgetLoaded', function () { ccmEvents.push('loaded'); });</script>
<script src="http://tracker.example:${port}/analytics.js?k=parser"></script>
<script>/* harness */
  var T = 'http://tracker.example:${port}', C = 'http://cdn.example:${port}';
  var a = document.createElement('script'); a.src = T + '/analytics.js?k=append'; document.head.appendChild(a);
  var b = document.createElement('script'); var first = document.getElementsByTagName('script')[0];
  first.parentNode.insertBefore(b, first); b.src = T + '/analytics.js?k=after';
  var c = document.createElement('script'); c.setAttribute('src', T + '/analytics.js?k=attribute'); document.head.append(c);
  document.write('<script src="' + T + '/analytics.js?k=write"><\\/script>');
  new Image().src = T + '/pixel?k=image';
  var u = document.createElement('script'); u.src = C + '/unknown.js?k=unknown'; document.head.appendChild(u);
  var o = document.createElement('script'); o.src = '/own.js?k=own'; document.head.appendChild(o);
  var i = document.createElement('script'); i.text = ${JSON.stringify(counting('inline'))}; document.head.appendChild(i);
  var al = document.createElement('script'); al.src = C + '/allowed.js?k=allowed'; document.head.appendChild(al);
  var nv = document.createElement('script'); nv.src = T + '/never.js?k=never'; document.head.appendChild(nv);
</script>
</head><body><main><h1>Shop</h1><div id="frames"></div></main>
<script>/* harness */
  var frame = document.createElement('iframe'); frame.src = 'http://video.example:${port}/embed/created'; document.getElementById('frames').appendChild(frame);
  document.getElementById('frames').insertAdjacentHTML('beforeend', '<iframe src="http://video.example:${port}/embed/html"></iframe>');
</script>
</body></html>`;

let bundles: BannerBundles;
let server: Server;
let browser: Browser;
let port: number;
/** `host path?query` of every request the server got. */
const requests: string[] = [];

beforeAll(async () => {
  bundles = await loadBannerBundles();
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    requests.push(`${url.hostname} ${url.pathname}${url.search}`);
    const send = (type: string, body: string) => response.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' }).end(body);
    const config = CONFIGS[url.searchParams.get('config') ?? ''];
    if (url.pathname === '/page' && config) return send('text/html', page(url.searchParams.get('config')!));
    if (url.pathname === '/app.js' && config) return send('text/javascript', appScript(bundles, config(), `http://127.0.0.1:${port}/runtime.js`));
    if (url.pathname === '/runtime.js') return send('text/javascript', bundles.runtime);
    if (url.pathname.endsWith('.js')) return send('text/javascript', counting(url.searchParams.get('k') ?? url.pathname));
    if (url.pathname.startsWith('/embed/')) return send('text/html', '<!doctype html><title>Video</title><p>video</p>');
    if (url.pathname === '/pixel') return response.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
    response.writeHead(404).end();
  });
  port = await listenOnLoopback(server);
  browser = await launchVisitorBrowser(HOSTS);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** A fresh visitor (a browser context of its own) on the page, once the banner is ready. */
async function visit(config: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  await open(page, config);
  return { page, problems };
}

async function open(page: Page, config: string): Promise<void> {
  await page.goto(`http://${SITE}:${port}/page?config=${config}`, { waitUntil: 'load' });
  await page.waitForFunction(() => (window as any).ccmEvents?.includes('loaded'), { timeout: 10_000 });
  await settle();
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 400));
const ran = (page: Page) => page.evaluate(() => ({ ...((window as any).ran ?? {}) }) as Record<string, number>);

/** The requests made since `from` to a host (optionally only those whose path and query contain `part`). */
const since = (from: number, host: string, part = '') => requests.slice(from).filter((entry) => entry.startsWith(`${host} `) && entry.includes(part));

async function click(page: Page, selector: string): Promise<void> {
  await clickInModal(page, selector);
  await settle();
}
const ACCEPT_ALL = '#cc-main .cm__btn[data-role="all"]';
const REJECT_ALL = '#cc-main .cm__btn[data-role="necessary"]';

/** What the page's own code and the allowed CDN script may do before any choice. */
const BEFORE_CHOICE = { own: 1, inline: 1, allowed: 1 };

describe('the automatic script blocker (CCM19 defaults: blockNewScripts on, first-party and inline scripts run)', () => {
  it('before a choice, runs only the site’s own scripts and the allowed CDN script, and lets no tracker, pixel, unknown script or frame reach its host', async () => {
    const from = requests.length;
    const { page, problems } = await visit('defaults');
    expect(await ran(page)).toEqual(BEFORE_CHOICE);
    // Scripts inserted by scripts are held before they are fetched: not even a request.
    expect(since(from, 'tracker.example').filter((entry) => !entry.includes('k=parser'))).toEqual([]);
    expect(since(from, 'cdn.example')).toEqual([`cdn.example /allowed.js?k=allowed`]);
    expect(since(from, 'video.example')).toEqual([]);
    // The one written in the HTML may be fetched by the preload scanner; it never runs (above).
    expect(since(from, 'tracker.example', 'k=parser').length).toBeLessThanOrEqual(1);
    expect(problems).toEqual([]);
  });

  it('after “accept all”, runs every held script once in the page, loads the pixel and the frames; the domain’s blocked marker never runs', async () => {
    const { page } = await visit('defaults');
    const from = requests.length;
    await click(page, ACCEPT_ALL);
    await page.waitForFunction(() => Object.keys((window as any).ran ?? {}).length >= 9, { timeout: 5_000 });
    expect(await ran(page)).toEqual({ ...BEFORE_CHOICE, parser: 1, append: 1, after: 1, attribute: 1, write: 1, unknown: 1 });
    expect(since(from, 'tracker.example', '/pixel?k=image')).toHaveLength(1);
    expect(since(from, 'tracker.example', '/never.js')).toEqual([]);
    await page.waitForFunction(() => document.querySelectorAll('iframe[src*="video.example"]').length === 2, { timeout: 5_000 });
    await settle();
    expect(since(from, 'video.example').sort()).toEqual(['video.example /embed/created', 'video.example /embed/html']);

    // The next page: accepted services run from the start, and held scripts no service claims too.
    const next = requests.length;
    await open(page, 'defaults');
    expect(await ran(page)).toEqual({ ...BEFORE_CHOICE, parser: 1, append: 1, after: 1, attribute: 1, write: 1, unknown: 1 });
    expect(since(next, 'tracker.example', '/never.js')).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.classList.contains('show--consent'))).toBe(false);
  });

  it('after “reject all”, nothing held runs, on this page and the next, and nothing more reaches the trackers', async () => {
    const { page } = await visit('defaults');
    const from = requests.length;
    await click(page, REJECT_ALL);
    expect(await ran(page)).toEqual(BEFORE_CHOICE);
    await open(page, 'defaults');
    expect(await ran(page)).toEqual(BEFORE_CHOICE);
    expect(since(from, 'tracker.example').filter((entry) => !entry.includes('k=parser'))).toEqual([]);
    expect(since(from, 'cdn.example').every((entry) => entry.includes('allowed.js'))).toBe(true);
    expect(since(from, 'video.example')).toEqual([]);
  });
});

describe('the strictest settings (blockFirstPartyScripts, blockInlineScripts)', () => {
  it('holds the site’s own and inline scripts inserted by scripts until everything is accepted; without evalInlineScripts the inline one runs from the next page on', async () => {
    const { page } = await visit('strict');
    expect(await ran(page)).toEqual({ allowed: 1 });
    await click(page, ACCEPT_ALL);
    await page.waitForFunction(() => (window as any).ran?.own === 1, { timeout: 5_000 });
    expect(await ran(page)).toMatchObject({ allowed: 1, own: 1, unknown: 1 });
    expect((await ran(page)).inline).toBeUndefined();
    await open(page, 'strict');
    expect(await ran(page)).toMatchObject({ allowed: 1, own: 1, unknown: 1, inline: 1 });
  });

  it('with evalInlineScripts, the held inline script runs as soon as everything is accepted', async () => {
    const { page } = await visit('strictEval');
    expect(await ran(page)).toEqual({ allowed: 1 });
    await click(page, ACCEPT_ALL);
    await page.waitForFunction(() => (window as any).ran?.inline === 1, { timeout: 5_000 });
    expect(await ran(page)).toMatchObject({ allowed: 1, own: 1, unknown: 1, inline: 1 });
  });
});
