import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_NAME } from '../../../src/features/banner/banner-config.build.ts';
import { INNER_PAGE, VENDORS } from '../../fixtures/vendor-site.ts';
import { defaultThemePath, findingsOf, type OnboardedSite, onboardVendorSite, startVisit } from '../../support/onboarded-site.ts';
import { until } from '../../support/until.ts';

/**
 * The theme's `complyWithDoNotTrack` (Do Not Track and Global Privacy Control), Google Tag
 * Manager's dataLayer events and the deprecated `ccm19CookieAccepted` event, seen by a visitor's
 * Chromium on the fixture site onboarded as the README says. Chromium sends neither signal on its
 * own: the visitor's pages get `navigator.globalPrivacyControl` or `navigator.doNotTrack` before
 * any of their scripts run.
 */

/** What the page's window holds of the banner. */
type BannerWindow = { CCM: { acceptedEmbeddings: { id: string }[]; acceptedCookies: string[]; fullConsentGiven: boolean }; dataLayer?: unknown[] };

type StoredRecord = { consentId: string; choice: string; categories: string[]; services: string[]; signal: string | null; path: string };

/** Set in every document before its scripts: what the banner tells the page, in order. */
const LISTEN = () => {
  const seen: { type: string; detail: unknown }[] = [];
  (window as unknown as { __ccmEvents: typeof seen }).__ccmEvents = seen;
  for (const type of ['ccm19EmbeddingAccepted', 'ccm19CookieAccepted']) {
    addEventListener(type, (event) => seen.push({ type, detail: (event as CustomEvent).detail }));
  }
};

const GPC = () => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });
const DNT = () => Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1', configurable: true });

