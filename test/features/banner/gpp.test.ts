import { GppModel } from '@iabgpp/cmpapi';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_NAME } from '../../../src/features/banner/banner-config.build.ts';
import { DEVELOPMENT_CMP_ID } from '../../../src/features/tcf-vendors/tcf-cmp.ts';
import { REGION_PATH } from '../../../src/features/banner/region/visitor-region.ts';
import { US_OPT_OUT_CATEGORIES } from '../../../src/features/banner/runtime/us-privacy.ts';
import { INNER_PAGE, type VendorKey, VENDORS } from '../../fixtures/vendor-site.ts';
import { bannerShown, consentRecordsOf, findingsOf, type OnboardedSite, onboardVendorSite, startVisit } from '../../support/onboarded-site.ts';
import { until } from '../../support/until.ts';

/**
 * A domain whose US visitors get the opt-out model (`usPrivacyModel: "opt-out"`), seen by a
 * visitor's Chromium on the fixture site onboarded as the README says: IAB GPP's `__gpp` (CMP API
 * 1.1) with the US National section (usnat), Global Privacy Control as an opt-out, the "Do Not
 * Sell or Share" control, and the banner as before for anyone outside the US. The visitor's
 * country comes from a CDN header the service trusts (`COUNTRY_HEADER`), added to the page's
 * requests for the region by interception, as in region.test.ts. The GPP strings are decoded here
 * with IAB's own library.
 */

type PingData = {
  gppVersion: string;
  cmpStatus: string;
  cmpDisplayStatus: string;
  signalStatus: string;
  supportedAPIs: string[];
  cmpId: number;
  sectionList: number[];
  applicableSections: number[];
  gppString: string;
  parsedSections: Record<string, unknown>;
};
type GppEvent = { eventName: string; listenerId: number; data: unknown; pingData: PingData };
type GppWindow = { __gpp: (command: string, callback: (value: unknown, success: boolean) => void, parameter?: unknown) => unknown; __gppEvents: GppEvent[] };

/**
 * Before any script of the page: registers a GPP event listener the moment the page gets `__gpp`
 * (the stub app.js defines), so the listener goes through the stub's queue as a tag's would.
 */
const LISTEN_FOR_GPP = () => {
  const events: unknown[] = [];
  let current: unknown;
  (window as unknown as { __gppEvents: unknown[] }).__gppEvents = events;
  Object.defineProperty(window, '__gpp', {
    configurable: true,
    get: () => current,
    set(value: unknown) {
      const first = current === undefined;
      current = value;
      if (first && typeof value === 'function') (value as (...args: unknown[]) => unknown)('addEventListener', (event: unknown) => events.push(event));
    },
  });
  const accepted: string[] = [];
  (window as unknown as { __accepted: string[] }).__accepted = accepted;
  addEventListener('ccm19EmbeddingAccepted', (event) => accepted.push((event as CustomEvent<{ code: string }>).detail.code));
};

const GPC = () => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });

/** `__gpp(command, …, parameter)` in the page, answered through its callback. */
const gpp = <T>(page: Page, command: string, parameter?: string) =>
  page.evaluate(
    (command, parameter) => new Promise<{ value: unknown; success: boolean }>((resolve) => (window as unknown as GppWindow).__gpp(command, (value, success) => resolve({ value, success }), parameter)),
    command,
    parameter,
  ) as Promise<{ value: T; success: boolean }>;

/** The ping once the CMP says its signal is ready. */
const readyPing = (page: Page) =>
  until('GPP signalStatus ready', async () => {
    const { value } = await gpp<PingData>(page, 'ping');
    return value.signalStatus === 'ready' ? value : undefined;
  });

