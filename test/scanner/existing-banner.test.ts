import type { BrowserContext, Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSharedBrowser, type SharedBrowser } from '../../src/scanner/browser.ts';
import { type EgressGuard, startEgressGuard } from '../../src/scanner/egress-guard.ts';
import { prepareBannerAcceptance } from '../../src/scanner/existing-banner.ts';
import { newTab } from '../../src/scanner/site-visit.ts';
import {
  COMPLIANZ_RULE,
  COMPLIANZ_SITE,
  type ExistingCmpSites,
  HOTJAR_ID,
  HOTJAR_SCRIPT,
  HOTJAR_VISIT,
  META_PIXEL_HIT,
  META_PIXEL_SCRIPT,
  NO_BANNER_SITE,
  startExistingCmpSites,
} from '../fixtures/existing-cmp-site.ts';

/** A site's tags that run only after its banner was accepted, seen by the scan's browser through the egress guard. */

let sites: ExistingCmpSites;
let browser: SharedBrowser;
let guard: EgressGuard;

beforeAll(async () => {
  sites = await startExistingCmpSites();
  guard = await startEgressGuard(sites.policy);
  browser = createSharedBrowser({ acceptInsecureCerts: true });
  await browser.warmUp();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await guard?.close();
  await sites?.close();
});
beforeEach(() => {
  sites.requests.length = 0;
});

/** A tab of a fresh context of the scan's browser, as the crawl opens it. */
function inTab<T>(work: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
  return browser.withContext(guard.proxyServer, async (context) => {
    const visit = new AbortController();
    try {
      return await work(await newTab(context, { signal: visit.signal, navigationTimeoutMs: 10_000 }), context);
    } finally {
      visit.abort();
    }
  });
}

const TAGS_AFTER_CONSENT = [META_PIXEL_SCRIPT, META_PIXEL_HIT, HOTJAR_SCRIPT, HOTJAR_VISIT];
const cookieNames = async (context: BrowserContext) => (await context.cookies()).map((cookie) => cookie.name);

describe('accepting the banner a site already runs', () => {
  it('accepts it on the reload of a tab that saw the site before consent, and the tags behind it run', async () => {
    await inTab(async (page, context) => {
      await page.goto(COMPLIANZ_SITE, { waitUntil: 'load' });
      await page.waitForSelector('.cmplz-cookiebanner.cmplz-show', { visible: true });
      await page.waitForNetworkIdle({ idleTime: 500 });
      expect(sites.requests).toEqual([]);
      expect(await cookieNames(context)).not.toContain('_fbp');

      const acceptance = await prepareBannerAcceptance(page);
      await page.reload({ waitUntil: 'domcontentloaded' });
      expect(await acceptance.result(10_000)).toEqual({ cmp: COMPLIANZ_RULE, accepted: true });

      await vi.waitFor(() => expect(sites.requests).toEqual(expect.arrayContaining(TAGS_AFTER_CONSENT)), { timeout: 5_000 });
      await vi.waitFor(async () => expect(await cookieNames(context)).toEqual(expect.arrayContaining(['_fbp', `_hjSessionUser_${HOTJAR_ID}`])));
      const cookies = await context.cookies();
      expect(cookies.find((cookie) => cookie.name === '_fbp')?.domain).toBe('.moebelhaus.test');
      expect(cookies.find((cookie) => cookie.name === 'cmplz_marketing')?.value).toBe('allow');
      expect(await page.$eval('.cmplz-cookiebanner', (banner) => getComputedStyle(banner).display)).toBe('none');

      // The choice holds: the next page runs the tags at once, without a banner.
      sites.requests.length = 0;
      await page.goto(new URL('/sofas', COMPLIANZ_SITE).href, { waitUntil: 'load' });
      await vi.waitFor(() => expect(sites.requests).toEqual(expect.arrayContaining(TAGS_AFTER_CONSENT)), { timeout: 5_000 });
      expect(await page.$eval('.cmplz-cookiebanner', (banner) => getComputedStyle(banner).display)).toBe('none');
    });
  });

  it('accepts it in a fresh tab on the first visit (time printed)', async () => {
    await inTab(async (page, context) => {
      const acceptance = await prepareBannerAcceptance(page);
      const started = performance.now();
      await page.goto(COMPLIANZ_SITE, { waitUntil: 'domcontentloaded' });
      const banner = await acceptance.result(10_000);
      console.log(`existing banner: ${JSON.stringify(banner)} ${Math.round(performance.now() - started)} ms from navigation to acceptance`);
      expect(banner).toEqual({ cmp: COMPLIANZ_RULE, accepted: true });
      await vi.waitFor(() => expect(sites.requests).toEqual(expect.arrayContaining(TAGS_AFTER_CONSENT)), { timeout: 5_000 });
      await vi.waitFor(async () => expect(await cookieNames(context)).toContain('_fbp'));
      // Asked again, the answer stays.
      expect(await acceptance.result(0)).toEqual(banner);
    });
  });

  it('answers undefined when the site shows no banner, at the time-out', async () => {
    await inTab(async (page) => {
      const acceptance = await prepareBannerAcceptance(page);
      await page.goto(NO_BANNER_SITE, { waitUntil: 'domcontentloaded' });
      const started = performance.now();
      expect(await acceptance.result(3_000)).toBeUndefined();
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(2_900);
      expect(waited).toBeLessThan(5_000);
    });
  });

  it('answers undefined at once when the tab closes', async () => {
    await inTab(async (page) => {
      const acceptance = await prepareBannerAcceptance(page);
      await page.goto(NO_BANNER_SITE, { waitUntil: 'domcontentloaded' });
      const answer = acceptance.result(20_000);
      const started = performance.now();
      await page.close();
      expect(await answer).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(5_000);
    });
  });
});