describe('privacy signals, Tag Manager events and the JavaScript API on an onboarded site', () => {
  let onboarded: OnboardedSite;
  let themePath: string;
  /** Embedding id → its name as entered, for every embedding the banner offers. */
  let names: Map<string, string>;
  /** The embeddings of the necessary category (accepted by every choice). */
  let necessary: Set<string>;

  beforeAll(async () => {
    onboarded = await onboardVendorSite();
    const { service, domain } = onboarded;
    themePath = await defaultThemePath(onboarded, 'Signals');
    const embeddings = await service.rest('GET', `${domain.base}/embedding`);
    expect(embeddings.status, embeddings.text).toBe(200);
    const active = (embeddings.body as { id: string; name: string; active: boolean; purpose: string }[]).filter((embedding) => embedding.active);
    names = new Map(active.map((embedding) => [embedding.id, embedding.name]));
    necessary = new Set(active.filter((embedding) => embedding.purpose === '41ba25c').map((embedding) => embedding.id));
  }, 120_000);

  afterAll(async () => {
    await onboarded?.close();
  }, 60_000);

  const complyWithDoNotTrack = async (on: boolean) => {
    const answer = await onboarded.service.rest('PUT', themePath, { complyWithDoNotTrack: on });
    expect(answer.status, answer.text).toBe(200);
  };

  /** The consent log's records of a consent id, oldest first, once there are `count`. */
  const recordsOf = (consentId: string, count: number) =>
    until(`${count} record(s) of ${consentId}`, async () => {
      const answer = await onboarded.service.rest('GET', `${onboarded.domain.base}/consent?limit=1000`);
      const records = (answer.body.records as (StoredRecord & { consentId: string })[]).filter((record) => record.consentId === consentId).reverse();
      return records.length >= count ? records : undefined;
    });

  const bannerShown = (page: Page) =>
    page.evaluate(() => {
      const modal = document.querySelector<HTMLElement>('#cc-main .cm');
      return document.documentElement.classList.contains('show--consent') || (!!modal && getComputedStyle(modal).visibility !== 'hidden');
    });

  /** The consent the banner stored, in a cookie or in localStorage as the domain says. */
  const storedConsent = async (page: Page) => {
    const cookie = (await page.cookies()).find((candidate) => candidate.name === CONSENT_NAME);
    const text = cookie ? decodeURIComponent(cookie.value) : await page.evaluate((name) => localStorage.getItem(name), CONSENT_NAME);
    return text ? (JSON.parse(text) as { consentId: string; categories: string[]; data: { signal?: string } | null }) : null;
  };

  /** The entries a Tag Manager container reads as CCM19's events (gtag's `arguments` entries aside). */
  const ccmEntries = (page: Page) =>
    page.evaluate(() =>
      (((window as unknown as BannerWindow).dataLayer ?? []) as Record<string, unknown>[]).filter((entry) => typeof entry.event === 'string' && entry.event.startsWith('CCM19.')),
    ) as Promise<Record<string, unknown>[]>;

  /** What a signal-sending visitor leaves: no banner, no vendor, the signal in the stored consent and in the record. */
  async function signalVisit(signal: 'gpc' | 'dnt', install: () => void) {
    const visitor = await startVisit(onboarded, onboarded.markup('advised'));
    const { page } = visitor;
    await page.evaluateOnNewDocument(install);
    await visitor.open('/');
    expect(await bannerShown(page), 'no banner').toBe(false);
    const stored = await storedConsent(page);
    expect(stored, 'a stored consent').not.toBeNull();
    expect(stored!.data?.signal).toBe(signal);
    const accepted = await page.evaluate(() => (window as unknown as BannerWindow).CCM.acceptedEmbeddings.map((embedding) => embedding.id));
    expect(new Set(accepted)).toEqual(necessary);
    await visitor.open(INNER_PAGE);
    expect(await bannerShown(page), 'no banner on the next page either').toBe(false);
    const evidence = await visitor.finish();
    expect.soft(evidence.problems).toEqual([]);
    const { byVendor, unattributed } = findingsOf(evidence);
    for (const vendor of VENDORS) {
      const embedding = onboarded.embeddings.get(vendor.key);
      if (embedding && necessary.has(embedding.id)) continue;
      const finding = byVendor.get(vendor.key)!;
      if (vendor.runs) expect.soft(finding.ran, `${vendor.label} must not run`).toBe(false);
      expect.soft(finding.contacts, `${vendor.label}: requests to its hosts`).toEqual([]);
      expect.soft(finding.cookies, `${vendor.label}: cookies`).toEqual([]);
      expect.soft(finding.storage, `${vendor.label}: web storage`).toEqual([]);
    }
    expect.soft(unattributed, 'nothing else is stored or contacted').toEqual([]);
    return stored!.consentId;
  }

  describe('with complyWithDoNotTrack on', () => {
    beforeAll(() => complyWithDoNotTrack(true));

    it('answers Global Privacy Control with "necessary only" and no banner, recorded as the signal', { timeout: 90_000 }, async () => {
      const consentId = await signalVisit('gpc', GPC);
      const [record] = await recordsOf(consentId, 1);
      // The necessary category is in the banner only when an active embedding has that purpose.
      expect(record).toMatchObject({ choice: 'necessary', categories: necessary.size > 0 ? ['necessary'] : [], signal: 'gpc', path: '/' });
      expect(new Set(record!.services)).toEqual(necessary);
      // The proof of consent says so too.
      const { service, domain } = onboarded;
      const evidence = await service.rest('GET', `${domain.base}/consent/${consentId}/evidence`);
      expect(evidence.status, evidence.text).toBe(200);
      expect(evidence.body.record).toMatchObject({ choice: 'necessary', signal: 'gpc' });
      const page = await service.rest('GET', `${domain.base}/consent/${consentId}/evidence.html`);
      expect(page.status, page.text).toBe(200);
      expect(page.text).toContain('Global Privacy Control');
    });

    it('lets a GPC visitor opt in later through the settings button; that choice is their own', { timeout: 60_000 }, async () => {
      const visitor = await startVisit(onboarded, onboarded.markup('advised'), { paths: ['/'] });
      const { page } = visitor;
      await page.evaluateOnNewDocument(GPC);
      await visitor.open('/');
      expect(await bannerShown(page)).toBe(false);
      await page.waitForSelector('.ccm-settings-button', { visible: true, timeout: 5_000 });
      await page.click('.ccm-settings-button');
      await visitor.click('#cc-main .pm__btn[data-role="all"]');
      await page.waitForFunction(() => (window as unknown as BannerWindow).CCM.fullConsentGiven, { timeout: 5_000 });
      const stored = await storedConsent(page);
      expect(stored!.data?.signal, 'a choice of the visitor’s own is no longer the signal').toBeUndefined();
      const [first, second] = await recordsOf(stored!.consentId, 2);
      expect(first).toMatchObject({ choice: 'necessary', signal: 'gpc' });
      expect(second).toMatchObject({ choice: 'all', signal: null });
      const evidence = await visitor.finish();
      expect(evidence.problems).toEqual([]);
    });

    it('honours the Sec-GPC header alone: app.js varies by it and tells the runtime', { timeout: 60_000 }, async () => {
      const { service, domain } = onboarded;
      const appJs = (headers: Record<string, string>) => fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`, { headers });
      const plain = await appJs({});
      const marked = await appJs({ 'Sec-GPC': '1' });
      expect(plain.headers.get('vary')).toContain('Sec-GPC');
      expect(marked.headers.get('vary')).toContain('Sec-GPC');
      expect(marked.headers.get('etag')).not.toBe(plain.headers.get('etag'));
      expect(await plain.text()).not.toContain('__ccmSecGpc');
      expect(await marked.text()).toMatch(/^window\.__ccmSecGpc=1;/);

      // A browser that sends the header but exposes no navigator.globalPrivacyControl.
      const visitor = await startVisit(onboarded, onboarded.markup('advised'), { paths: ['/'] });
      const { page } = visitor;
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        if (request.isInterceptResolutionHandled()) return;
        const toBanner = request.url().startsWith(`${service.baseUrl}/app.js`);
        void request.continue(toBanner ? { headers: { ...request.headers(), 'sec-gpc': '1' } } : undefined);
      });
      await visitor.open('/');
      expect(await page.evaluate(() => 'globalPrivacyControl' in navigator)).toBe(false);
      expect(await bannerShown(page)).toBe(false);
      const stored = await storedConsent(page);
      expect(stored?.data?.signal).toBe('gpc');
      const [record] = await recordsOf(stored!.consentId, 1);
      expect(record).toMatchObject({ choice: 'necessary', signal: 'gpc' });
      const evidence = await visitor.finish();
      expect(evidence.problems).toEqual([]);
      const { byVendor } = findingsOf(evidence);
      for (const vendor of VENDORS) if (vendor.runs) expect.soft(byVendor.get(vendor.key)!.ran, `${vendor.label} must not run`).toBe(false);
    });

    it('answers Do Not Track the same way', { timeout: 90_000 }, async () => {
      const consentId = await signalVisit('dnt', DNT);
      const [record] = await recordsOf(consentId, 1);
      expect(record).toMatchObject({ choice: 'necessary', signal: 'dnt' });
    });

    it('refuses a record that claims a signal for more than what is necessary', async () => {
      const { service, domain } = onboarded;
      const latest = (await service.rest('GET', `${domain.base}/consent?limit=1`)).body.records[0] as StoredRecord & { revision: string; locale: string };
      const answer = await fetch(`${service.baseUrl}/consent`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
        body: JSON.stringify({
          domain: domain.domainId,
          consentId: crypto.randomUUID(),
          choice: 'all',
          categories: ['necessary'],
          services: [],
          revision: latest.revision,
          locale: latest.locale,
          url: 'http://www.kanzlei-muster.test/',
          signal: 'gpc',
        }),
      });
      expect(answer.status).toBe(400);
      expect(JSON.stringify(await answer.json())).toContain('/choice');
    });
  });

  describe('with complyWithDoNotTrack off', () => {
    beforeAll(() => complyWithDoNotTrack(false));

    it('shows the banner to a visitor sending both signals; app.js does not vary by Sec-GPC', { timeout: 60_000 }, async () => {
      const answer = await fetch(`${onboarded.service.baseUrl}/app.js?domain=${onboarded.domain.domainId}`, { headers: { 'Sec-GPC': '1' } });
      expect(answer.headers.get('vary')).toBe('Accept-Encoding');
      expect(await answer.text()).not.toContain('__ccmSecGpc');
      const visitor = await startVisit(onboarded, onboarded.markup('advised'), { paths: ['/'] });
      await visitor.page.evaluateOnNewDocument(GPC);
      await visitor.page.evaluateOnNewDocument(DNT);
      await visitor.open('/');
      expect(await bannerShown(visitor.page)).toBe(true);
      expect(await storedConsent(visitor.page)).toBeNull();
      const evidence = await visitor.finish();
      expect(evidence.problems).toEqual([]);
    });

    it('pushes CCM19.consentStateChanged, then CCM19.embeddingAccepted and CCM19.cookieAccepted.<cookie>, on "accept all" and on every later page; ccm19CookieAccepted per cookie', { timeout: 90_000 }, async () => {
      const visitor = await startVisit(onboarded, onboarded.markup('advised'));
      const { page } = visitor;
      await page.evaluateOnNewDocument(LISTEN);
      await visitor.open('/');
      expect(await ccmEntries(page), 'nothing before a choice').toEqual([]);
      await visitor.click('#cc-main .cm__btn[data-role="all"]');
      await visitor.chosen();

      const expectedState = (initialConsent: boolean) => ({
        event: 'CCM19.consentStateChanged',
        initialConsent,
        ...Object.fromEntries([...names].map(([, name]) => [`ccm19_${name}`, true])),
      });
      const cookies = await page.evaluate(() => (window as unknown as BannerWindow).CCM.acceptedCookies);
      expect(cookies.length, 'the onboarded services declare cookies').toBeGreaterThan(0);
      const check = (entries: Record<string, unknown>[], initialConsent: boolean) => {
        expect(entries[0]).toEqual(expectedState(initialConsent));
        const accepted = entries.filter((entry) => entry.event === 'CCM19.embeddingAccepted');
        expect(accepted.map((entry) => entry.id).sort()).toEqual([...names.keys()].sort());
        for (const entry of accepted) expect(entry).toEqual({ event: 'CCM19.embeddingAccepted', id: entry.id, name: names.get(entry.id as string) });
        const cookieEvents = entries.filter((entry) => String(entry.event).startsWith('CCM19.cookieAccepted.'));
        expect(new Set(cookieEvents.map((entry) => String(entry.event).slice('CCM19.cookieAccepted.'.length)))).toEqual(new Set(cookies));
        // The state first, then every embedding, then every cookie: nothing else of CCM19's in between.
        expect(entries).toHaveLength(1 + accepted.length + cookieEvents.length);
        expect(entries.slice(1, 1 + accepted.length)).toEqual(accepted);
      };
      check(await ccmEntries(page), true);

      const events = await page.evaluate(() => (window as unknown as { __ccmEvents: { type: string; detail: Record<string, unknown> }[] }).__ccmEvents);
      const cookieEvents = events.filter((event) => event.type === 'ccm19CookieAccepted').map((event) => event.detail);
      expect(new Set(cookieEvents.map((detail) => detail.name))).toEqual(new Set(cookies));
      for (const detail of cookieEvents) {
        expect(names.has(detail.code as string), `${String(detail.name)}: code is its embedding's id`).toBe(true);
        expect(typeof detail.purpose).toBe('string');
        expect(detail.mandatory).toBe(necessary.has(detail.code as string));
      }

      await visitor.open(INNER_PAGE);
      check(await ccmEntries(page), false);
      await visitor.finish();
    });

    it('after "reject all", the state names every embedding as not accepted but the necessary ones', { timeout: 60_000 }, async () => {
      const visitor = await startVisit(onboarded, onboarded.markup('advised'), { paths: ['/'] });
      const { page } = visitor;
      await visitor.open('/');
      await visitor.click('#cc-main .cm__btn[data-role="necessary"]');
      await visitor.chosen();
      const entries = await ccmEntries(page);
      expect(entries[0]).toEqual({
        event: 'CCM19.consentStateChanged',
        initialConsent: true,
        ...Object.fromEntries([...names].map(([id, name]) => [`ccm19_${name}`, necessary.has(id)])),
      });
      expect(entries.filter((entry) => entry.event === 'CCM19.embeddingAccepted').map((entry) => entry.id).sort()).toEqual([...necessary].sort());
      const evidence = await visitor.finish();
      expect(evidence.problems).toEqual([]);
    });
  });
});
