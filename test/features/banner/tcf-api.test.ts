import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { TCString, type TCModel } from '@iabtechlabtcf/core';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGION_PATH } from '../../../src/features/banner/region/visitor-region.ts';
import { additionalConsentString } from '../../../src/features/banner/runtime/tcf/additional-consent.ts';
import { fillAddress } from '../../../src/features/banner/runtime/tcf/url-macros.ts';
import { importGlobalVendorList } from '../../../src/features/tcf-vendors/import-global-vendor-list.ts';
import { createClient, createDomain, type DomainPath } from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import { until } from '../../support/until.ts';
import { launchVisitorBrowser, listenOnLoopback } from './fixtures/browser.ts';

/**
 * The TCF CMP (runtime/tcf/) in a real Chromium against the real service: a domain with
 * `tcfEnabled`, the fixture Global Vendor List imported the way `npm run tcf:import` does. Checked
 * the way vendors check a CMP: the CMP API v2.2 commands and events (through `__tcfapi` and, from a
 * frame of another origin, through `__tcfapiLocator` messages), the TC strings decoded with IAB's
 * own library, Google's Additional Consent, and an "ad tag" that behaves like real ones: it sets
 * its cookie and fires its pixel only once the CMP says its vendor and purpose 1 are consented.
 */

const GVL_TEXT = readFileSync(new URL('../../fixtures/global-vendor-list.json', import.meta.url), 'utf8');
const GVL = JSON.parse(GVL_TEXT) as { vendorListVersion: number; tcfPolicyVersion: number };
/** The fixture list's valid vendors (3 is deleted), all of them asked for. */
const VENDORS = [1, 2, 40];
const AD_VENDOR = 40;
const AC_PROVIDERS = [89, 2316];

const PAGE_HOST = 'publisher.test';
const TAG_HOST = 'adtag.test';
const FRAME_HOST = 'frames.test';

type TcData = {
  tcString?: string;
  eventStatus?: string;
  cmpStatus?: string;
  gdprApplies?: boolean;
  listenerId?: number;
  addtlConsent?: string;
  isServiceSpecific?: boolean;
  cmpId?: number;
  tcfPolicyVersion?: number;
  purpose?: { consents: Record<string, boolean>; legitimateInterests: Record<string, boolean> };
  vendor?: { consents: Record<string, boolean>; legitimateInterests: Record<string, boolean> };
};
type Ping = { cmpLoaded: boolean; cmpStatus: string; displayStatus?: string; apiVersion?: string; gvlVersion?: number; tcfPolicyVersion?: number; gdprApplies?: boolean; cmpId?: number };
type TcfWindow = {
  __tcfapi: (command: string, version: number, callback: (value: unknown, success: boolean) => void, parameter?: unknown) => void;
  __tcfEvents: TcData[];
};

/**
 * Before any script of the page: registers a listener the moment the page gets `__tcfapi` (the
 * stub app.js defines), so that it goes through the stub's queue as a tag's would.
 */
const LISTEN_FOR_TCF = () => {
  const events: unknown[] = [];
  let current: unknown;
  (window as unknown as { __tcfEvents: unknown[] }).__tcfEvents = events;
  Object.defineProperty(window, '__tcfapi', {
    configurable: true,
    get: () => current,
    set(value: unknown) {
      const first = current === undefined;
      current = value;
      if (first && typeof value === 'function') (value as (...args: unknown[]) => unknown)('addEventListener', 2, (tcData: unknown) => events.push(tcData));
    },
  });
};

/** `__tcfapi(command, 2, …, parameter)` in the page, answered through its callback. */
const tcfapi = <T>(page: Page | Frame, command: string, parameter?: unknown) =>
  page.evaluate(
    (command, parameter) =>
      new Promise<{ value: unknown; success: boolean }>((resolve) => (window as unknown as TcfWindow).__tcfapi(command, 2, (value, success) => resolve({ value, success }), parameter)),
    command,
    parameter as never,
  ) as Promise<{ value: T; success: boolean }>;

