import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedBrowser, type SharedBrowser } from '../../src/scanner/browser.ts';
import { createScanner, DEFAULT_SCAN_LIMITS } from '../../src/scanner/scan.ts';
import { type FixtureWebsites, startFixtureWebsites } from '../fixtures/websites.ts';

/**
 * The scanner's waits with its default limits: every page is read a fixed time after it loaded,
 * the start page stays open for the whole crawl and at least `startPageWaitMs`, and the other
 * pages are crawled alongside it, so a ten-page site still takes only about six seconds.
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

describe('late keys, with the default waits', () => {
  it('sees keys set 4 s after the start page loaded and 1.5 s after a sub-page loaded, on a site with more pages than tabs', async () => {
    const found = await createScanner({ browser, policy: sites.policy }).scan('http://www.spaet.test/');
    expect(found.pages).toHaveLength(7);
    expect(found.cookies.map((cookie) => cookie.name).sort()).toEqual(['start_spaet', 'unterseite_spaet']);
    const where = (keys: typeof found.localStorage) => keys.map(({ name, origin }) => ({ name, origin }));
    expect(where(found.localStorage)).toEqual([{ name: 'start_spaet', origin: 'http://www.spaet.test' }]);
    expect(where(found.sessionStorage)).toEqual([{ name: 'unterseite_spaet', origin: 'http://www.spaet.test' }]);
  }, 30_000);

  it('cuts the waits short at the time limit of the scan instead of failing it', async () => {
    const totalTimeoutMs = 3_000;
    const found = await createScanner({ browser, policy: sites.policy, limits: { ...DEFAULT_SCAN_LIMITS, totalTimeoutMs } }).scan(
      'http://www.spaet.test/',
    );
    expect(found.pages[0]).toMatchObject({ url: 'http://www.spaet.test/', status: 200 });
    expect(found.pages.length).toBeGreaterThan(1);
    expect(found.durationMs).toBeLessThan(totalTimeoutMs);
  }, 30_000);
});

describe('the default waits', () => {
  // How fast this is, is the benchmark's to say (npm run bench: "scan of a 10-page site with per-page waits").
  it('read all ten pages of a site, none slow, in no less than the start page’s wait', async () => {
    const found = await createScanner({ browser, policy: sites.policy }).scan('http://www.tensite.test/');
    expect(found.pages).toHaveLength(10);
    expect(found.pages.every((page) => page.status === 200 && !page.slow)).toBe(true);
    // The start page's minimum lifetime is the floor; the nine other pages are read meanwhile.
    expect(found.durationMs).toBeGreaterThanOrEqual(DEFAULT_SCAN_LIMITS.startPageWaitMs);
  }, 30_000);
});
