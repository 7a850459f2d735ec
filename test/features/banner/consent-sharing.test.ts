import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_NAME } from '../../../src/features/banner/banner-config.build.ts';
import { INNER_PAGE, SITE_URL, VENDORS } from '../../fixtures/vendor-site.ts';
import { type OnboardedSite, onboardVendorSite, startVisit, type Visit } from '../../support/onboarded-site.ts';

/**
 * Consent sharing (`consentSharingDomains`, `consentSharingCrossDomain`) on the onboarded law
 * office site: one choice on `www.kanzlei-muster.test` holds on its subdomain
 * `blog.kanzlei-muster.test` (the consent cookie is set for the listed domain), and, with
 * cross-domain sharing on, on `www.muster-buchung.test` (the office's booking site, another listed
 * domain carrying the same snippet) when the visitor follows a link or `CCM.navigate()`. A consent
 * handed over from an unlisted site (`www.fremde-seite.test`) is ignored.
 */

/** What the test reads of the page's `window.CCM` (src/features/banner/runtime/ccm-api.ts). */
type CcmWindow = { CCM: { consent: boolean; crossDomainConsentString: string; navigate(url: string): void } };

const SUBDOMAIN = 'blog.kanzlei-muster.test';
const BOOKING = 'www.muster-buchung.test';
const STRANGER = 'www.fremde-seite.test';

