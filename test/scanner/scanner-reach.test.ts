import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedBrowser, type SharedBrowser } from '../../src/scanner/browser.ts';
import { pageShape } from '../../src/scanner/page-choice.ts';
import { createScanner, DEFAULT_SCAN_LIMITS } from '../../src/scanner/scan.ts';
import { type FixtureWebsites, startFixtureWebsites } from '../fixtures/websites.ts';

/**
 * What a scan with the default limits reaches: keys that an inner page sets seconds after it
 * loaded, a page three levels down behind more links than the page budget, and sites that serve
 * headless browsers differently (it presents itself as Chrome).
 */

let sites: FixtureWebsites;
let browser: SharedBrowser;

beforeAll(async () => {
  sites = await startFixtureWebsites();
  browser = createSharedBrowser({ acceptInsecureCerts: true });
  await browser.warmUp();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sites?.close();
});

describe('late keys on inner pages', () => {
  it('sees a key set 2.5 s and a cookie set 3.5 s after an inner page loaded, on a site with more pages than tabs', async () => {
    const found = await createScanner({ browser, policy: sites.policy }).scan('http://www.lang.test/');
    expect(found.pages).toHaveLength(10);
    expect(found.localStorage).toEqual([{ name: 'unterseite_2500', origin: 'http://www.lang.test', phase: 'before-consent', setBy: 'http://www.lang.test/seite-1' }]);
    expect(found.cookies.map((cookie) => cookie.name)).toEqual(['unterseite_3500']);
    // The page loaded last had the start page's wait (how fast the scan is, is the benchmark's to say).
    expect(found.durationMs).toBeGreaterThanOrEqual(DEFAULT_SCAN_LIMITS.startPageWaitMs);
  }, 30_000);
});

describe('which pages a 10-page scan visits', () => {
  it('groups addresses by their shape: first segment without numbers, and depth', () => {
    expect(pageShape('http://x.test/blog/artikel-1')).toBe(pageShape('http://x.test/blog/artikel-12'));
    expect(pageShape('http://x.test/seite-1')).toBe(pageShape('http://x.test/seite-2'));
    expect(pageShape('http://x.test/de/produkt/4711')).toBe(pageShape('http://x.test/de/produkt/0815'));
    expect(new Set(['/shop', '/shop/tassen', '/shop/tassen/tasse-42', '/blog/artikel-1'].map((path) => pageShape(`http://x.test${path}`))).size).toBe(4);
  });

  it('reaches a product three levels down behind twelve articles, and visits no more than the budget', async () => {
    const found = await createScanner({ browser, policy: sites.policy }).scan('http://www.tiefe.test/');
    const paths = found.pages.map((page) => new URL(page.url).pathname);
    expect(paths).toHaveLength(DEFAULT_SCAN_LIMITS.pageLimit);
    expect(paths.slice(0, 3)).toEqual(['/', '/blog/artikel-1', '/shop']);
    expect(paths).toEqual(expect.arrayContaining(['/shop/tassen', '/shop/tassen/tasse-42']));
    expect(found.localStorage).toEqual([
      { name: 'zuletzt_angesehen', origin: 'http://www.tiefe.test', phase: 'before-consent', setBy: 'http://www.tiefe.test/shop/tassen/tasse-42' },
    ]);
    expect(found.cookies.map((cookie) => cookie.name)).toEqual(['produkt_42']);
  }, 30_000);
});

describe('the browser as sites see it', () => {
  it('sends a Chrome user agent without "Headless", and client hints naming Chromium over HTTPS', async () => {
    const limits = { ...DEFAULT_SCAN_LIMITS, pageWaitMs: 300, startPageWaitMs: 600 };
    await createScanner({ browser, policy: sites.policy, limits }).scan('http://www.lang.test/');
    await createScanner({ browser, policy: sites.policy, limits }).scan('https://www.speicher.test/');
    for (const request of ['www.lang.test /', 'www.lang.test /seite-3', 'www.speicher.test /zwei', 'chat.helpwidget.test /fenster']) {
      const userAgent = sites.requestHeaders.get(request)?.['user-agent'];
      expect(userAgent, request).toMatch(/ Chrome\/\d+\./);
      expect(userAgent, request).not.toMatch(/headless/i);
    }
    const hints = sites.requestHeaders.get('www.speicher.test /');
    expect(hints?.['sec-ch-ua']).toMatch(/"Chromium";v="\d+"/);
    expect(hints?.['sec-ch-ua']).not.toMatch(/headless/i);
    expect(hints?.['sec-ch-ua-mobile']).toBe('?0');
  }, 30_000);
});
