import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGION_PATH } from '../../../src/features/banner/region/visitor-region.ts';
import { INNER_PAGE, SITE_URL, type VendorKey } from '../../fixtures/vendor-site.ts';
import { defaultThemePath, type OnboardedSite, onboardVendorSite, startVisit, type Visit } from '../../support/onboarded-site.ts';

/**
 * Loose ends of the first round, on the fixture law-office site onboarded as the README says
 * (advised markup), each changed through REST and seen in Chromium:
 * - `rememberIframeConsentPerDomain`: "reject all" withdraws every remembered iframe host; switching
 *   one embedding off withdraws the hosts of its iframes only;
 * - Google Consent Mode: an embedding kept off a page (`excludeUrlsMode`) grants nothing there;
 * - `enableOnlyInEu`: outside the region `window.CCM` tells the services that run;
 * - `manipulationPrevention`: the consent record says it was on, and the log shows it.
 */

const IFRAMES_KEY = 'ccm_consent_iframes';
const YOUTUBE_LOAD = (id: string) => `div[data-service="${id}"] .c-l-b`;
const MAPS_LOAD = (id: string) => `div[data-service="${id}"] .c-l-b`;

describe('loose ends of the first round, seen by the visitor', () => {
  let onboarded: OnboardedSite;
  let themePath: string;
  const id = (vendor: VendorKey) => onboarded.embeddings.get(vendor)!.id;

  beforeAll(async () => {
    onboarded = await onboardVendorSite({ countryHeader: 'CF-IPCountry' });
    themePath = await defaultThemePath(onboarded, 'Loose ends');
  }, 120_000);

  afterAll(async () => {
    await onboarded?.close();
  }, 60_000);

  const put = async (path: string, body: Record<string, unknown>) => {
    const answer = await onboarded.service.rest('PUT', path, body);
    expect(answer.status, answer.text).toBe(200);
  };
  const putEmbedding = (vendor: VendorKey, body: Record<string, unknown>) => put(`${onboarded.domain.base}/embedding/${id(vendor)}`, body);
  const requestsSince = (from: number, vendor: VendorKey) =>
    onboarded.site.requests
      .slice(from)
      .filter((request) => request.vendor === vendor)
      .map((request) => `${request.kind} ${request.host}${request.path}`);
  const frames = (from: number, vendor: VendorKey) => requestsSince(from, vendor).filter((request) => request.startsWith('frame document'));
  const clickInPage = async (visit: Visit, selector: string) => {
    await visit.page.waitForSelector(selector, { visible: true, timeout: 5_000 });
    await visit.page.click(selector);
    await visit.page.waitForNetworkIdle({ idleTime: 500, timeout: 6_000 }).catch(() => undefined);
  };
  const rememberedHosts = async (visit: Visit) =>
    Object.keys((JSON.parse((await visit.page.evaluate((key) => localStorage.getItem(key), IFRAMES_KEY)) ?? '{"hosts":{}}') as { hosts: object }).hosts).sort();

  it('rememberIframeConsentPerDomain: "reject all" withdraws every remembered host; switching one embedding off, the hosts of its iframes', { timeout: 150_000 }, async () => {
    await put(onboarded.domain.base, { rememberIframeConsentPerDomain: true });
    const youtube = id('youtube');
    const maps = id('googleMaps');
    const visit = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await visit.open('/');
      await clickInPage(visit, YOUTUBE_LOAD(youtube));
      expect(await rememberedHosts(visit)).toEqual(['www.youtube.com']);
      await visit.click('#cc-main .cm__btn[data-role="necessary"]');
      await visit.chosen();
      expect(await rememberedHosts(visit), 'after "reject all"').toEqual([]);
      let from = onboarded.site.requests.length;
      await visit.open('/');
      expect(frames(from, 'youtube'), 'YouTube waits for a click again').toEqual([]);

      // Both iframes loaded by a click and remembered, then everything accepted, then YouTube switched off.
      await clickInPage(visit, YOUTUBE_LOAD(youtube));
      await visit.open(INNER_PAGE);
      await clickInPage(visit, MAPS_LOAD(maps));
      const remembered = await rememberedHosts(visit);
      expect(remembered).toContain('www.youtube.com');
      expect(remembered.length, 'the map’s host too').toBe(2);
      await visit.page.evaluate(() => (window as unknown as { CCM: { openControlPanel(): void } }).CCM.openControlPanel());
      await visit.click('#cc-main .pm__btn[data-role="all"]');
      await visit.chosen();
      await visit.page.evaluate(() => (window as unknown as { CCM: { openControlPanel(): void } }).CCM.openControlPanel());
      await visit.page.waitForSelector('#cc-main .pm', { visible: true });
      await visit.page.evaluate((service) => {
        const toggle = document.querySelector<HTMLInputElement>(`#cc-main .pm input[value="${service}"]`)!;
        toggle.checked = false;
        toggle.dispatchEvent(new Event('change', { bubbles: true }));
      }, youtube);
      await visit.click('#cc-main .pm__btn[data-role="save"]');
      await visit.chosen();
      expect(await rememberedHosts(visit), 'YouTube switched off: its host goes, the map’s stays').toEqual(remembered.filter((host) => host !== 'www.youtube.com'));
      from = onboarded.site.requests.length;
      await visit.open('/');
      expect(frames(from, 'youtube'), 'YouTube, switched off, does not load').toEqual([]);
    } finally {
      await visit.finish();
      await put(onboarded.domain.base, { rememberIframeConsentPerDomain: false });
    }
  });

  it('Google Consent Mode grants nothing for an embedding kept off the page; manipulationPrevention goes into the consent record', { timeout: 120_000 }, async () => {
    const embeddings = await onboarded.service.rest('GET', `${onboarded.domain.base}/embedding`);
    expect(embeddings.status, embeddings.text).toBe(200);
    const list = (Array.isArray(embeddings.body) ? embeddings.body : embeddings.body.embeddings) as { id: string; googleConsentMode: string[] }[];
    // Matomo alone grants personalization_storage, and is kept off the home page.
    expect(list.filter((embedding) => embedding.googleConsentMode.includes('personalization_storage'))).toEqual([]);
    const granting = list.find((embedding) => embedding.id !== id('matomo') && embedding.googleConsentMode.length > 0);
    await putEmbedding('matomo', { googleConsentMode: ['personalization_storage'], excludeUrlsMode: 'blacklist', excludeFromUrls: [SITE_URL] });
    if (!granting) await putEmbedding('ga4', { googleConsentMode: ['analytics_storage'] });
    await put(themePath, { manipulationPrevention: true });
    const updates = (visit: Visit) =>
      visit.page.evaluate(() =>
        ((window as unknown as { dataLayer?: ArrayLike<unknown>[] }).dataLayer ?? [])
          .filter((entry) => entry[0] === 'consent' && entry[1] === 'update')
          .map((entry) => entry[2] as Record<string, string>),
      );
    const visit = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await visit.open('/');
      await visit.click('#cc-main .cm__btn[data-role="all"]');
      await visit.chosen();
      const afterChoice = (await updates(visit)).at(-1)!;
      expect(afterChoice, 'an update after "accept all"').toBeDefined();
      expect(Object.values(afterChoice), 'something is granted').toContain('granted');
      expect(afterChoice.personalization_storage, 'Matomo is kept off the home page').toBe('denied');
      await visit.open('/');
      expect((await updates(visit)).at(-1)?.personalization_storage, 'the home page again, with the stored consent').toBe('denied');
      await visit.open(INNER_PAGE);
      expect((await updates(visit)).at(-1)?.personalization_storage, 'Matomo runs on /kontakt').toBe('granted');
    } finally {
      await visit.finish();
      await putEmbedding('matomo', { googleConsentMode: [], excludeUrlsMode: '', excludeFromUrls: [] });
      await put(themePath, { manipulationPrevention: false });
    }
    const log = await onboarded.service.rest('GET', `${onboarded.domain.base}/consent?limit=1000`);
    expect(log.status, log.text).toBe(200);
    const records = log.body.records as { choice: string; manipulationPrevention: boolean }[];
    expect(records.find((record) => record.choice === 'all'), 'the record of "accept all"').toMatchObject({ manipulationPrevention: true });
    expect(records.find((record) => record.choice === 'necessary'), 'the earlier "reject all", without the mode').toMatchObject({ manipulationPrevention: false });
  });

  it('enableOnlyInEu: outside the region window.CCM lists the embeddings and cookies that run, without a consent', { timeout: 90_000 }, async () => {
    await put(themePath, { enableOnlyInEu: true });
    const regionUrl = `${onboarded.service.baseUrl}${REGION_PATH}`;
    const visit = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await visit.page.setRequestInterception(true);
      visit.page.on('request', (intercepted) => {
        if (intercepted.url().startsWith(regionUrl)) void intercepted.continue({ headers: { ...intercepted.headers(), 'cf-ipcountry': 'US' } });
        else void intercepted.continue();
      });
      const from = onboarded.site.requests.length;
      await visit.open('/');
      expect(requestsSince(from, 'ga4'), 'GA4 runs outside the region').not.toEqual([]);
      const api = await visit.page.evaluate(() => {
        const { CCM } = window as unknown as { CCM: { consent: boolean; acceptedEmbeddings: { id: string }[]; acceptedCookies: string[] } };
        return { consent: CCM.consent, embeddings: CCM.acceptedEmbeddings.map((embedding) => embedding.id), cookies: CCM.acceptedCookies };
      });
      expect(api.consent, 'no one chose').toBe(false);
      const active = [...onboarded.embeddings.values()].filter((embedding) => embedding.active).map((embedding) => embedding.id);
      expect(api.embeddings.sort()).toEqual(expect.arrayContaining(active));
      expect(api.embeddings).toContain(id('ga4'));
      expect(api.cookies.length, 'the cookies the running embeddings declare').toBeGreaterThan(0);
    } finally {
      await visit.finish();
      await put(themePath, { enableOnlyInEu: false });
    }
  });
});
