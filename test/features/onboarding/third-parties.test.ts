import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../../src/features/catalog/catalog.ts';
import { MAX_BEACONS_PER_HOST, MAX_INITIATORS_PER_HOST, onboardingScanResult, type ThirdParty } from '../../../src/features/onboarding/onboarding.contract.ts';
import { thirdPartiesOf } from '../../../src/features/onboarding/third-parties.ts';
import type { FoundCookie } from '../../../src/scanner/site-visit.ts';
import type { ThirdPartyRequest } from '../../../src/scanner/traffic.ts';

/**
 * Who the third parties of a scan are and which of their requests are tracking beacons
 * (third-parties.ts), from recorded requests and cookies: by the built-in catalog, the
 * third-party-web list, and the pixel and sendBeacon heuristics. The browser side is
 * test/scanner/scanner-traffic.test.ts.
 */

const catalog = builtinCatalog();
const HOME = 'https://www.teeladen.example/';
const SHOP = 'https://www.teeladen.example/shop';

const request = (url: string, kind: ThirdPartyRequest['kind'], more: Partial<ThirdPartyRequest> = {}): ThirdPartyRequest => ({
  url,
  host: new URL(url).hostname,
  kind,
  page: HOME,
  initiator: HOME,
  phase: 'before-consent',
  ...more,
});

const cookie = (name: string, domain: string, party: FoundCookie['party']): FoundCookie => ({
  name,
  domain,
  path: '/',
  expires: null,
  httpOnly: false,
  secure: true,
  sameSite: 'None',
  party,
});

/** The answer for these requests and cookies, checked against the scan answer's schema. */
function thirdParties(requests: ThirdPartyRequest[], cookies: FoundCookie[] = []): ThirdParty[] {
  const found = thirdPartiesOf(catalog, { requests, cookies });
  onboardingScanResult.shape.thirdParties.unwrap().parse(found);
  return found;
}

const byHost = (parties: ThirdParty[], host: string) => {
  const found = parties.find((party) => party.host === host);
  expect(found, host).toBeDefined();
  return found!;
};

