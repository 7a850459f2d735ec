import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INNER_PAGE, SITE_URL, type VendorKey, VENDORS } from '../../fixtures/vendor-site.ts';
import { findingsOf, type OnboardedSite, onboardVendorSite, startVisit, type Visit } from '../../support/onboarded-site.ts';

/**
 * The settings that act on one page or one iframe, on the fixture law-office site onboarded as
 * the README says (advised markup: scripts held as `type="text/plain"`, iframes with `data-src`),
 * each changed through REST and proven in Chromium by what the visitor sees and what the vendor
 * hosts were asked for:
 * - `imprintShowWidget` / `privacyPolicyShowWidget`: no banner on /impressum and /datenschutz
 *   (the pages the onboarding's legal findings put into `{Firma_Impressum}`/`{Firma_Datenschutz}`);
 * - `frontendWidgetMinifyCode`: app.js readable or minified, the banner working either way;
 * - an embedding's `excludeUrlsMode` + `excludeFromUrls`: kept off / limited to pages, even after "accept all";
 * - `appendConsentSwitchToIframes`, `rememberIframeConsentPerDomain`: what the YouTube placeholder
 *   on / offers, and what a click on it is remembered for.
 */

const BANNER = '#cc-main .cm';
const YOUTUBE_NOTICE = (id: string) => `div[data-service="${id}"]`;
const IFRAMES_KEY = 'ccm_consent_iframes';

