import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinPreset } from '../../support/presets.ts';
import { createSharedBrowser } from '../../../src/scanner/browser.ts';
import { createScanner, DEFAULT_SCAN_LIMITS } from '../../../src/scanner/scan.ts';
import {
  AD_STATUS_SCRIPT,
  ADS_CONVERSION_SCRIPT,
  ADS_SITE,
  GTAG_SCRIPT,
  GTM_SCRIPT,
  startTagManagerSites,
  TAGGED_SITE,
  type TagManagerSites,
  YOUTUBE_FRAME,
} from '../../fixtures/tag-manager-site.ts';
import { createDomain } from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';

/**
 * The onboarding scan suggests services from their own evidence, on a real scan of
 * test/fixtures/tag-manager-site.ts: GTM's conversion linker `_gcl_au` and the YouTube player's
 * `IDE` on doubleclick.net suggest neither Google Ads nor Floodlight, and each suggestion says why.
 */

let service: TestService;
let sites: TagManagerSites;
beforeAll(async () => {
  sites = await startTagManagerSites();
  const limits = { ...DEFAULT_SCAN_LIMITS, navigationTimeoutMs: 4_000, loadTimeoutMs: 1_500, pageWaitMs: 300, startPageWaitMs: 600, graceMs: 500, totalTimeoutMs: 20_000 };
  const scanner = createScanner({ browser: createSharedBrowser({ acceptInsecureCerts: true }), policy: sites.policy, limits });
  service = await startTestService({ scanner });
}, 120_000);
afterAll(async () => {
  await service?.close();
  await sites?.close();
});

const preset = builtinPreset;
const GA4 = preset('Google Analytics 4');
const GTM = preset('Google Tag Manager');
const YOUTUBE = preset('YouTube');
const GOOGLE_ADS = preset('Google Ads Conversion Tracking & Remarketing');

type Why = { kind: string; url?: string | null; name?: string | null; domain?: string | null; origin?: string | null };
type Suggested = { id: number; why: Why[] };

const byId = (presets: Suggested[]) => Object.fromEntries(presets.map((p) => [p.id, p.why]));
const cookieDomainOf = (cookies: { name: string; domain: string }[], name: string) => cookies.find((c) => c.name === name)?.domain;

describe('GTM + GA4 + a YouTube embed, whose vendors set `_gcl_au` and `IDE` on doubleclick.net', () => {
  it('suggests GTM, GA4 and YouTube only, each with its own evidence as why (REST)', async () => {
    const domain = await createDomain(service, TAGGED_SITE);
    const answer = await service.rest('GET', `${domain.base}/onboarding/scan`);
    expect(answer.status, answer.text).toBe(200);
    const cookies = answer.body.storage.cookies;
    // The vendors did set them: the first-party linker cookie and DoubleClick's, from the YouTube frame.
    expect(cookieDomainOf(cookies, '_gcl_au')).toBe('www.tagged-site.test');
    expect(cookieDomainOf(cookies, 'IDE')).toBe('.doubleclick.net');
    expect(sites.requests).toEqual(expect.arrayContaining(['googleads.g.doubleclick.net /pagead/id', 'static.doubleclick.net /instream/ad_status.js']));

    const presets: Suggested[] = answer.body.availablePresets;
    expect(presets.map((p) => p.id)).toEqual([GA4.id, GTM.id, YOUTUBE.id]);
    const why = byId(presets);
    expect(why[GTM.id]).toEqual([
      { kind: 'cookie', name: '_gcl_au', domain: 'www.tagged-site.test' },
      { kind: 'script', url: GTM_SCRIPT },
    ]);
    expect(why[GA4.id]).toEqual(
      expect.arrayContaining([
        { kind: 'cookie', name: '_ga', domain: 'www.tagged-site.test' },
        { kind: 'cookie', name: '_ga_TAGGED1', domain: 'www.tagged-site.test' },
        { kind: 'script', url: GTAG_SCRIPT },
      ]),
    );
    expect(why[YOUTUBE.id]).toEqual(
      expect.arrayContaining([
        { kind: 'cookie', name: 'YSC', domain: '.youtube.com' },
        { kind: 'cookie', name: 'IDE', domain: '.doubleclick.net' },
        { kind: 'frame', url: YOUTUBE_FRAME },
      ]),
    );
    // The ad-status script on doubleclick.net is no signal of any service.
    expect(presets.flatMap((p) => p.why)).not.toContainEqual({ kind: 'script', url: AD_STATUS_SCRIPT });
  });

  it('answers the same through GraphQL', async () => {
    const domain = await createDomain(service, TAGGED_SITE);
    const answer = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!) { scanDomain(clientId: $clientId, domainId: $domainId) {
         availablePresets { id why { kind url name domain origin } }
       } }`,
      { clientId: domain.clientId, domainId: domain.domainId },
    );
    expect(answer.errors).toBeUndefined();
    const presets: Suggested[] = answer.data.scanDomain.availablePresets;
    expect(presets.map((p) => p.id)).toEqual([GA4.id, GTM.id, YOUTUBE.id]);
    expect(byId(presets)[GTM.id]).toEqual([
      { kind: 'cookie', url: null, name: '_gcl_au', domain: 'www.tagged-site.test', origin: null },
      { kind: 'script', url: GTM_SCRIPT, name: null, domain: null, origin: null },
    ]);
    expect(byId(presets)[YOUTUBE.id]).toContainEqual({ kind: 'cookie', url: null, name: 'IDE', domain: '.doubleclick.net', origin: null });
  });
});

describe('a site that loads the Google Ads conversion script', () => {
  it('still gets Google Ads suggested, with its script and its `_gcl_au` as why', async () => {
    const domain = await createDomain(service, ADS_SITE);
    const answer = await service.rest('GET', `${domain.base}/onboarding/scan`);
    expect(answer.status, answer.text).toBe(200);
    const presets: Suggested[] = answer.body.availablePresets;
    expect(presets.map((p) => p.id)).toEqual([GTM.id, GOOGLE_ADS.id]);
    expect(byId(presets)[GOOGLE_ADS.id]).toEqual([
      { kind: 'cookie', name: '_gcl_au', domain: 'www.ads-site.test' },
      { kind: 'script', url: ADS_CONVERSION_SCRIPT },
    ]);
    expect(byId(presets)[GTM.id]).toEqual([{ kind: 'script', url: GTM_SCRIPT }]);
  });
});