/** The usnat fields a GPP string holds, decoded by IAB's library. */
const usnatOf = (gppString: string) => {
  const model = new GppModel(gppString);
  const field = (name: string) => model.getFieldValue('usnat', name) as unknown;
  return {
    sectionIds: model.getSectionIds(),
    SaleOptOut: field('SaleOptOut'),
    SharingOptOut: field('SharingOptOut'),
    TargetedAdvertisingOptOut: field('TargetedAdvertisingOptOut'),
    SaleOptOutNotice: field('SaleOptOutNotice'),
    SharingNotice: field('SharingNotice'),
    Gpc: field('Gpc'),
    MspaCoveredTransaction: field('MspaCoveredTransaction'),
  };
};

describe('GPP for US visitors (usPrivacyModel opt-out) on an onboarded site', () => {
  let onboarded: OnboardedSite;
  let regionUrl: string;
  let appBefore: string;
  /** Vendor → its embedding's category, for the vendors the banner offers. */
  let categoryOf: Map<VendorKey, string>;
  const app = () => fetch(`${onboarded.service.baseUrl}/app.js?domain=${onboarded.domain.domainId}`).then((answer) => answer.text());
  const withheld = (vendor: VendorKey) => US_OPT_OUT_CATEGORIES.includes(categoryOf.get(vendor) ?? '');

  beforeAll(async () => {
    onboarded = await onboardVendorSite({ countryHeader: 'CF-IPCountry' });
    regionUrl = `${onboarded.service.baseUrl}${REGION_PATH}`;
    categoryOf = new Map([...onboarded.embeddings].filter(([, embedding]) => embedding.active).map(([vendor, embedding]) => [vendor, embedding.category]));
    appBefore = await app();
    const put = await onboarded.service.rest('PUT', onboarded.domain.base, { usPrivacyModel: 'opt-out' });
    expect(put.status, put.text).toBe(200);
    expect(put.body.usPrivacyModel).toBe('opt-out');
  }, 120_000);

  afterAll(async () => {
    await onboarded?.close();
  }, 60_000);

  it('the fixture site has embeddings on both sides of the opt-out', () => {
    const kept = VENDORS.filter((vendor) => vendor.runs && categoryOf.has(vendor.key) && !withheld(vendor.key)).map((vendor) => vendor.key);
    const held = VENDORS.filter((vendor) => vendor.runs && withheld(vendor.key)).map((vendor) => vendor.key);
    expect(kept.length, `kept: ${kept}`).toBeGreaterThan(0);
    expect(held, 'withheld by an opt-out').toContain('metaPixel');
  });

  it('app.js loads the GPP bundle only for an opt-out domain; the bundle is served, immutable', async () => {
    expect(appBefore, 'opt-in (the default): no GPP').not.toMatch(/\/banner\/gpp-[0-9a-f]{64}\.js/);
    const script = await app();
    const chunkUrl = /https?:[^"\s]*\/banner\/gpp-[0-9a-f]{64}\.js/.exec(script)?.[0];
    expect(chunkUrl, 'the bundle named in app.js').toBeDefined();
    const chunk = await fetch(chunkUrl!);
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('cache-control')).toMatch(/immutable/);
    expect(await chunk.text()).toContain('usnat');
  });

  const consentRecords = () => consentRecordsOf(onboarded);

  /** A visitor whose requests for the region say `country` (CDN header); `gpc`: the browser sends Global Privacy Control. */
  async function visitFrom(country: string, { gpc = false } = {}) {
    const visitor = await startVisit(onboarded, onboarded.markup('advised'));
    const { page } = visitor;
    await page.evaluateOnNewDocument(LISTEN_FOR_GPP);
    if (gpc) await page.evaluateOnNewDocument(GPC);
    await page.setRequestInterception(true);
    page.on('request', (intercepted) => {
      if (intercepted.url().startsWith(regionUrl)) void intercepted.continue({ headers: { ...intercepted.headers(), 'cf-ipcountry': country } });
      else void intercepted.continue();
    });
    return { visitor, page };
  }

  const accepted = (page: Page) => page.evaluate(() => (window as unknown as { __accepted: string[] }).__accepted);
  const activeEmbeddings = () => [...onboarded.embeddings.values()].filter((embedding) => embedding.active);

  it('a US visitor: no banner, every embedding, and __gpp answers ping, getSection, getField and events with usnat "did not opt out"', { timeout: 90_000 }, async () => {
    const { visitor, page } = await visitFrom('US');
    await visitor.open('/');
    const ping = await readyPing(page);
    expect(ping).toMatchObject({
      gppVersion: '1.1',
      cmpStatus: 'loaded',
      signalStatus: 'ready',
      applicableSections: [7],
      supportedAPIs: ['7:usnat'],
      cmpId: DEVELOPMENT_CMP_ID,
      sectionList: [7],
    });
    const decoded = usnatOf(ping.gppString);
    expect(decoded).toEqual({
      sectionIds: [7],
      SaleOptOut: 2,
      SharingOptOut: 2,
      TargetedAdvertisingOptOut: 2,
      SaleOptOutNotice: 1,
      SharingNotice: 1,
      Gpc: false,
      MspaCoveredTransaction: 2,
    });
    const section = await gpp<Record<string, unknown>>(page, 'getSection', 'usnat');
    expect(section.value).toMatchObject({ Version: 2, SaleOptOut: 2, SharingOptOutNotice: 1, TargetedAdvertisingOptOutNotice: 1, Gpc: false });
    expect((await gpp(page, 'getField', 'usnat.SaleOptOut')).value).toBe(2);
    expect((await gpp(page, 'hasSection', 'usnat')).value).toBe(true);
    expect((await gpp(page, 'hasSection', 'tcfeuv2')).value).toBe(false);

    // The listener registered through the stub's queue before the CMP loaded.
    const events = await page.evaluate(() => (window as unknown as GppWindow).__gppEvents);
    expect(events[0]).toMatchObject({ eventName: 'listenerRegistered', data: true });
    expect(events.map((event) => event.listenerId).every((id) => id === events[0]!.listenerId)).toBe(true);
    const ready = events.find((event) => event.eventName === 'signalStatus' && event.data === 'ready');
    expect(ready?.pingData.applicableSections).toEqual([7]);

    expect(await bannerShown(page), 'no banner').toBe(false);
    expect(new Set(await accepted(page)), 'every embedding runs').toEqual(new Set(activeEmbeddings().map((embedding) => embedding.id)));
    expect(await page.evaluate(() => typeof (window as unknown as { CCM?: { openDoNotSell?: unknown } }).CCM?.openDoNotSell)).toBe('function');
    // The map is on the inner page.
    await visitor.open(INNER_PAGE);
    const { byVendor } = findingsOf(await visitor.finish());
    for (const vendor of VENDORS) if (vendor.runs && categoryOf.has(vendor.key)) expect.soft(byVendor.get(vendor.key)!.ran, `${vendor.label} runs`).toBe(true);
  });

  it('a frame of another origin finds the CMP through __gppLocator and asks it by postMessage', { timeout: 90_000 }, async () => {
    const { visitor, page } = await visitFrom('US');
    await visitor.open('/');
    await readyPing(page);
    const answers = await page.evaluate(
      () =>
        new Promise<unknown[]>((resolve) => {
          addEventListener('message', (event) => {
            if ((event.data as { fromFrame?: unknown[] })?.fromFrame) resolve((event.data as { fromFrame: unknown[] }).fromFrame);
          });
          const frame = document.createElement('iframe');
          // Sandboxed without same-origin: an opaque, foreign origin, as an ad's frame has.
          frame.setAttribute('sandbox', 'allow-scripts');
          frame.srcdoc = `<script>
            let cmpFrame = null;
            for (let w = window; w; w = w === top ? null : w.parent) {
              try { if (w.frames['__gppLocator']) { cmpFrame = w; break; } } catch (e) {}
            }
            const replies = [];
            const calls = [{ command: 'ping', callId: 1 }, { command: 'getField', parameter: 'usnat.SharingOptOut', callId: 2 }];
            addEventListener('message', (event) => {
              const reply = event.data && event.data.__gppReturn;
              if (!reply) return;
              replies.push(reply);
              if (replies.length === calls.length) top.postMessage({ fromFrame: [String(cmpFrame === top), document.origin || origin, ...replies] }, '*');
            });
            for (const call of calls) cmpFrame.postMessage({ __gppCall: { version: '1.1', ...call } }, '*');
          </script>`;
          document.body.appendChild(frame);
        }),
    );
    const [foundTop, frameOrigin, ...replies] = answers as [string, string, ...{ callId: number; success: boolean; returnValue: unknown }[]];
    expect(foundTop, 'the locator is in the top page').toBe('true');
    expect(frameOrigin, 'the asking frame is of another origin').toBe('null');
    const byId = new Map(replies.map((reply) => [reply.callId, reply]));
    expect(byId.get(1)).toMatchObject({ success: true, returnValue: { gppVersion: '1.1', applicableSections: [7], signalStatus: 'ready' } });
    expect(byId.get(2)).toMatchObject({ success: true, returnValue: 2 });
    await visitor.finish();
  });

  it('a US visitor whose browser sends GPC: opted out (Gpc set), no banner, the withheld purposes stay off, the rest runs', { timeout: 90_000 }, async () => {
    const recordsBefore = (await consentRecords()).length;
    const { visitor, page } = await visitFrom('US', { gpc: true });
    await visitor.open('/');
    const ping = await readyPing(page);
    expect(usnatOf(ping.gppString)).toMatchObject({ SaleOptOut: 1, SharingOptOut: 1, TargetedAdvertisingOptOut: 1, Gpc: true });
    expect((await gpp(page, 'getField', 'usnat.Gpc')).value).toBe(true);
    expect(await bannerShown(page), 'no banner').toBe(false);
    const expected = activeEmbeddings().filter((embedding) => !US_OPT_OUT_CATEGORIES.includes(embedding.category));
    expect(new Set(await accepted(page))).toEqual(new Set(expected.map((embedding) => embedding.id)));
    await visitor.open(INNER_PAGE);
    const { byVendor } = findingsOf(await visitor.finish());
    for (const vendor of VENDORS) {
      if (!vendor.runs || !categoryOf.has(vendor.key)) continue;
      const finding = byVendor.get(vendor.key)!;
      if (withheld(vendor.key)) {
        expect.soft(finding.ran, `${vendor.label} must not run`).toBe(false);
        expect.soft(finding.contacts, `${vendor.label}: requests to its hosts`).toEqual([]);
        expect.soft(finding.cookies, `${vendor.label}: cookies`).toEqual([]);
      } else expect.soft(finding.ran, `${vendor.label} runs`).toBe(true);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await consentRecords()).length, 'a signal is no choice: nothing recorded').toBe(recordsBefore);
  });

  it('the Do-Not-Sell control (a #ccm-do-not-sell link): a dialog with one choice; opting out is stored, recorded and in the string, and the withheld purposes stop loading', { timeout: 120_000 }, async () => {
    const recordsBefore = (await consentRecords()).length;
    const { visitor, page } = await visitFrom('US');
    await visitor.open('/');
    await readyPing(page);
    await page.evaluate(() => {
      const link = document.createElement('a');
      link.href = '#ccm-do-not-sell';
      link.id = 'do-not-sell-link';
      link.textContent = 'Do Not Sell or Share My Personal Information';
      document.body.append(link);
    });
    await page.click('#do-not-sell-link');
    const dialog = await page.waitForSelector('dialog#ccm-do-not-sell[open]', { visible: true, timeout: 5_000 });
    expect(await dialog!.evaluate((element) => ({ label: document.getElementById(element.getAttribute('aria-labelledby')!)?.textContent, modal: element.matches(':modal'), buttons: element.querySelectorAll('button').length }))).toEqual({
      label: 'Do Not Sell or Share My Personal Information',
      modal: true,
      buttons: 2,
    });
    expect(await page.evaluate(() => location.hash), 'the link does not navigate').toBe('');
    await page.click('#ccm-do-not-sell .ccm-do-not-sell-opt-out');
    expect(await page.$eval('#ccm-do-not-sell [role="status"]', (element) => element.textContent)).toMatch(/opted out/);
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog#ccm-do-not-sell[open]', { hidden: true, timeout: 5_000 });

    expect((await gpp(page, 'getField', 'usnat.SaleOptOut')).value).toBe(1);
    const events = await page.evaluate(() => (window as unknown as GppWindow).__gppEvents);
    expect(events.some((event) => event.eventName === 'sectionChange' && event.data === 'usnat')).toBe(true);
    const { value: afterPing } = await gpp<PingData>(page, 'ping');
    expect(usnatOf(afterPing.gppString)).toMatchObject({ SaleOptOut: 1, SharingOptOut: 1, TargetedAdvertisingOptOut: 1, Gpc: false });
    expect(await page.evaluate(() => (window as unknown as { __ccmBanner: { privacyStrings?: { gppString?: string } } }).__ccmBanner.privacyStrings?.gppString)).toBe(afterPing.gppString);
    const stored = await page.evaluate((name) => localStorage.getItem(name), CONSENT_NAME);
    expect(stored, 'the choice is stored as the banner stores one').not.toBeNull();
    const choice = JSON.parse(stored!) as { categories: string[]; data: { usOptOut?: boolean } };
    expect(choice.data.usOptOut).toBe(true);
    for (const category of US_OPT_OUT_CATEGORIES) expect(choice.categories).not.toContain(category);
    await until('the choice recorded', async () => ((await consentRecords()).length > recordsBefore ? true : undefined));

    // The next page: still opted out, no banner, and nothing of the withheld purposes is asked for.
    const from = onboarded.site.requests.length;
    await visitor.open(INNER_PAGE);
    const ping = await readyPing(page);
    expect(usnatOf(ping.gppString)).toMatchObject({ SaleOptOut: 1, Gpc: false });
    expect(await bannerShown(page), 'no banner').toBe(false);
    const requested = new Set(onboarded.site.requests.slice(from).flatMap((request) => (request.vendor ? [request.vendor] : [])));
    for (const vendor of VENDORS) {
      if (!vendor.runs || !categoryOf.has(vendor.key)) continue;
      if (withheld(vendor.key)) expect.soft(requested.has(vendor.key), `${vendor.label}: no request after the opt-out`).toBe(false);
    }
    expect([...requested].some((vendor) => !withheld(vendor as VendorKey) && vendor !== 'googleFonts'), 'the other purposes still load').toBe(true);
    await visitor.finish();
  });

  it('a visitor outside the US (DE): __gpp answers no applicable section, and the banner asks as before', { timeout: 90_000 }, async () => {
    const { visitor, page } = await visitFrom('DE');
    await visitor.open('/');
    const ping = await readyPing(page);
    expect(ping).toMatchObject({ gppVersion: '1.1', cmpStatus: 'loaded', applicableSections: [-1], sectionList: [] });
    expect((await gpp(page, 'getField', 'usnat.SaleOptOut')).value).toBeNull();
    expect(await bannerShown(page), 'the banner').toBe(true);
    expect(new Set(await accepted(page)), 'nothing before a choice').toEqual(new Set(activeEmbeddings().filter((embedding) => embedding.category === 'necessary').map((embedding) => embedding.id)));
    const { byVendor } = findingsOf(await visitor.finish());
    for (const vendor of VENDORS) if (vendor.runs && categoryOf.has(vendor.key) && categoryOf.get(vendor.key) !== 'necessary') expect.soft(byVendor.get(vendor.key)!.ran, `${vendor.label} must not run`).toBe(false);
  });
});