/** A banner button, once its modal stands still, scrolled to within the modal (the TCF notice makes the first layer tall). */
async function clickInModal(page: Page, selector: string): Promise<void> {
  await page.waitForSelector(selector, { visible: true, timeout: 10_000 });
  await page.waitForFunction(
    (selector) => {
      const modal = document.querySelector(selector)?.closest('.cm, .pm');
      return !!modal && getComputedStyle(modal).opacity === '1' && modal.getAnimations({ subtree: true }).length === 0;
    },
    { timeout: 10_000 },
    selector,
  );
  await page.$eval(selector, (button) => button.scrollIntoView({ block: 'center' }));
  if (process.env.TCF_DEBUG) {
    console.log(await page.$eval(selector, (button) => JSON.stringify({ box: button.getBoundingClientRect(), modal: button.closest('.cm')?.getBoundingClientRect() })));
    await page.screenshot({ path: '/tmp/tcf-banner.png' });
  }
  await page.click(selector);
}

const statuses = (page: Page) => page.evaluate(() => (window as unknown as TcfWindow).__tcfEvents.map((event) => event.eventStatus));
const lastEvent = (page: Page) => page.evaluate(() => (window as unknown as TcfWindow).__tcfEvents.at(-1) as TcData);

const ids = (vector: { forEach(each: (value: boolean, id: number) => void): void }) => {
  const found: number[] = [];
  vector.forEach((value, id) => value && found.push(id));
  return found;
};
/** What a TC string says, decoded by IAB's library. */
const decoded = (tcString: string) => {
  const model: TCModel = TCString.decode(tcString);
  return {
    cmpId: model.cmpId,
    cmpVersion: model.cmpVersion,
    vendorListVersion: model.vendorListVersion,
    policyVersion: model.policyVersion,
    isServiceSpecific: model.isServiceSpecific,
    publisherCountryCode: model.publisherCountryCode,
    consentLanguage: model.consentLanguage,
    purposeConsents: ids(model.purposeConsents),
    purposeLegitimateInterests: ids(model.purposeLegitimateInterests),
    vendorConsents: ids(model.vendorConsents),
    vendorLegitimateInterests: ids(model.vendorLegitimateInterests),
    specialFeatureOptins: ids(model.specialFeatureOptins),
    vendorsDisclosed: ids(model.vendorsDisclosed),
  };
};

describe('URL macros and the Additional Consent string (fast)', () => {
  const values = { gdpr: '1', gdpr_consent: 'CQ.a_b', addtl_consent: '2~1.2~dv.3' } as const;

  it('fills the macros, encoded as a URL component, and appends gdpr/gdpr_consent only where asked and missing', () => {
    expect(fillAddress('https://ad.test/x?g=${gdpr}&c=${gdpr_consent}&ac=${addtl_consent}', values, false)).toBe('https://ad.test/x?g=1&c=CQ.a_b&ac=2~1.2~dv.3');
    expect(fillAddress('https://ad.test/x', values, false)).toBe('https://ad.test/x');
    expect(fillAddress('https://ad.test/x?a=1#top', values, true)).toBe('https://ad.test/x?a=1&gdpr=1&gdpr_consent=CQ.a_b#top');
    expect(fillAddress('//ad.test/x', values, true)).toBe('//ad.test/x?gdpr=1&gdpr_consent=CQ.a_b');
    expect(fillAddress('https://ad.test/x?gdpr=0', values, true), 'an address that names gdpr keeps it').toBe('https://ad.test/x?gdpr=0');
    expect(fillAddress('/local.js', values, true), 'a relative address is the site\'s own').toBe('/local.js');
  });

  it('writes Google\'s Additional Consent v2: consented ids, then the disclosed ones not consented', () => {
    expect(additionalConsentString([2316, 89], new Set([89, 2316]))).toBe('2~89.2316~dv.');
    expect(additionalConsentString([2316, 89], new Set())).toBe('2~~dv.89.2316');
    expect(additionalConsentString([2316, 89, 7], new Set([7]))).toBe('2~7~dv.89.2316');
  });
});

