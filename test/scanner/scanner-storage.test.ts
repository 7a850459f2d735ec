import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedBrowser, type SharedBrowser } from '../../src/scanner/browser.ts';
import { createScanner, DEFAULT_SCAN_LIMITS, type ScanFindings } from '../../src/scanner/scan.ts';
import { type FixtureWebsites, startFixtureWebsites } from '../fixtures/websites.ts';

/** IndexedDB databases and Cache Storage caches of every frame, on a site served over HTTPS. */

let sites: FixtureWebsites;
let browser: SharedBrowser;
let found: ScanFindings;

beforeAll(async () => {
  sites = await startFixtureWebsites();
  browser = createSharedBrowser({ acceptInsecureCerts: true });
  const limits = { ...DEFAULT_SCAN_LIMITS, navigationTimeoutMs: 4_000, pageWaitMs: 500, startPageWaitMs: 800, graceMs: 200, totalTimeoutMs: 20_000 };
  found = await createScanner({ browser, policy: sites.policy, limits }).scan('https://www.speicher.test/');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sites?.close();
});

describe('storage beyond cookies and Web Storage', () => {
  /** Databases and caches are created through calls the scan does not watch: what created them is not said. */
  const UNWATCHED = { phase: 'before-consent', setBy: null };

  it('reads the IndexedDB databases of the page and of a third-party frame, each once', () => {
    expect(found.pages.map((page) => page.url)).toEqual(['https://www.speicher.test/', 'https://www.speicher.test/zwei']);
    expect(found.indexedDB).toHaveLength(2);
    expect(found.indexedDB).toEqual(
      expect.arrayContaining([
        { name: 'shop-db', origin: 'https://www.speicher.test', ...UNWATCHED },
        { name: 'chat-db', origin: 'https://chat.helpwidget.test', ...UNWATCHED },
      ]),
    );
  });

  it('reads the Cache Storage caches of the page and of a third-party frame', () => {
    expect(found.cacheStorage).toHaveLength(2);
    expect(found.cacheStorage).toEqual(
      expect.arrayContaining([
        { name: 'seiten-v1', origin: 'https://www.speicher.test', ...UNWATCHED },
        { name: 'chat-assets', origin: 'https://chat.helpwidget.test', ...UNWATCHED },
      ]),
    );
  });
});