describe('settings that act on a page or an iframe, seen by the visitor', () => {
  let onboarded: OnboardedSite;
  let youtube: string;

  beforeAll(async () => {
    onboarded = await onboardVendorSite();
    youtube = onboarded.embeddings.get('youtube')!.id;
  }, 120_000);

  afterAll(async () => {
    await onboarded?.close();
  }, 60_000);

  const putDomain = async (body: Record<string, unknown>) => {
    const answer = await onboarded.service.rest('PUT', onboarded.domain.base, body);
    expect(answer.status, answer.text).toBe(200);
  };
  const putEmbedding = async (vendor: VendorKey, body: Record<string, unknown>) => {
    const answer = await onboarded.service.rest('PUT', `${onboarded.domain.base}/embedding/${onboarded.embeddings.get(vendor)!.id}`, body);
    expect(answer.status, answer.text).toBe(200);
  };
  const appJs = async () => {
    const answer = await fetch(`${onboarded.service.baseUrl}/app.js?domain=${onboarded.domain.domainId}`);
    return { text: await answer.text(), etag: answer.headers.get('etag') };
  };

  /** The vendor requests made from `from` on (an index into the fixture's log), by vendor. */
  const requestsSince = (from: number) => {
    const byVendor = new Map<VendorKey, string[]>();
    for (const request of onboarded.site.requests.slice(from)) {
      if (request.vendor) byVendor.set(request.vendor, [...(byVendor.get(request.vendor) ?? []), `${request.kind} ${request.host}${request.path}`]);
    }
    return byVendor;
  };
  const bannerShown = (visit: Visit) => visit.page.$eval(BANNER, (modal) => getComputedStyle(modal).visibility !== 'hidden').catch(() => false);
  const settingsButton = (visit: Visit) => visit.page.$('.ccm-settings-button').then((button) => button !== null);
  /** Opens `path` and answers the vendor requests the page made. */
  const openPage = async (visit: Visit, path: string) => {
    const from = onboarded.site.requests.length;
    await visit.open(path);
    return requestsSince(from);
  };
  /** Clicks in the page (not in a banner modal) and waits for the network to settle. */
  const clickAndSettle = async (visit: Visit, selector: string) => {
    const from = onboarded.site.requests.length;
    await visit.page.waitForSelector(selector, { visible: true, timeout: 5_000 });
    await visit.page.click(selector);
    await visit.page.waitForNetworkIdle({ idleTime: 500, timeout: 6_000 }).catch(() => undefined);
    return requestsSince(from);
  };
  const noVendorButFonts = (requests: Map<VendorKey, string[]>) => [...requests].filter(([vendor]) => vendor !== 'googleFonts');
  const youtubeFrames = (requests: Map<VendorKey, string[]>) => (requests.get('youtube') ?? []).filter((request) => request.startsWith('frame document'));
  const storedHosts = (visit: Visit) => visit.page.evaluate((key) => localStorage.getItem(key), IFRAMES_KEY);

  it('onboarded the legal pages and the embeddings these settings act on', () => {
    expect(onboarded.legalFindings).toMatch(/^applied/);
    for (const vendor of ['youtube', 'googleMaps', 'matomo', 'ga4'] as const) expect(onboarded.embeddings.has(vendor), vendor).toBe(true);
  });

  it('shows no banner on the imprint and privacy pages and runs nothing there; frontendWidgetMinifyCode off serves readable app.js', { timeout: 120_000 }, async () => {
    const minified = await appJs();
    await putDomain({ frontendWidgetMinifyCode: false });
    const readable = await appJs();
    // Readable: the configuration indented, the bootstrap's code with its line breaks; a new validator.
    expect(readable.text).toContain(`\n  "domainId": "${onboarded.domain.domainId}"`);
    expect(readable.text.split('\n').length).toBeGreaterThan(minified.text.split('\n').length * 10);
    expect(readable.etag).not.toBe(minified.etag);

    // CCM19's defaults after onboarding: imprintShowWidget and privacyPolicyShowWidget off.
    const visit = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      for (const path of ['/impressum', '/datenschutz']) {
        const requests = await openPage(visit, path);
        expect(visit.bannerStarted, `the runtime started on ${path}`).toBe(true);
        expect(await bannerShown(visit), `banner on ${path}`).toBe(false);
        expect(await settingsButton(visit), `settings button on ${path}`).toBe(false);
        expect(noVendorButFonts(requests), `vendors contacted on ${path}`).toEqual([]);
      }
      // The readable app.js works: the home page gets its banner.
      await openPage(visit, '/');
      expect(await bannerShown(visit), 'banner on the home page').toBe(true);
    } finally {
      const { byVendor } = findingsOf(await visit.finish());
      for (const vendor of VENDORS) {
        const finding = byVendor.get(vendor.key)!;
        expect.soft(finding.ran, `${vendor.label} ran`).toBe(false);
        expect.soft(finding.cookies, `${vendor.label} cookies`).toEqual([]);
        expect.soft(finding.storage, `${vendor.label} storage`).toEqual([]);
      }
    }

    await putDomain({ frontendWidgetMinifyCode: true, imprintShowWidget: true });
    const again = await appJs();
    expect(again.text.split('\n').length).toBeLessThan(10);
    expect(again.etag).not.toBe(readable.etag);
    const second = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await openPage(second, '/impressum');
      expect(await bannerShown(second), 'banner on the imprint page once imprintShowWidget is on').toBe(true);
      await openPage(second, '/datenschutz');
      expect(await bannerShown(second), 'banner on the privacy page (privacyPolicyShowWidget still off)').toBe(false);
    } finally {
      await second.finish();
      await putDomain({ imprintShowWidget: false });
    }
  });

  it('keeps an embedding off the listed pages (blacklist) and limits one to its pages (whitelist), even after "accept all"', { timeout: 120_000 }, async () => {
    await putEmbedding('youtube', { excludeUrlsMode: 'blacklist', excludeFromUrls: [SITE_URL] });
    await putEmbedding('matomo', { excludeUrlsMode: 'whitelist', excludeFromUrls: [`${INNER_PAGE}*`] });
    const visit = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      const home = await openPage(visit, '/');
      const from = onboarded.site.requests.length;
      await visit.click('#cc-main .cm__btn[data-role="all"]');
      await visit.chosen();
      const accepted = requestsSince(from);
      expect(visit.bannerStarted).toBe(true);
      // Accepted and allowed here: GA4 runs. YouTube (kept off /) and Matomo (only on /kontakt*) do not.
      expect(accepted.get('ga4') ?? [], 'GA4 after "accept all"').not.toEqual([]);
      expect([...(home.get('youtube') ?? []), ...(accepted.get('youtube') ?? [])], 'YouTube on the home page').toEqual([]);
      expect([...(home.get('matomo') ?? []), ...(accepted.get('matomo') ?? [])], 'Matomo on the home page').toEqual([]);
      expect(await visit.page.evaluate(() => Object.keys((window as unknown as { __ran?: object }).__ran ?? {}))).not.toContain('matomo');
      // The YouTube iframe stays hidden: no placeholder offers to load it.
      expect(await visit.page.$(`${YOUTUBE_NOTICE(youtube)} button`)).toBeNull();

      const contact = await openPage(visit, INNER_PAGE);
      expect(contact.get('matomo') ?? [], 'Matomo on /kontakt').not.toEqual([]);
      expect(contact.get('googleMaps') ?? [], 'Google Maps (accepted) on /kontakt').not.toEqual([]);
      expect(await visit.page.evaluate(() => Object.keys((window as unknown as { __ran?: object }).__ran ?? {}))).toContain('matomo');
    } finally {
      await visit.finish();
      await putEmbedding('youtube', { excludeUrlsMode: '', excludeFromUrls: [] });
      await putEmbedding('matomo', { excludeUrlsMode: '', excludeFromUrls: [] });
    }
  });

  it('offers only "load" by default: a click loads that one video, on that page', { timeout: 90_000 }, async () => {
    const visit = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await openPage(visit, '/');
      expect(await visit.page.$(`${YOUTUBE_NOTICE(youtube)} .c-l-b`)).not.toBeNull();
      expect(await visit.page.$(`${YOUTUBE_NOTICE(youtube)} .c-la-b`), 'no "always allow" without appendConsentSwitchToIframes').toBeNull();
      expect(youtubeFrames(await clickAndSettle(visit, `${YOUTUBE_NOTICE(youtube)} .c-l-b`))).toHaveLength(1);
      expect(await storedHosts(visit)).toBeNull();
      const again = await openPage(visit, '/');
      expect(youtubeFrames(again), 'the video waits again on the next page').toEqual([]);
    } finally {
      await visit.finish();
    }
  });

  it('appendConsentSwitchToIframes: "always allow" on the placeholder accepts YouTube, and only YouTube', { timeout: 90_000 }, async () => {
    await putDomain({ appendConsentSwitchToIframes: true });
    const maps = onboarded.embeddings.get('googleMaps')!.id;
    const stored = await onboarded.service.rest('GET', `${onboarded.domain.base}/embedding/${maps}`);
    const mapsMarkers: string[] = stored.body.iframeMarkers;
    expect(mapsMarkers.length).toBeGreaterThan(0);
    const visit = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await openPage(visit, '/');
      const always = `${YOUTUBE_NOTICE(youtube)} .c-la-b`;
      expect(await visit.page.$eval(always, (button) => (button as HTMLElement).innerText)).toBe('Diesen Dienst immer erlauben');
      expect(youtubeFrames(await clickAndSettle(visit, always))).toHaveLength(1);
      const again = await openPage(visit, '/');
      expect(youtubeFrames(again), 'YouTube loads without a click from then on').toHaveLength(1);
      const contact = await openPage(visit, INNER_PAGE);
      expect(contact.get('googleMaps') ?? [], 'Google Maps, not accepted').toEqual([]);
      const consent = await visit.page.evaluate(() => (window as unknown as { CCM: { acceptedEmbeddings: { id: string }[] } }).CCM.acceptedEmbeddings.map((e) => e.id));
      expect(consent).toContain(youtube);
      expect(consent).not.toContain(maps);

    } finally {
      await visit.finish();
    }

    // An iframe no embedding claims (the domain's iframe rules hold it): "always show external content" remembers its host.
    await putEmbedding('googleMaps', { iframeMarkers: [] });
    const second = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await openPage(second, INNER_PAGE);
      const showAlways = '.ccm-blocked-iframe .ccm-blocked-iframe__always';
      expect(await second.page.$eval(showAlways, (button) => (button as HTMLElement).innerText)).toBe('Externe Inhalte immer anzeigen');
      expect(await clickAndSettle(second, showAlways).then((requests) => requests.get('googleMaps') ?? [])).not.toEqual([]);
      const later = await openPage(second, INNER_PAGE);
      expect(later.get('googleMaps') ?? [], 'the remembered host loads without a click').not.toEqual([]);
      expect(await second.page.$('.ccm-blocked-iframe'), 'no placeholder').toBeNull();
    } finally {
      await second.finish();
      await putDomain({ appendConsentSwitchToIframes: false });
      await putEmbedding('googleMaps', { iframeMarkers: mapsMarkers });
    }
  });

  it('rememberIframeConsentPerDomain: loading one video remembers its host, not a consent to the embedding', { timeout: 90_000 }, async () => {
    await putDomain({ rememberIframeConsentPerDomain: true });
    const visit = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await openPage(visit, '/');
      expect(youtubeFrames(await clickAndSettle(visit, `${YOUTUBE_NOTICE(youtube)} .c-l-b`))).toHaveLength(1);
      expect(JSON.parse((await storedHosts(visit)) ?? '{}').hosts).toHaveProperty(['www.youtube.com']);
      const again = await openPage(visit, '/');
      expect(youtubeFrames(again), 'YouTube loads without a click on the next page').toHaveLength(1);
      expect(await visit.page.$(`${YOUTUBE_NOTICE(youtube)}`), 'no placeholder').toBeNull();
      expect(await bannerShown(visit), 'the banner still asks: nothing was consented to').toBe(true);
      const contact = await openPage(visit, INNER_PAGE);
      expect(contact.get('googleMaps') ?? [], 'Google Maps: another host').toEqual([]);
    } finally {
      const { unattributed } = findingsOf(await visit.finish());
      expect(unattributed, 'nothing is kept but the consent and the remembered host').toEqual([]);
      await putDomain({ rememberIframeConsentPerDomain: false });
    }
  });
});
