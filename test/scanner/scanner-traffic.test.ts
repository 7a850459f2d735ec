import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/features/catalog/catalog.ts';
import { thirdPartiesOf } from '../../src/features/onboarding/third-parties.ts';
import { createSharedBrowser, type SharedBrowser } from '../../src/scanner/browser.ts';
import { startEgressGuard } from '../../src/scanner/egress-guard.ts';
import { type FoundCookie, foundCookieOf } from '../../src/scanner/site-visit.ts';
import { createTrafficLog, hasIdentifier, imageSize, type ScanPhase, type ThirdPartyRequest } from '../../src/scanner/traffic.ts';
import {
  AD_BEACON,
  AD_TAG,
  BOOKING_FRAME,
  BOOKING_SCRIPT,
  CHAT_SCRIPT,
  CHAT_SOCKET,
  GTAG_SCRIPT,
  HOME_PAGE_HITS,
  HUBSPOT_SCRIPT,
  MATOMO_SCRIPT,
  META_SCRIPT,
  PHOTO,
  SPACER,
  startTrafficSite,
  TRAFFIC_CONTACT_PAGE,
  TRAFFIC_SITE,
  type TrafficSite,
  UNKNOWN_PIXEL,
} from '../fixtures/traffic-site.ts';

/**
 * The traffic log (src/scanner/traffic.ts) in a real browser on a shop that talks to many third
 * parties (test/fixtures/traffic-site.ts): what it records of each request, and what the scan's
 * answer makes of it (third-parties.ts with the built-in catalog).
 */

let site: TrafficSite;
let browser: SharedBrowser;
let requests: ThirdPartyRequest[];
let cookies: FoundCookie[];
/** What the page's script after its `debugger;` statement marked. */
let afterDebugger: string | undefined;

const SITE = 'traffic-shop.test';