describe('the TCF CMP in a browser, served by the service', () => {
  let service: TestService;
  let domain: DomainPath;
  let browser: Browser;
  let snippet: string;
  let regionUrl: string;
  let pageServer: Server;
  let tagServer: Server;
  let pageOrigin: string;
  let tagOrigin: string;
  let frameOrigin: string;
  let embeddingId: string;
  /** What the ad tag's host was asked: its pixel and the script the banner holds for the ad network. */
  const tagRequests: string[] = [];

  const page = (): string => `<!doctype html>
<html lang="en">
<head>
${snippet}
<meta charset="utf-8">
<title>A publisher</title>
<script src="${tagOrigin}/tag.js"></script>
<script type="text/plain" data-category="marketing" data-service="${embeddingId}" src="${tagOrigin}/held.js?gdpr=\${gdpr}&amp;gdpr_consent=\${gdpr_consent}"></script>
</head>
<body>
<main><h1>News</h1>
<a id="macro-link" href="${tagOrigin}/click?gdpr=\${gdpr}&amp;gdpr_consent=\${gdpr_consent}&amp;addtl_consent=\${addtl_consent}">An ad</a>
<iframe id="vendor-frame" src="${frameOrigin}/frame.html" title="A vendor's frame" style="width:10px;height:10px"></iframe>
</main>
</body>
</html>`;

  /** The fixture ad tag: listens to the CMP, and acts on its vendor's and purpose 1's consent only. */
  const adTag = () => `(function () {
  var VENDOR = ${AD_VENDOR};
  window.__tcfapi('addEventListener', 2, function (tcData, success) {
    if (!success) return;
    if (tcData.gdprApplies === false) { new Image().src = '${tagOrigin}/pixel.gif?gdpr=0'; return; }
    if (tcData.eventStatus !== 'tcloaded' && tcData.eventStatus !== 'useractioncomplete') return;
    if (tcData.vendor.consents[VENDOR] && tcData.purpose.consents[1]) {
      document.cookie = 'adtag_uid=' + Math.floor(Math.random() * 1e9) + '; path=/; max-age=86400';
      new Image().src = '${tagOrigin}/pixel.gif?gdpr=1&gdpr_consent=' + encodeURIComponent(tcData.tcString);
    }
  });
})();`;

  /** A vendor's frame of another origin: reaches the CMP through `__tcfapiLocator` messages, as the spec's example does. */
  const vendorFrame = `<!doctype html><html><body><script>
  (function () {
    var locator = null;
    for (var frame = window; frame; frame = frame.parent) {
      try { if (frame.frames.__tcfapiLocator) { locator = frame; break; } } catch (e) {}
      if (frame === window.top) break;
    }
    var answers = (window.__answers = []);
    var calls = {};
    window.__locatorFound = !!locator;
    window.addEventListener('message', function (event) {
      var data = typeof event.data === 'string' ? JSON.parse(event.data) : event.data;
      if (data && data.__tcfapiReturn) answers.push(data.__tcfapiReturn);
    });
    window.callCmp = function (command, parameter) {
      var callId = Math.random() + '';
      locator.postMessage({ __tcfapiCall: { command: command, version: 2, parameter: parameter, callId: callId } }, '*');
      return callId;
    };
  })();
</script></body></html>`;

  const answered = (request: IncomingMessage) => `${request.method} ${request.url}`;

  beforeAll(async () => {
    service = await startTestService({ publicBaseUrl: 'self', countryHeader: 'CF-IPCountry' });
    regionUrl = `${service.baseUrl}${REGION_PATH}`;
    const client = await createClient(service);
    domain = await createDomain(service, PAGE_HOST, { clientId: client.id });
    await importGlobalVendorList(service.database.orm.em.fork(), GVL_TEXT);
    const put = await service.rest('PUT', domain.base, {
      tcfEnabled: true,
      tcfSpecialFeatures: [1],
      tcfGoogleAdditionalConsentMode: true,
      tcfGoogleAdditionalConsentAdProviders: AC_PROVIDERS,
      tcfUrlMacroHandling: true,
      // The ad tag is no embedding's: it governs itself through the CMP, as TCF tags do.
      blockNewScripts: false,
      // The vendor's frame too: its own code asks the CMP.
      blockIframes: false,
    });
    expect(put.status, put.text).toBe(200);
    const embedding = await service.rest('POST', `${domain.base}/embedding`, { name: 'Ad network', purpose: 'cdcbd7c', tcfVendor: AD_VENDOR, active: true });
    expect(embedding.status, embedding.text).toBe(201);
    embeddingId = embedding.body.id as string;
    const embed = await service.rest('GET', `${domain.base}/onboarding/embed`);
    expect(embed.status, embed.text).toBe(200);
    snippet = embed.body.default as string;

    tagServer = createServer((request, response) => {
      tagRequests.push(`${request.headers.host?.split(':')[0]} ${answered(request)}`);
      const path = request.url!.split('?')[0];
      if (path === '/tag.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(adTag());
      if (path === '/held.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end('window.__heldRan = true;');
      if (path === '/frame.html') return response.writeHead(200, { 'content-type': 'text/html' }).end(vendorFrame);
      response.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
    });
    const tagPort = await listenOnLoopback(tagServer);
    tagOrigin = `http://${TAG_HOST}:${tagPort}`;
    frameOrigin = `http://${FRAME_HOST}:${tagPort}`;
    pageServer = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page()));
    pageOrigin = `http://${PAGE_HOST}:${await listenOnLoopback(pageServer)}`;
    browser = await launchVisitorBrowser([PAGE_HOST, TAG_HOST, FRAME_HOST]);
    // The first banner asked for builds the bundles when the install did not: not on a visitor's clock.
    await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`).then((answer) => answer.text());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => pageServer?.close(resolve));
    await new Promise((resolve) => tagServer?.close(resolve));
    await service?.close();
  }, 60_000);

  /** A visitor in a fresh context; `country`: what the CDN header says on the region requests; `blockTcf`: the TCF bundle never arrives. */
  async function visitor({ country = 'DE', blockTcf = false }: { country?: string; blockTcf?: boolean } = {}) {
    const context = await browser.createBrowserContext();
    const visitorPage = await context.newPage();
    await visitorPage.setViewport({ width: 1280, height: 900 });
    await visitorPage.evaluateOnNewDocument(LISTEN_FOR_TCF);
    await visitorPage.setRequestInterception(true);
    visitorPage.on('request', (intercepted) => {
      const url = intercepted.url();
      if (blockTcf && /\/banner\/tcf-[0-9a-f]+\.js/.test(url)) return void intercepted.abort();
      if (url.startsWith(regionUrl)) return void intercepted.continue({ headers: { ...intercepted.headers(), 'cf-ipcountry': country } });
      void intercepted.continue();
    });
    const open = async () => {
      await visitorPage.goto(`${pageOrigin}/`, { waitUntil: 'load' });
      // The CMP has said something, or (without it) the banner shows.
      await visitorPage
        .waitForFunction(() => (window as unknown as TcfWindow).__tcfEvents.length > 0 || document.documentElement.classList.contains('show--consent'), { timeout: 10_000 })
        .catch(() => undefined);
    };
    return { page: visitorPage, open, close: () => context.close() };
  }

  const pixels = (since: number) => tagRequests.slice(since).filter((line) => line.includes('/pixel.gif'));
  const adCookie = async (visitorPage: Page) => (await visitorPage.cookies()).some((cookie) => cookie.name === 'adtag_uid');
  const bannerShown = (visitorPage: Page) => visitorPage.evaluate(() => document.documentElement.classList.contains('show--consent'));
  const expectedCountry = async (visitorPage: Page) =>
    visitorPage.evaluate(() => (window as unknown as { __ccmBanner: { config: { tcf: { publisherCountryCode: string } } } }).__ccmBanner.config.tcf.publisherCountryCode);

  it('app.js carries the stub and the TCF settings; the stub answers ping before the CMP has loaded, and the banner comes without it', { timeout: 60_000 }, async () => {
    const app = await (await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`)).text();
    expect(app).toContain('__tcfapiLocator');
    const { page: visitorPage, open, close } = await visitor({ blockTcf: true });
    await open();
    const ping = await tcfapi<Ping>(visitorPage, 'ping');
    expect(ping.value).toMatchObject({ cmpLoaded: false, cmpStatus: 'stub', apiVersion: '2.2' });
    expect(await visitorPage.evaluate(() => !!window.frames['__tcfapiLocator' as unknown as number])).toBe(true);
    // The bundle never came: the banner shows after its bounded wait all the same.
    await visitorPage.waitForFunction(() => document.documentElement.classList.contains('show--consent'), { timeout: 10_000 });
    expect(await statuses(visitorPage), 'no TC data without the CMP').toEqual([]);
    await close();
  });

  it('a new visitor: cmpuishown with every legitimate interest and no consent, then "accept all": useractioncomplete; the ad tag acts only then', { timeout: 60_000 }, async () => {
    const since = tagRequests.length;
    const { page: visitorPage, open, close } = await visitor();
    await open();
    await until('cmpuishown', async () => ((await statuses(visitorPage)).includes('cmpuishown') ? true : undefined));
    expect(await bannerShown(visitorPage)).toBe(true);
    const ping = (await tcfapi<Ping>(visitorPage, 'ping')).value;
    expect(ping).toMatchObject({ cmpLoaded: true, cmpStatus: 'loaded', displayStatus: 'visible', apiVersion: '2.2', gdprApplies: true, gvlVersion: GVL.vendorListVersion, tcfPolicyVersion: GVL.tcfPolicyVersion, cmpId: 4095 });
    const shown = await lastEvent(visitorPage);
    expect(shown).toMatchObject({ eventStatus: 'cmpuishown', gdprApplies: true, isServiceSpecific: true, addtlConsent: `2~~dv.${AC_PROVIDERS.join('.')}` });
    const country = await expectedCountry(visitorPage);
    expect(decoded(shown.tcString!)).toMatchObject({
      cmpId: 4095,
      vendorListVersion: GVL.vendorListVersion,
      isServiceSpecific: true,
      publisherCountryCode: country,
      purposeConsents: [],
      vendorConsents: [],
      specialFeatureOptins: [],
      purposeLegitimateInterests: [7],
      vendorLegitimateInterests: [1, 40],
      vendorsDisclosed: VENDORS,
    });
    expect(pixels(since), 'no pixel before a choice').toEqual([]);
    expect(await adCookie(visitorPage)).toBe(false);
    expect(await visitorPage.evaluate(() => document.getElementById('macro-link')!.getAttribute('href'))).toContain('gdpr=1&gdpr_consent=C');

    await clickInModal(visitorPage, '#cc-main .cm__btn[data-role="all"]');
    await until('useractioncomplete', async () => ((await statuses(visitorPage)).includes('useractioncomplete') ? true : undefined));
    expect(await statuses(visitorPage)).toEqual(['cmpuishown', 'useractioncomplete']);
    const chosen = await lastEvent(visitorPage);
    expect(chosen.addtlConsent).toBe(`2~${AC_PROVIDERS.join('.')}~dv.`);
    expect(decoded(chosen.tcString!)).toMatchObject({
      cmpId: 4095,
      vendorListVersion: GVL.vendorListVersion,
      publisherCountryCode: country,
      consentLanguage: 'EN',
      purposeConsents: [1, 2, 7],
      vendorConsents: VENDORS,
      purposeLegitimateInterests: [7],
      vendorLegitimateInterests: [1, 40],
      specialFeatureOptins: [1],
    });
    expect((await tcfapi<Ping>(visitorPage, 'ping')).value.displayStatus).toBe('hidden');
    await until('the pixel', async () => (pixels(since).length > 0 ? true : undefined));
    expect(pixels(since)[0]).toContain(`gdpr_consent=${encodeURIComponent(chosen.tcString!)}`);
    expect(await adCookie(visitorPage)).toBe(true);
    // The held script of the ad network's embedding (tcfVendor 40) was released with its macros filled.
    await until('the held script', async () => (tagRequests.slice(since).some((line) => line.includes('/held.js')) ? true : undefined));
    expect(tagRequests.slice(since).find((line) => line.includes('/held.js'))).toContain(`gdpr=1&gdpr_consent=${encodeURIComponent(chosen.tcString!)}`);
    const link = await visitorPage.evaluate(() => document.getElementById('macro-link')!.getAttribute('href'));
    expect(link).toContain(`gdpr_consent=${encodeURIComponent(chosen.tcString!)}&addtl_consent=${encodeURIComponent(chosen.addtlConsent!)}`);

    // The next page: tcloaded with the stored string, no banner, and the tag acts at once.
    const again = tagRequests.length;
    await visitorPage.evaluate(() => ((window as unknown as TcfWindow).__tcfEvents.length = 0));
    await open();
    await until('tcloaded', async () => ((await statuses(visitorPage)).length > 0 ? true : undefined));
    expect(await statuses(visitorPage)).toEqual(['tcloaded']);
    expect((await lastEvent(visitorPage)).tcString).toBe(chosen.tcString);
    expect((await lastEvent(visitorPage)).addtlConsent).toBe(chosen.addtlConsent);
    expect(await bannerShown(visitorPage)).toBe(false);
    // The spec's word for a UI that will not show because the TC data is current.
    expect((await tcfapi<Ping>(visitorPage, 'ping')).value.displayStatus).toBe('disabled');
    await until('the pixel on the next page', async () => (pixels(again).length > 0 ? true : undefined));
    await close();
  });

  it('"reject all": useractioncomplete without any consent, legitimate interests standing; no cookie, no pixel', { timeout: 60_000 }, async () => {
    const since = tagRequests.length;
    const { page: visitorPage, open, close } = await visitor();
    await open();
    await until('cmpuishown', async () => ((await statuses(visitorPage)).includes('cmpuishown') ? true : undefined));
    await clickInModal(visitorPage, '#cc-main .cm__btn[data-role="necessary"]');
    await until('useractioncomplete', async () => ((await statuses(visitorPage)).includes('useractioncomplete') ? true : undefined));
    const chosen = await lastEvent(visitorPage);
    expect(chosen.addtlConsent).toBe(`2~~dv.${AC_PROVIDERS.join('.')}`);
    expect(decoded(chosen.tcString!)).toMatchObject({ purposeConsents: [], vendorConsents: [], specialFeatureOptins: [], purposeLegitimateInterests: [7], vendorLegitimateInterests: [1, 40] });
    await open();
    await until('tcloaded', async () => ((await statuses(visitorPage)).at(-1) === 'tcloaded' ? true : undefined));
    // Time for a tag that would wrongly fire.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pixels(since)).toEqual([]);
    expect(await adCookie(visitorPage)).toBe(false);
    expect(tagRequests.slice(since).some((line) => line.includes('/held.js')), 'the ad network stays held').toBe(false);
    await close();
  });

  it('getTCData (deprecated in 2.2, still answered), getVendorList as 2.2 says, removeEventListener', { timeout: 60_000 }, async () => {
    const { page: visitorPage, open, close } = await visitor();
    await open();
    await until('cmpuishown', async () => ((await statuses(visitorPage)).includes('cmpuishown') ? true : undefined));
    const tcData = await tcfapi<TcData>(visitorPage, 'getTCData');
    expect(tcData.success).toBe(true);
    expect(tcData.value).toMatchObject({ eventStatus: 'cmpuishown', gdprApplies: true, addtlConsent: `2~~dv.${AC_PROVIDERS.join('.')}` });
    expect((await tcfapi<TcData>(visitorPage, 'getTCData', [AD_VENDOR, 999])).value.vendor!.consents).toEqual({ [AD_VENDOR]: false, 999: false });

    for (const parameter of [undefined, 'LATEST', GVL.vendorListVersion, String(GVL.vendorListVersion)]) {
      const list = await tcfapi<{ vendorListVersion: number; vendors: Record<string, unknown> }>(visitorPage, 'getVendorList', parameter);
      expect(list.success, String(parameter)).toBe(true);
      expect(list.value.vendorListVersion).toBe(GVL.vendorListVersion);
      expect(Object.keys(list.value.vendors).map(Number)).toEqual(VENDORS);
    }
    for (const parameter of [GVL.vendorListVersion - 1, 'nonsense', 1.5]) expect(await tcfapi(visitorPage, 'getVendorList', parameter), String(parameter)).toEqual({ value: null, success: false });

    const listenerId = await visitorPage.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const seen: unknown[] = [];
          (window as unknown as { __second: unknown[] }).__second = seen;
          (window as unknown as TcfWindow).__tcfapi('addEventListener', 2, (tcData) => {
            seen.push(tcData);
            resolve((tcData as TcData).listenerId!);
          });
        }),
    );
    expect(await tcfapi<boolean>(visitorPage, 'removeEventListener', listenerId)).toEqual({ value: true, success: true });
    expect((await tcfapi<boolean>(visitorPage, 'removeEventListener', 12_345)).value).toBe(false);
    await clickInModal(visitorPage, '#cc-main .cm__btn[data-role="all"]');
    await until('useractioncomplete', async () => ((await statuses(visitorPage)).includes('useractioncomplete') ? true : undefined));
    expect(await visitorPage.evaluate(() => (window as unknown as { __second: unknown[] }).__second.length), 'the removed listener heard nothing more').toBe(1);
    await close();
  });

  it('a frame of another origin reaches the CMP through __tcfapiLocator messages', { timeout: 60_000 }, async () => {
    const { page: visitorPage, open, close } = await visitor();
    await open();
    await until('cmpuishown', async () => ((await statuses(visitorPage)).includes('cmpuishown') ? true : undefined));
    const frame = visitorPage.frames().find((candidate) => candidate.url().startsWith(frameOrigin))!;
    expect(frame, 'the vendor frame').toBeDefined();
    expect(await frame.evaluate(() => (window as unknown as { __locatorFound: boolean }).__locatorFound)).toBe(true);
    type Answer = { callId: string; success: boolean; returnValue: TcData & Ping };
    const call = async (command: string, parameter?: unknown) => {
      const callId = await frame.evaluate((command, parameter) => (window as unknown as { callCmp: (c: string, p: unknown) => string }).callCmp(command, parameter), command, parameter as never);
      return until(`the answer to ${command}`, () => frame.evaluate((callId) => (window as unknown as { __answers: Answer[] }).__answers.filter((answer) => answer.callId === callId), callId).then((found) => (found.length > 0 ? found : undefined)));
    };
    const [ping] = await call('ping');
    expect(ping!.returnValue).toMatchObject({ cmpLoaded: true, cmpStatus: 'loaded', apiVersion: '2.2', gdprApplies: true });
    const [listening] = await call('addEventListener');
    expect(listening!.success).toBe(true);
    expect(listening!.returnValue.eventStatus).toBe('cmpuishown');
    await clickInModal(visitorPage, '#cc-main .cm__btn[data-role="all"]');
    const answers = await until('useractioncomplete in the frame', () =>
      frame.evaluate((callId) => (window as unknown as { __answers: Answer[] }).__answers.filter((answer) => answer.callId === callId), listening!.callId).then((found) => (found.length > 1 ? found : undefined)),
    );
    expect(answers.at(-1)!.returnValue.eventStatus).toBe('useractioncomplete');
    expect(decoded(answers.at(-1)!.returnValue.tcString!).vendorConsents).toEqual(VENDORS);
    await close();
  });

  /** Opens the settings from the first layer, once the CMP showed its UI. */
  async function openSettings(visitorPage: Page) {
    await until('cmpuishown', async () => ((await statuses(visitorPage)).includes('cmpuishown') ? true : undefined));
    await clickInModal(visitorPage, '#cc-main .cm__btn[data-role="show"]');
    await visitorPage.waitForSelector('#cc-main .pm input[data-tcf="vendorsConsent"]', { timeout: 10_000 });
  }
  /** Switches a checkbox on as a visitor's click on it would (cookieconsent's own are drawn over by their label). */
  async function tick(visitorPage: Page, selector: string) {
    await visitorPage.$eval(selector, (input) => (input as HTMLInputElement).click());
    expect(await visitorPage.$eval(selector, (input) => (input as HTMLInputElement).checked), selector).toBe(true);
  }

  it('saving the settings without touching the TCF switches: the vendor an accepted embedding names is consented, with its purposes', { timeout: 60_000 }, async () => {
    const since = tagRequests.length;
    const { page: visitorPage, open, close } = await visitor();
    await open();
    await openSettings(visitorPage);
    await tick(visitorPage, '#cc-main .pm input.section__toggle[value="marketing"]');
    await clickInModal(visitorPage, '#cc-main .pm__btn[data-role="save"]');
    await until('useractioncomplete', async () => ((await statuses(visitorPage)).includes('useractioncomplete') ? true : undefined));
    const chosen = await lastEvent(visitorPage);
    // Vendor 40 asks consent for purpose 1, and for 7 as a flexible purpose.
    expect(decoded(chosen.tcString!)).toMatchObject({ vendorConsents: [AD_VENDOR], purposeConsents: [1, 7], specialFeatureOptins: [], vendorLegitimateInterests: [1, 40] });
    expect(chosen.addtlConsent).toBe(`2~~dv.${AC_PROVIDERS.join('.')}`);
    await until('the pixel', async () => (pixels(since).length > 0 ? true : undefined));
    expect(await adCookie(visitorPage)).toBe(true);
    await close();
  });

  it('a choice in the TCF layers: the embedding naming the consented vendor is accepted with it, and the record carries the strings', { timeout: 60_000 }, async () => {
    const since = tagRequests.length;
    const recordsBefore = ((await service.rest('GET', `${domain.base}/consent?limit=1000`)).body.records as unknown[]).length;
    const { page: visitorPage, open, close } = await visitor();
    await open();
    await openSettings(visitorPage);
    expect(await visitorPage.$eval('#cc-main .pm input.section__toggle[value="marketing"]', (input) => (input as HTMLInputElement).checked)).toBe(false);
    await tick(visitorPage, `#cc-main .pm li[data-vendor="${AD_VENDOR}"] input[data-tcf="vendorsConsent"]`);
    await tick(visitorPage, '#cc-main .pm input[data-tcf="purposesConsent"][data-id="1"]');
    await clickInModal(visitorPage, '#cc-main .pm__btn[data-role="save"]');
    await until('useractioncomplete', async () => ((await statuses(visitorPage)).includes('useractioncomplete') ? true : undefined));
    const chosen = (await visitorPage.evaluate(() => (window as unknown as TcfWindow).__tcfEvents.filter((event) => event.eventStatus === 'useractioncomplete')))[0]!;
    expect(decoded(chosen.tcString!)).toMatchObject({ vendorConsents: [AD_VENDOR], purposeConsents: [1], specialFeatureOptins: [] });
    // The embedding with tcfVendor 40 follows its vendor: accepted, its held script released.
    await until('the held script', async () => (tagRequests.slice(since).some((line) => line.includes('/held.js')) ? true : undefined));
    const storedConsent = await visitorPage.evaluate(() => {
      const { name, storage } = (window as unknown as { __ccmBanner: { config: { consent: { name: string; storage: string } } } }).__ccmBanner.config.consent;
      if (storage === 'localStorage') return localStorage.getItem(name);
      const cookie = document.cookie.split(/;\s*/).find((part) => part.startsWith(`${name}=`));
      return cookie ? decodeURIComponent(cookie.slice(name.length + 1)) : null;
    });
    expect(storedConsent, "the banner's consent accepts the embedding").toContain(embeddingId);
    const last = await lastEvent(visitorPage);
    expect(decoded(last.tcString!)).toMatchObject({ vendorConsents: [AD_VENDOR], purposeConsents: [1] });
    await until('the pixel', async () => (pixels(since).length > 0 ? true : undefined));
    // The banner's consent records carry the TC and AC strings of the choice.
    const records = await until('the records', async () => {
      const all = (await service.rest('GET', `${domain.base}/consent?limit=1000`)).body.records as Record<string, unknown>[];
      return all.length > recordsBefore ? all : undefined;
    });
    expect(JSON.stringify(records), 'a record holds the TC string').toContain(last.tcString!);
    await close();
  });

  it('a stored choice goes stale when the vendors asked change: the banner asks again (cmpuishown, no tcloaded)', { timeout: 90_000 }, async () => {
    const { page: visitorPage, open, close } = await visitor();
    await open();
    await until('cmpuishown', async () => ((await statuses(visitorPage)).includes('cmpuishown') ? true : undefined));
    await clickInModal(visitorPage, '#cc-main .cm__btn[data-role="all"]');
    await until('useractioncomplete', async () => ((await statuses(visitorPage)).includes('useractioncomplete') ? true : undefined));
    const put = await service.rest('PUT', domain.base, { tcfVendorBlacklist: [2] });
    expect(put.status, put.text).toBe(200);
    await until('app.js without vendor 2', async () => {
      const app = await (await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`)).text();
      return app.includes('"vendorIds":[1,40]') ? true : undefined;
    });
    // (app.js is cached for a while: this visitor gets the new one now.)
    await visitorPage.setCacheEnabled(false);
    await open();
    await until('the TC data', async () => ((await statuses(visitorPage)).length > 0 ? true : undefined));
    expect(await statuses(visitorPage)).toEqual(['cmpuishown']);
    expect(await bannerShown(visitorPage)).toBe(true);
    expect(decoded((await lastEvent(visitorPage)).tcString!)).toMatchObject({ vendorConsents: [], vendorsDisclosed: [1, 40] });
    await close();
    // The domain as the other tests have it.
    expect((await service.rest('PUT', domain.base, { tcfVendorBlacklist: [] })).status).toBe(200);
  });

  it('outside the region (the CDN says US): gdprApplies false, no TC string; the tag goes by its non-GDPR rule', { timeout: 60_000 }, async () => {
    const since = tagRequests.length;
    const { page: visitorPage, open, close } = await visitor({ country: 'US' });
    await open();
    await until('the TC data', async () => ((await statuses(visitorPage)).length > 0 ? true : undefined));
    const event = await lastEvent(visitorPage);
    expect(event.gdprApplies).toBe(false);
    expect(event.tcString).toBeUndefined();
    expect(event.addtlConsent).toBeUndefined();
    expect((await tcfapi<Ping>(visitorPage, 'ping')).value).toMatchObject({ cmpLoaded: true, gdprApplies: false });
    await until('the non-GDPR pixel', async () => (pixels(since).some((line) => line.includes('gdpr=0')) ? true : undefined));
    expect(await visitorPage.evaluate(() => document.getElementById('macro-link')!.getAttribute('href'))).toContain('gdpr=0&gdpr_consent=&addtl_consent=');
    await close();
  });
});