describe('consent sharing between the sites of one banner', () => {
  let onboarded: OnboardedSite;

  beforeAll(async () => {
    onboarded = await onboardVendorSite({ siteAliases: [SUBDOMAIN, BOOKING, STRANGER] });
  }, 120_000);
  afterAll(() => onboarded?.close(), 60_000);

  const share = async (settings: { consentSharingDomains: string[]; consentSharingCrossDomain: boolean; consentStorage?: 'cookie' | 'localStorage' }) => {
    const answer = await onboarded.service.rest('PUT', onboarded.domain.base, settings);
    expect(answer.status, answer.text).toBe(200);
    // A write is answered before its revision is published: the visitor comes once the banner carries it.
    const wanted = `"crossDomain":${settings.consentSharingCrossDomain && settings.consentSharingDomains.length > 0}`;
    for (let attempt = 0; ; attempt++) {
      const banner = await (await fetch(`${onboarded.service.baseUrl}/app.js?domain=${onboarded.domain.domainId}`)).text();
      const sharing = /"sharing":\{"domains":\[([^\]]*)\],("crossDomain":\w+)\}/.exec(banner);
      const storage = !settings.consentStorage || banner.includes(`"storage":"${settings.consentStorage}"`);
      if (storage && sharing && sharing[2] === wanted && (sharing[1] === '') === (settings.consentSharingDomains.length === 0)) break;
      expect(attempt, 'the banner carries the sharing settings').toBeLessThan(50);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  /** What the visitor's current page shows and ran: whether the first layer is up, which vendors ran, the consent cookies. */
  const pageState = async (visit: Visit) => {
    const page = visit.page;
    const state = await page.evaluate(() => ({
      host: location.hostname,
      hash: location.hash,
      bannerShown: document.documentElement.classList.contains('show--consent'),
      ran: Object.keys((window as unknown as { __ran?: Record<string, unknown> }).__ran ?? {}).sort(),
    }));
    const session = await page.createCDPSession();
    const { cookies } = (await session.send('Network.getAllCookies')) as { cookies: { name: string; domain: string }[] };
    await session.detach();
    const consentCookieDomains = cookies.filter((cookie) => cookie.name === CONSENT_NAME).map((cookie) => cookie.domain.replace(/^\./, ''));
    return { ...state, ran: state.ran.filter((key) => VENDORS.some((vendor) => vendor.key === key)), consentCookieDomains: consentCookieDomains.sort() };
  };

  const acceptAll = async (visit: Visit) => {
    await visit.open('/');
    await visit.click('#cc-main .cm__btn[data-role="all"]');
    await visit.chosen();
  };

  /** Puts a link to `href` into the page, as the site's own markup would have it, and follows it. */
  const follow = async (page: Page, href: string) => {
    await page.evaluate((href) => {
      const link = document.createElement('a');
      link.href = href;
      link.id = 'to-other-site';
      link.textContent = 'Termin online buchen';
      document.body.prepend(link);
    }, href);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#to-other-site')]);
    await page.waitForFunction(() => (window as unknown as { __bannerLoaded?: boolean }).__bannerLoaded === true, { timeout: 8_000 });
    await page.waitForNetworkIdle({ idleTime: 400, timeout: 6_000 }).catch(() => undefined);
  };

  it('a choice holds on the subdomains of a listed domain and, followed by a link or CCM.navigate(), on the other listed domains', { timeout: 90_000 }, async () => {
    await share({ consentSharingDomains: ['kanzlei-muster.test', 'https://muster-buchung.test/'], consentSharingCrossDomain: true });
    const visit = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await acceptAll(visit);
      expect((await pageState(visit)).ran).toContain('ga4');

      // The onboarded domain keeps the consent in localStorage, one per host: it goes along the link.
      await follow(visit.page, `http://${SUBDOMAIN}${INNER_PAGE}`);
      const subdomain = await pageState(visit);
      expect(subdomain.bannerShown, 'no banner on the subdomain').toBe(false);
      expect(subdomain.ran, 'what was accepted runs on the subdomain').toContain('ga4');

      await visit.open('/');
      await follow(visit.page, `http://${BOOKING}${INNER_PAGE}`);
      const booking = await pageState(visit);
      expect(booking.host).toBe(BOOKING);
      expect(booking.bannerShown, 'no banner on the other listed domain').toBe(false);
      expect(booking.hash, 'the hand-over leaves the address bar').toBe('');
      expect(booking.ran).toContain('ga4');
      expect(await visit.page.evaluate((name) => localStorage.getItem(name) !== null, CONSENT_NAME), 'the booking site keeps the consent').toBe(true);

      // A page of the booking site framed by the office's: it asks its parent and takes the consent.
      await visit.open('/');
      const framed = await visit.page.evaluate((src) => {
        const frame = document.createElement('iframe');
        frame.src = src;
        frame.id = 'booking-frame';
        document.body.append(frame);
        return frame.outerHTML;
      }, `http://${BOOKING}/impressum?framed`);
      const frame = await (async () => {
        for (let attempt = 0; attempt < 80; attempt++) {
          const found = visit.page.frames().find((candidate) => candidate.url().includes('/impressum?framed'));
          if (found && (await found.evaluate(() => (window as unknown as { __bannerLoaded?: boolean }).__bannerLoaded === true).catch(() => false))) return found;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`the framed booking page never started its banner (${framed})`);
      })();
      expect(await frame.evaluate(() => document.documentElement.classList.contains('show--consent')), 'no banner in the framed page').toBe(false);
      expect(await frame.evaluate(() => (window as unknown as CcmWindow).CCM.consent)).toBe(true);

      // Back home, CCM.navigate() hands it over the same way (to a page of the booking site without a cookie yet: a fresh context).
      const handOver = await visit.page.evaluate(() => (window as unknown as CcmWindow).CCM.crossDomainConsentString);
      expect(handOver).toMatch(/^ccm19=/);
    } finally {
      await visit.finish();
    }

    const navigating = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await acceptAll(navigating);
      await Promise.all([
        navigating.page.waitForNavigation({ waitUntil: 'load' }),
        navigating.page.evaluate((target) => (window as unknown as CcmWindow).CCM.navigate(target), `http://${BOOKING}/`),
      ]);
      await navigating.page.waitForFunction(() => (window as unknown as { __bannerLoaded?: boolean }).__bannerLoaded === true, { timeout: 8_000 });
      await navigating.page.waitForNetworkIdle({ idleTime: 400, timeout: 6_000 }).catch(() => undefined);
      const arrived = await pageState(navigating);
      expect(arrived.host).toBe(BOOKING);
      expect(arrived.bannerShown).toBe(false);
      expect(arrived.ran).toContain('ga4');
    } finally {
      await navigating.finish();
    }
  });

  it('a consent handed over from a site that is not listed is ignored: the banner asks, nothing runs', { timeout: 90_000 }, async () => {
    await share({ consentSharingDomains: ['kanzlei-muster.test', 'muster-buchung.test'], consentSharingCrossDomain: true });
    // A genuine hand-over string, as anyone who once visited the site could copy it.
    const donor = await startVisit(onboarded, onboarded.markup('advised'));
    let handOver: string;
    try {
      await acceptAll(donor);
      handOver = await donor.page.evaluate(() => (window as unknown as CcmWindow).CCM.crossDomainConsentString);
    } finally {
      await donor.finish();
    }
    expect(handOver).toMatch(/^ccm19=/);

    const visit = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await visit.open(`http://${STRANGER}/impressum`);
      const from = onboarded.site.requests.length;
      await follow(visit.page, `http://${BOOKING}${INNER_PAGE}#${handOver}`);
      const arrived = await pageState(visit);
      expect(arrived.bannerShown, 'the banner asks').toBe(true);
      expect(arrived.ran).toEqual([]);
      expect(arrived.consentCookieDomains).toEqual([]);
      expect(onboarded.site.requests.slice(from).filter((request) => request.vendor !== 'googleFonts'), 'no vendor host contacted').toEqual([]);
    } finally {
      await visit.finish();
    }
  });

  it('without cross-domain sharing only the subdomains share: the other listed domain asks again', { timeout: 90_000 }, async () => {
    await share({ consentSharingDomains: ['kanzlei-muster.test', 'muster-buchung.test'], consentSharingCrossDomain: false });
    const visit = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await acceptAll(visit);
      await follow(visit.page, `http://${SUBDOMAIN}/`);
      expect((await pageState(visit)).bannerShown).toBe(false);
      await visit.open('/');
      const from = onboarded.site.requests.length;
      await follow(visit.page, `http://${BOOKING}${INNER_PAGE}`);
      const booking = await pageState(visit);
      expect(booking.bannerShown).toBe(true);
      expect(booking.ran).toEqual([]);
      expect(onboarded.site.requests.slice(from).filter((request) => request.vendor !== 'googleFonts' && request.vendor !== 'googleMaps')).toEqual([]);
    } finally {
      await visit.finish();
    }
  });

  it('a consent kept in a cookie is set for the listed domain, so its subdomains read it; with none listed, for the host alone', { timeout: 90_000 }, async () => {
    await share({ consentSharingDomains: ['kanzlei-muster.test'], consentSharingCrossDomain: false, consentStorage: 'cookie' });
    const shared = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await acceptAll(shared);
      expect((await pageState(shared)).consentCookieDomains).toEqual(['kanzlei-muster.test']);
      // Typed in, not followed: nothing is handed over, the cookie alone carries it.
      await shared.open(`http://${SUBDOMAIN}/`);
      const subdomain = await pageState(shared);
      expect(subdomain.bannerShown).toBe(false);
      expect(subdomain.ran).toContain('ga4');
    } finally {
      await shared.finish();
    }

    await share({ consentSharingDomains: [], consentSharingCrossDomain: false, consentStorage: 'cookie' });
    const alone = await startVisit(onboarded, onboarded.markup('advised'));
    try {
      await acceptAll(alone);
      expect((await pageState(alone)).consentCookieDomains).toEqual([new URL(SITE_URL).hostname]);
      await alone.open(`http://${SUBDOMAIN}/`);
      expect((await pageState(alone)).bannerShown).toBe(true);
    } finally {
      await alone.finish();
      await share({ consentSharingDomains: [], consentSharingCrossDomain: false, consentStorage: 'localStorage' });
    }
  });
});
