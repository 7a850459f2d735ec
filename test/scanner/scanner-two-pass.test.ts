import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedBrowser, type SharedBrowser } from '../../src/scanner/browser.ts';
import { createScanner, DEFAULT_SCAN_LIMITS, type ScanFindings } from '../../src/scanner/scan.ts';
import { COMPLIANZ_RULE, COMPLIANZ_SITE, type ExistingCmpSites, HOTJAR_ID, NO_BANNER_SITE, startExistingCmpSites } from '../fixtures/existing-cmp-site.ts';

/**
 * A scan of a site that already runs another CMP's banner: the crawl reads the site as a first
 * visitor gets it, then the second pass accepts the banner and labels what appears only then.
 */

let sites: ExistingCmpSites;
let browser: SharedBrowser;

beforeAll(async () => {
  sites = await startExistingCmpSites();
  browser = createSharedBrowser({ acceptInsecureCerts: true });
  await browser.warmUp();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sites?.close();
});

const phaseOf = (found: ScanFindings, name: string) => found.cookies.find((cookie) => cookie.name === name)?.phase;

describe('a site behind a Complianz banner', () => {
  let found: ScanFindings;
  beforeAll(async () => {
    found = await createScanner({ browser, policy: sites.policy }).scan(COMPLIANZ_SITE);
  }, 60_000);

  it('names the banner and says it was accepted', () => {
    expect(found.existingBanner).toEqual({ cmp: COMPLIANZ_RULE, accepted: true });
  });

  it('finds the Meta Pixel and Hotjar only after accepting, labelled so, with what set their cookies', () => {
    expect(phaseOf(found, '_fbp')).toBe('after-accept');
    expect(phaseOf(found, `_hjSessionUser_${HOTJAR_ID}`)).toBe('after-accept');
    expect(found.cookies.find((cookie) => cookie.name === '_fbp')?.setBy).toMatch(/^https:\/\/connect\.facebook\.net\/.*fbevents\.js/);
    // The banner's own choice cookies come from the click: after accepting as well.
    expect(found.cookies.filter((cookie) => cookie.phase === 'before-consent').map((cookie) => cookie.name)).not.toContain('_fbp');
  });

  it('labels the trackers’ requests after-accept and none of them before', () => {
    const hosts = (phase: string) => new Set(found.requests.filter((request) => request.phase === phase).map((request) => request.host));
    expect([...hosts('after-accept')]).toEqual(expect.arrayContaining(['connect.facebook.net', 'www.facebook.com', 'static.hotjar.com']));
    for (const host of ['connect.facebook.net', 'www.facebook.com', 'static.hotjar.com', 'in.hotjar.com']) expect(hosts('before-consent')).not.toContain(host);
  });
});

describe('a site without a banner', () => {
  it('has no second pass: no banner, everything before consent, and no longer than the first pass needs', async () => {
    const found = await createScanner({ browser, policy: sites.policy }).scan(NO_BANNER_SITE);
    expect(found.existingBanner).toBeNull();
    expect(found.cookies.every((cookie) => cookie.phase === 'before-consent')).toBe(true);
    expect(found.requests.every((request) => request.phase === 'before-consent')).toBe(true);
    expect(found.durationMs).toBeLessThan(DEFAULT_SCAN_LIMITS.startPageWaitMs + DEFAULT_SCAN_LIMITS.existingBannerWaitMs);
  }, 60_000);
});