/** Until every `host path` has reached the fixture, then until the tab's network is idle. */
async function waitForHits(page: Page, hits: readonly string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!hits.every((hit) => site.requests.includes(hit))) {
    if (Date.now() > deadline) throw new Error(`missing hits: ${hits.filter((hit) => !site.requests.includes(hit)).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await page.waitForNetworkIdle({ idleTime: 200, timeout: 5_000 });
}

beforeAll(async () => {
  site = await startTrafficSite();
  browser = createSharedBrowser({ acceptInsecureCerts: true });
  const guard = await startEgressGuard(site.policy);
  try {
    ({ requests, cookies } = await browser.withContext(guard.proxyServer, async (context) => {
      const page = await context.newPage();
      const traffic = createTrafficLog();
      let phase: ScanPhase = 'before-consent';
      await traffic.watch(page, { site: () => SITE, phase: () => phase });
      await page.goto(TRAFFIC_SITE, { waitUntil: 'load' });
      await waitForHits(page, HOME_PAGE_HITS);
      afterDebugger = await page.evaluate(() => document.documentElement.dataset['weiter']);
      // The same page again, in the same phase: nothing new but fresh hit addresses.
      phase = 'after-accept';
      const hubspotHits = site.requests.filter((hit) => hit === 'track.hubspot.com /__ptq.gif').length;
      await page.goto(TRAFFIC_CONTACT_PAGE, { waitUntil: 'load' });
      const deadline = Date.now() + 10_000;
      while (site.requests.filter((hit) => hit === 'track.hubspot.com /__ptq.gif').length === hubspotHits && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      await page.waitForNetworkIdle({ idleTime: 200, timeout: 5_000 });
      await traffic.settled();
      return { requests: traffic.requests(), cookies: (await context.cookies()).map((cookie) => foundCookieOf(cookie, SITE)) };
    }));
  } finally {
    await guard.close();
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const on = (predicate: (request: ThirdPartyRequest) => boolean) => requests.filter(predicate);
const one = (predicate: (request: ThirdPartyRequest) => boolean) => {
  const found = on(predicate);
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('the traffic log', () => {
  it('records only hosts of other sites, and nothing that came from nowhere (data:)', () => {
    expect(requests.length).toBeGreaterThan(0);
    expect(on((request) => request.host.endsWith(SITE))).toEqual([]);
    expect(on((request) => !/^(?:https|wss):\/\//.test(request.url))).toEqual([]);
  });

  it('records each script with its kind, page and phase; a script written in the page has the page as initiator', () => {
    const tag = one((request) => request.url === AD_TAG);
    expect(tag).toMatchObject({ host: 'ads.adnetz.test', kind: 'script', page: TRAFFIC_SITE, initiator: TRAFFIC_SITE, phase: 'before-consent' });
    for (const script of [GTAG_SCRIPT, META_SCRIPT, MATOMO_SCRIPT, CHAT_SCRIPT]) expect(one((request) => request.url === script).kind, script).toBe('script');
  });

  it('names the script that sent each hit, with the kind the browser gives it', () => {
    const ga = one((request) => request.url.startsWith('https://region1.google-analytics.com/g/collect?'));
    expect(ga).toMatchObject({ kind: 'beacon', initiator: GTAG_SCRIPT, page: TRAFFIC_SITE });
    expect(one((request) => request.url.startsWith('https://www.facebook.com/tr/?'))).toMatchObject({ kind: 'image', initiator: META_SCRIPT, pixel: true });
    expect(one((request) => request.url.startsWith('https://traffic.matomo.cloud/matomo.php?'))).toMatchObject({ kind: 'xhr', initiator: MATOMO_SCRIPT });
    expect(one((request) => request.url === AD_BEACON)).toMatchObject({ kind: 'beacon', initiator: AD_TAG });
    for (const hit of on((request) => request.host === 'track.hubspot.com')) expect(hit).toMatchObject({ kind: 'image', initiator: HUBSPOT_SCRIPT, pixel: true });
  });

  it("keeps asynchronous stacks for that without pausing the page at its 'debugger;' statement", () => {
    expect(afterDebugger).toBe('ja');
  });

  it("records a WebSocket with the script that opened it, and what a frame's HTML loads with the frame as initiator", () => {
    expect(one((request) => request.kind === 'websocket')).toMatchObject({ url: CHAT_SOCKET, host: 'live.chat-dienst.test', initiator: CHAT_SCRIPT, page: TRAFFIC_SITE });
    expect(one((request) => request.url === BOOKING_FRAME)).toMatchObject({ kind: 'frame', initiator: TRAFFIC_SITE });
    expect(one((request) => request.url === BOOKING_SCRIPT)).toMatchObject({ kind: 'script', initiator: BOOKING_FRAME, page: TRAFFIC_SITE });
  });

  it('marks 1×1 images with an identifier in their address as pixels, and no other image', () => {
    expect(one((request) => request.url === UNKNOWN_PIXEL)).toMatchObject({ kind: 'image', pixel: true, initiator: TRAFFIC_SITE });
    expect(one((request) => request.url === PHOTO).pixel).toBeUndefined();
    expect(one((request) => request.url === SPACER).pixel).toBeUndefined();
  });

  it('notes the cookies an answer sets', () => {
    expect(one((request) => request.url === AD_TAG).setsCookies).toEqual(['adnetz_uid']);
    expect(one((request) => request.url === AD_BEACON).setsCookies).toBeUndefined();
  });

  it('records a request once per page and phase: the HubSpot script on both pages, each in its phase', () => {
    const hubspot = on((request) => request.url === HUBSPOT_SCRIPT).map(({ page, phase }) => ({ page, phase }));
    expect(hubspot).toEqual([
      { page: TRAFFIC_SITE, phase: 'before-consent' },
      { page: TRAFFIC_CONTACT_PAGE, phase: 'after-accept' },
    ]);
    const keys = requests.map((request) => `${request.kind} ${request.url} ${request.page} ${request.phase}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('what makes an image a pixel', () => {
  it('an identifier in the query: a parameter named like one, or a value mixing letters and digits', () => {
    for (const url of ['https://p.example/i.gif?uid=42', 'https://p.example/i.gif?visitorId=x', 'https://p.example/i.gif?c=GA1.1.4711', 'https://p.example/i.gif?u=3f2b8c1e-0d9a-4c55-9e1f-2a7b6c5d4e3f'])
      expect(hasIdentifier(url), url).toBe(true);
    for (const url of ['https://p.example/i.gif', 'https://p.example/i.gif?cb=1733598123456', 'https://p.example/i.gif?paid=yes', 'https://p.example/i.gif?id=', 'https://p.example/i.gif?lang=de'])
      expect(hasIdentifier(url), url).toBe(false);
  });

  it('reads the size of GIF and PNG images from their header', () => {
    expect(imageSize(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'))).toEqual({ width: 1, height: 1 });
    const png = Buffer.alloc(24);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
    png.writeUInt32BE(300, 16);
    png.writeUInt32BE(2, 20);
    expect(imageSize(png)).toEqual({ width: 300, height: 2 });
    expect(imageSize(Buffer.from('not an image at all'))).toBeUndefined();
  });
});

describe('the third parties of the scan answer, from that traffic', () => {
  const entry = (host: string) => {
    const found = thirdPartiesOf(builtinCatalog(), { requests, cookies }).find((party) => party.host === host);
    expect(found, host).toBeDefined();
    return found!;
  };

  it("marks the tracking beacons of GA4, Meta Pixel, Matomo and HubSpot by the catalog's endpoints", () => {
    for (const [host, service] of [
      ['region1.google-analytics.com', 'Google Analytics 4'],
      ['www.facebook.com', 'Meta Pixel'],
      ['traffic.matomo.cloud', 'Matomo'],
      ['track.hubspot.com', 'HubSpot Tracking Code'],
    ] as const) {
      const party = entry(host);
      expect(party.recognised, host).toBe('catalog');
      expect(party.services.map((found) => found.name), host).toEqual([service]);
      expect(party.beacons.length, host).toBeGreaterThan(0);
      expect(new Set(party.beacons.map((beacon) => beacon.why)), host).toEqual(new Set(['catalog']));
    }
    expect(entry('track.hubspot.com').phases).toEqual(['before-consent', 'after-accept']);
  });

  it('lists the unknown ad tag as an unrecognised third party with its cookie and its sendBeacon, and the unknown pixel with its hit', () => {
    expect(entry('ads.adnetz.test')).toMatchObject({
      site: 'adnetz.test',
      services: [],
      trackerList: null,
      recognised: null,
      kinds: ['script', 'beacon'],
      pages: [TRAFFIC_SITE],
      initiators: [AD_TAG, TRAFFIC_SITE].sort(),
      cookies: ['adnetz_uid'],
      beacons: [{ url: AD_BEACON, why: 'sendBeacon' }],
    });
    expect(entry('px.zaehlpixel.test')).toMatchObject({ recognised: null, kinds: ['image'], beacons: [{ url: UNKNOWN_PIXEL, why: 'pixel' }], cookies: [] });
    expect(entry('img.bilderdienst.test')).toMatchObject({ recognised: null, beacons: [], cookies: [] });
  });
});
