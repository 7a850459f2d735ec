import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedBrowser } from '../../../src/scanner/browser.ts';
import { createScanner, DEFAULT_SCAN_LIMITS } from '../../../src/scanner/scan.ts';
import { COMPLIANZ_RULE, COMPLIANZ_SITE, type ExistingCmpSites, startExistingCmpSites } from '../../fixtures/existing-cmp-site.ts';
import { AD_BEACON, AD_TAG, startTrafficSite, TRAFFIC_SITE, type TrafficSite } from '../../fixtures/traffic-site.ts';
import { createDomain } from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';

/**
 * What the onboarding scan answers as a regulator's report would: the third parties each page
 * contacted with their beacons (an ad tag nobody knows included), the phase of every cookie and
 * request, what set each cookie, and the verdict list; on a shop that talks to many third parties
 * (test/fixtures/traffic-site.ts) and on one behind a Complianz banner (existing-cmp-site.ts).
 */

let service: TestService;
let traffic: TrafficSite;
let cmp: ExistingCmpSites;
/** Both fixtures fake connect.facebook.net: each test sends the scan to its own. */
let sites: TrafficSite | ExistingCmpSites;
beforeAll(async () => {
  [traffic, cmp] = await Promise.all([startTrafficSite(), startExistingCmpSites()]);
  const policy: typeof traffic.policy = (host, port) => sites.policy(host, port);
  const limits = { ...DEFAULT_SCAN_LIMITS, pageLimit: 3, pageWaitMs: 1_000, startPageWaitMs: 1_500, totalTimeoutMs: 30_000 };
  service = await startTestService({ scanner: createScanner({ browser: createSharedBrowser({ acceptInsecureCerts: true }), policy, limits }) });
}, 120_000);
afterAll(async () => {
  await service?.close();
  await traffic?.close();
  await cmp?.close();
});

type Party = { host: string; recognised: string | null; services: { name: string }[]; cookies: string[]; beacons: { url: string; why: string }[]; phases: string[] };
type Verdict = { phase: string; subject: string; text: string };

describe('a shop with an ad tag nobody knows', () => {
  it('lists it as an unrecognised third party with its cookie and beacon, and says so in the verdicts (REST)', async () => {
    sites = traffic;
    const domain = await createDomain(service, TRAFFIC_SITE);
    const answer = await service.rest('GET', `${domain.base}/onboarding/scan`);
    expect(answer.status, answer.text).toBe(200);
    const parties: Party[] = answer.body.thirdParties;
    const adTag = parties.find((party) => party.host === new URL(AD_TAG).hostname);
    expect(adTag).toMatchObject({ recognised: null, services: [], cookies: ['adnetz_uid'], phases: ['before-consent'] });
    expect(adTag!.beacons).toContainEqual({ url: AD_BEACON, why: 'sendBeacon' });
    const ga = parties.find((party) => party.host === 'region1.google-analytics.com');
    expect(ga?.services.map((entry) => entry.name)).toContain('Google Analytics 4');
    expect(ga?.beacons.map((beacon) => beacon.why)).toContain('catalog');

    const verdicts: Verdict[] = answer.body.verdicts;
    expect(verdicts.every((verdict) => verdict.phase === 'before-consent')).toBe(true);
    expect(verdicts.map((verdict) => verdict.text)).toEqual(
      expect.arrayContaining([
        'cookie `adnetz_uid` set by ads.adnetz.test/tag.js before consent (unrecognised third party)',
        'tracking beacon sent to ads.adnetz.test/collect before consent (unrecognised third party)',
        expect.stringMatching(/^tracking beacon sent to region1\.google-analytics\.com\/g\/collect.* before consent \(Google Analytics 4\)$/),
      ]),
    );
    expect(answer.body.existingBanner).toBeNull();
  }, 60_000);
});

describe('a shop behind a Complianz banner', () => {
  it('answers what runs only after its banner was accepted, labelled so (GraphQL)', async () => {
    sites = cmp;
    const domain = await createDomain(service, COMPLIANZ_SITE);
    const answer = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!) { scanDomain(clientId: $clientId, domainId: $domainId) {
         existingBanner { cmp accepted error }
         storage { cookies { name phase setBy } }
         thirdParties { host phases }
         verdicts { phase subject text }
       } }`,
      { clientId: domain.clientId, domainId: domain.domainId },
    );
    expect(answer.errors).toBeUndefined();
    const scan = answer.data.scanDomain;
    expect(scan.existingBanner).toEqual({ cmp: COMPLIANZ_RULE, accepted: true, error: null });
    expect(scan.storage.cookies).toContainEqual({ name: '_fbp', phase: 'after-accept', setBy: 'https://connect.facebook.net/en_US/fbevents.js' });
    expect(scan.thirdParties).toContainEqual({ host: 'connect.facebook.net', phases: ['after-accept'] });
    expect(scan.verdicts).toContainEqual({
      phase: 'after-accept',
      subject: 'cookie',
      text: "cookie `_fbp` set by connect.facebook.net/en_US/fbevents.js only after the site's own banner (Complianz banner) was accepted (Meta Pixel)",
    });
    expect((scan.verdicts as Verdict[]).filter((verdict) => verdict.phase === 'before-consent')).toEqual([]);
  }, 60_000);
});