describe('third parties of a scan', () => {
  it('gives one entry per host, sorted by host, with its kinds in a fixed order and its pages, initiators and phases', () => {
    const gtag = 'https://www.googletagmanager.com/gtag/js?id=G-1';
    const parties = thirdParties([
      request(gtag, 'script'),
      request('https://www.googletagmanager.com/gtm.js?id=GTM-1', 'script', { page: SHOP, phase: 'after-accept' }),
      request(gtag, 'script', { page: SHOP }),
      request('https://cdn.unbekannt.example/lib.js', 'script'),
      request('https://cdn.unbekannt.example/data.json', 'fetch', { initiator: 'https://cdn.unbekannt.example/lib.js' }),
    ]);
    expect(parties.map((party) => party.host)).toEqual(['cdn.unbekannt.example', 'www.googletagmanager.com']);
    expect(byHost(parties, 'www.googletagmanager.com')).toEqual({
      host: 'www.googletagmanager.com',
      site: 'googletagmanager.com',
      services: [
        { id: 1, name: 'Google Analytics 4' },
        { id: 3, name: 'Google Tag Manager' },
      ],
      trackerList: { name: 'Google Tag Manager', company: 'Google', category: 'tag-manager' },
      kinds: ['script'],
      pages: [HOME, SHOP],
      initiators: [HOME],
      beacons: [],
      cookies: [],
      phases: ['before-consent', 'after-accept'],
      recognised: 'catalog',
    });
    expect(byHost(parties, 'cdn.unbekannt.example')).toMatchObject({
      kinds: ['script', 'fetch'],
      initiators: ['https://cdn.unbekannt.example/lib.js', HOME],
      recognised: null,
      services: [],
      trackerList: null,
      beacons: [],
    });
  });

  it("marks GA4's /g/collect, Meta Pixel's /tr, Matomo's matomo.php on any host and HubSpot's __ptq.gif as the catalog's beacons", () => {
    const ga = 'https://region1.google-analytics.com/g/collect?v=2&tid=G-1&cid=1.2';
    const meta = 'https://www.facebook.com/tr/?id=123&ev=PageView';
    const matomo = 'https://statistik.teeladen-partner.example/matomo.php?idsite=1&rec=1';
    const hubspot = 'https://track-eu1.hubspot.com/__ptq.gif?a=1&vi=abc';
    const parties = thirdParties([request(ga, 'beacon'), request(meta, 'image'), request(matomo, 'xhr'), request(hubspot, 'image', { pixel: true })]);
    for (const [host, url, service] of [
      ['region1.google-analytics.com', ga, 'Google Analytics 4'],
      ['www.facebook.com', meta, 'Meta Pixel'],
      ['statistik.teeladen-partner.example', matomo, 'Matomo'],
      ['track-eu1.hubspot.com', hubspot, 'HubSpot Tracking Code'],
    ] as const) {
      const party = byHost(parties, host);
      expect(party.services.map((found) => found.name), host).toEqual([service]);
      expect(party.recognised, host).toBe('catalog');
      expect(party.beacons, host).toEqual([{ url, why: 'catalog' }]);
    }
  });

  it('matches beacon endpoints by path segment: facebook.com/tr is not /track, matomo.php not matomo.php.bak', () => {
    expect(catalog.matchBeacon('https://www.facebook.com/tr').map((entry) => entry.name)).toEqual(['Meta Pixel']);
    expect(catalog.matchBeacon('https://www.facebook.com/track')).toEqual([]);
    expect(catalog.matchBeacon('https://stats.example/piwik/matomo.php.bak')).toEqual([]);
    expect(catalog.matchBeacon('https://www.google-analytics.com/collect?v=1').map((entry) => entry.name)).toEqual(['Google Analytics (Universal Analytics)']);
    expect(catalog.matchBeacon('https://www.google-analytics.com/g/collect?v=2').map((entry) => entry.name)).toEqual(['Google Analytics 4']);
  });

  it('names the one service owning a domain, none when several do, and then falls back on the tracker list with its tracking hits', () => {
    const parties = thirdParties([
      request('https://vars.hotjar.com/box.html', 'frame'),
      request('https://googleads.g.doubleclick.net/pagead/id', 'fetch', { initiator: 'https://www.youtube.com/embed/x' }),
      request('https://code.jquery.com/jquery.min.js', 'script'),
      request('https://code.jquery.com/ping', 'xhr'),
    ]);
    expect(byHost(parties, 'vars.hotjar.com')).toMatchObject({ services: [{ name: 'Hotjar' }], recognised: 'catalog' });
    expect(byHost(parties, 'googleads.g.doubleclick.net')).toMatchObject({
      services: [],
      trackerList: { name: 'Google/Doubleclick Ads', company: 'Google', category: 'ad' },
      recognised: 'tracker-list',
      beacons: [{ url: 'https://googleads.g.doubleclick.net/pagead/id', why: 'tracker-list' }],
    });
    // A CDN the list knows receives no tracking beacons by the list.
    expect(byHost(parties, 'code.jquery.com')).toMatchObject({ recognised: 'tracker-list', trackerList: { category: 'cdn' }, beacons: [] });
  });

  it('lists an unknown ad tag with the cookies it sets and is sent, and its sendBeacon, as an unrecognised third party', () => {
    const tag = 'https://ads.adnetz.example/tag.js';
    const parties = thirdParties(
      [
        request(tag, 'script', { setsCookies: ['adnetz_uid'] }),
        request('https://ads.adnetz.example/collect?slot=top', 'beacon', { initiator: tag }),
        request('https://sync.adnetz.example/match', 'image', { initiator: tag }),
      ],
      [cookie('adnetz_seg', '.adnetz.example', 'third'), cookie('adnetz_uid', '.adnetz.example', 'third'), cookie('warenkorb', 'www.teeladen.example', 'first'), cookie('other', '.anders.example', 'third')],
    );
    expect(byHost(parties, 'ads.adnetz.example')).toEqual({
      host: 'ads.adnetz.example',
      site: 'adnetz.example',
      services: [],
      trackerList: null,
      kinds: ['script', 'beacon'],
      pages: [HOME],
      initiators: [tag, HOME],
      beacons: [{ url: 'https://ads.adnetz.example/collect?slot=top', why: 'sendBeacon' }],
      cookies: ['adnetz_seg', 'adnetz_uid'],
      phases: ['before-consent'],
      recognised: null,
    });
    // The cookies of its domain go to every host of it; an image that is no pixel is no beacon.
    expect(byHost(parties, 'sync.adnetz.example')).toMatchObject({ cookies: ['adnetz_seg', 'adnetz_uid'], beacons: [], recognised: null });
  });

  it('counts a pixel as a beacon, and an image that is none not', () => {
    const parties = thirdParties([
      request('https://px.zaehlpixel.example/p.gif?uid=abc12345', 'image', { pixel: true }),
      request('https://img.bilder.example/logo.png?id=abc12345', 'image'),
    ]);
    expect(byHost(parties, 'px.zaehlpixel.example').beacons).toEqual([{ url: 'https://px.zaehlpixel.example/p.gif?uid=abc12345', why: 'pixel' }]);
    expect(byHost(parties, 'img.bilder.example').beacons).toEqual([]);
  });

  it('lists each beacon address once, and at most so many beacons and initiators per host', () => {
    const hits = Array.from({ length: MAX_BEACONS_PER_HOST + 10 }, (_, i) =>
      request(`https://region1.google-analytics.com/g/collect?v=2&_s=${i}`, 'beacon', { initiator: `https://www.teeladen.example/bundle-${String(i).padStart(2, '0')}.js` }),
    );
    const [ga] = thirdParties([...hits, ...hits.map((hit) => ({ ...hit, page: SHOP }))]);
    expect(ga!.beacons).toHaveLength(MAX_BEACONS_PER_HOST);
    expect(new Set(ga!.beacons.map((beacon) => beacon.url)).size).toBe(MAX_BEACONS_PER_HOST);
    expect(ga!.initiators).toEqual(hits.map((hit) => hit.initiator).slice(0, MAX_INITIATORS_PER_HOST));
  });

  it('has none for findings without requests (a scanner that does not record them)', () => {
    expect(thirdPartiesOf(catalog, { cookies: [cookie('adnetz_uid', '.adnetz.example', 'third')] })).toEqual([]);
  });
});
