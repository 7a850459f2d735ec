import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_NAME } from '../../../src/features/banner/banner-config.build.ts';
import { asksConsent } from '../../../src/features/banner/region/consent-region.ts';
import { countryDatabase } from '../../../src/features/banner/region/country-database.ts';
import { countryFromHeader } from '../../../src/features/banner/region/country-header.ts';
import { REGION_PATH, visitorRegion } from '../../../src/features/banner/region/visitor-region.ts';
import { INNER_PAGE, VENDORS } from '../../fixtures/vendor-site.ts';
import { bannerShown, consentRecordsOf, defaultThemePath, type Evidence, findingsOf, type OnboardedSite, onboardVendorSite, startVisit } from '../../support/onboarded-site.ts';
import type { SentStatement } from '../../../src/db/statements.ts';

/**
 * The theme's `enableOnlyInEu`: the banner asks only visitors in the EU/EEA, the UK and
 * Switzerland; anyone else gets CCM19's default for them, every service and no banner. The
 * service trusts a CDN's country header (`COUNTRY_HEADER`) here, since the visitor's Chromium
 * comes from loopback, which has no country: its requests for the region get the header by
 * request interception. Without a header the lookup goes by the shipped IP-to-country database,
 * tested first with known public addresses.
 */

const request = (headers: Record<string, string>, address = '127.0.0.1') => ({ headers, socket: { remoteAddress: address } }) as unknown as IncomingMessage;

describe('the visitor region (fast)', () => {
  const lookup = countryDatabase();

  it('looks addresses up in the shipped database: IPv4, IPv6 and IPv4 on a dual-stack socket', () => {
    expect(lookup('8.8.8.8')).toBe('US');
    expect(lookup('193.0.6.139')).toBe('NL'); // RIPE NCC
    expect(lookup('2001:67c:2e8::2')).toBe('NL'); // RIPE NCC
    expect(lookup('::ffff:81.169.145.105')).toBe('DE');
    expect(lookup('195.186.208.154')).toBe('CH');
    expect(lookup('212.58.244.22')).toBe('GB');
  });

  it('knows no country of loopback, private, documentation and malformed addresses, whatever the data says of them', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.0.0.1', '172.16.5.5', '192.168.1.1', '203.0.113.1', 'fd00::1', 'fe80::1', '2001:db8::1', '', 'not an address']) expect(lookup(address), address).toBeUndefined();
  });

  it('leaves every country unknown when the database cannot be read, and says so once', () => {
    const errors: unknown[] = [];
    const missing = countryDatabase('/nonexistent/country.mmdb', (error) => errors.push(error));
    expect(missing('8.8.8.8')).toBeUndefined();
    expect(missing('193.0.6.139')).toBeUndefined();
    expect(errors).toHaveLength(1);
  });

  it('asks in the EU, the EEA, the UK and Switzerland, and where the country is not known', () => {
    for (const country of ['DE', 'FR', 'IE', 'NO', 'IS', 'LI', 'GB', 'CH', 'RE', 'AX', undefined]) expect(asksConsent(country), String(country)).toBe(true);
    for (const country of ['US', 'CA', 'BR', 'JP', 'AU', 'RU', 'TR']) expect(asksConsent(country), country).toBe(false);
  });

  it('reads a CDN header, taking its "not known" and anonymising codes for unknown', () => {
    expect(countryFromHeader('us')).toBe('US');
    expect(countryFromHeader('DE')).toBe('DE');
    for (const value of [undefined, '', 'XX', 'T1', 'A1', 'ZZ', 'USA', '1A', ['US', 'DE']]) expect(countryFromHeader(value), String(value)).toBeUndefined();
  });

  it('with a trusted header, the header alone decides; without one, the address (through TRUST_PROXY)', () => {
    const byHeader = visitorRegion({ countryHeader: 'CF-IPCountry', lookup });
    expect(byHeader.asks(request({ 'cf-ipcountry': 'US' }, '8.8.8.8'))).toBe(false);
    expect(byHeader.asks(request({ 'cf-ipcountry': 'DE' }, '8.8.8.8'))).toBe(true);
    // The address a CDN connects from is its own: never looked up when a header is trusted.
    expect(byHeader.asks(request({}, '8.8.8.8'))).toBe(true);
    expect(byHeader.asks(request({ 'cf-ipcountry': 'T1' }))).toBe(true);

    const byAddress = visitorRegion({ lookup, trustProxy: 'loopback' });
    expect(byAddress.asks(request({ 'cf-ipcountry': 'US' }, '193.0.6.139')), 'an untrusted header is ignored').toBe(true);
    expect(byAddress.asks(request({}, '8.8.8.8'))).toBe(false);
    expect(byAddress.asks(request({ 'x-forwarded-for': '8.8.8.8' }))).toBe(false);
    expect(byAddress.asks(request({}))).toBe(true);
  });
});

describe('enableOnlyInEu, seen by visitors of an onboarded site', () => {
  let onboarded: OnboardedSite;
  let themePath: string;
  let regionUrl: string;
  /** app.js before the theme asked only in the EU. */
  let appBefore: string;
  const app = () => fetch(`${onboarded.service.baseUrl}/app.js?domain=${onboarded.domain.domainId}`).then((answer) => answer.text());


  beforeAll(async () => {
    onboarded = await onboardVendorSite({ countryHeader: 'CF-IPCountry' });
    const { service } = onboarded;
    regionUrl = `${service.baseUrl}${REGION_PATH}`;
    themePath = await defaultThemePath(onboarded, 'Only in the EU');
    appBefore = await app();
    const put = await service.rest('PUT', themePath, { enableOnlyInEu: true });
    expect(put.status, put.text).toBe(200);
    expect(put.body.enableOnlyInEu).toBe(true);
  }, 120_000);

  afterAll(async () => {
    await onboarded?.close();
  }, 60_000);

  it('app.js names the region answer only while the theme asks only in the EU; the answer is tiny, uncached and costs no SQL', async () => {
    const { service } = onboarded;
    expect(appBefore).not.toContain(REGION_PATH);
    expect(await app()).toContain(JSON.stringify(regionUrl).slice(1, -1));

    await app();
    // The service's timers may write meanwhile: the banner-load counts of the loads above
    // (widget_display…) and the revision sweep (revision_due). What is counted is the rest.
    const sent: SentStatement[] = [];
    service.database.statements.watch = (statement) => sent.push(statement);
    const us = await fetch(regionUrl, { headers: { 'CF-IPCountry': 'US' } });
    expect(await us.json()).toEqual({ eu: false, us: true, country: 'US' });
    expect(us.headers.get('cache-control')).toBe('private, no-store');
    expect(us.headers.get('access-control-allow-origin')).toBe('*');
    expect(await (await fetch(regionUrl, { headers: { 'CF-IPCountry': 'FR' } })).json()).toEqual({ eu: true, us: false, country: 'FR' });
    expect(await (await fetch(regionUrl)).json(), 'loopback, no header: not known, asked').toEqual({ eu: true, us: false, country: null });
    const warm = await fetch(`${service.baseUrl}/app.js?domain=${onboarded.domain.domainId}`, { headers: { 'CF-IPCountry': 'US' } });
    expect(warm.headers.get('vary'), 'app.js is one script for every region').not.toMatch(/country/i);
    expect(warm.headers.get('cache-control')).toMatch(/^public/);
    await warm.text();
    service.database.statements.watch = undefined;
    const answering = sent.filter((statement) => !/"?(widget_display\w*|revision_due)"?/.test(statement.query));
    expect(answering.map((statement) => statement.query), 'statements for three region answers and a warm app.js').toEqual([]);
    expect((await fetch(regionUrl, { method: 'POST' })).status).toBe(405);
  });

  const consentRecords = () => consentRecordsOf(onboarded);

  /** A visitor whose requests for the region carry `country` in the trusted header (null: none); what the region answers said. */
  async function visitFrom(country: string | null) {
    const visitor = await startVisit(onboarded, onboarded.markup('advised'));
    const { page } = visitor;
    await page.evaluateOnNewDocument(() => {
      const accepted: string[] = [];
      (window as unknown as { __accepted: string[] }).__accepted = accepted;
      addEventListener('ccm19EmbeddingAccepted', (event) => accepted.push((event as CustomEvent<{ code: string }>).detail.code));
    });
    const answers: unknown[] = [];
    await page.setRequestInterception(true);
    page.on('request', (intercepted) => {
      if (country && intercepted.url().startsWith(regionUrl)) void intercepted.continue({ headers: { ...intercepted.headers(), 'cf-ipcountry': country } });
      else void intercepted.continue();
    });
    page.on('response', (response) => {
      if (response.url().startsWith(regionUrl)) answers.push(response.json().catch(() => 'unreadable'));
    });
    return { visitor, page, answers: async () => Promise.all(answers) };
  }

  /** Nothing of any vendor ran, was contacted or stored: what an asked visitor has before a choice. */
  function expectNothingRan(evidence: Evidence) {
    expect.soft(evidence.problems).toEqual([]);
    const { byVendor, unattributed } = findingsOf(evidence);
    for (const vendor of VENDORS) {
      const finding = byVendor.get(vendor.key)!;
      if (vendor.runs) expect.soft(finding.ran, `${vendor.label} must not run`).toBe(false);
      expect.soft(finding.contacts, `${vendor.label}: requests to its hosts`).toEqual([]);
      expect.soft(finding.cookies, `${vendor.label}: cookies`).toEqual([]);
      expect.soft(finding.storage, `${vendor.label}: web storage`).toEqual([]);
    }
    expect.soft(unattributed, 'nothing else is stored or contacted').toEqual([]);
  }

  it('asks a visitor in the EU (the CDN says DE): banner, and nothing runs before a choice', { timeout: 90_000 }, async () => {
    const { visitor, page, answers } = await visitFrom('DE');
    await visitor.open('/');
    expect(await answers()).toEqual([{ eu: true, us: false, country: 'DE' }]);
    expect(await bannerShown(page), 'the banner').toBe(true);
    expectNothingRan(await visitor.finish());
  });

  it('asks a visitor whose region cannot be told (no header, a loopback address), as one in the EU', { timeout: 90_000 }, async () => {
    const { visitor, page, answers } = await visitFrom(null);
    await visitor.open('/');
    expect(await answers()).toEqual([{ eu: true, us: false, country: null }]);
    expect(await bannerShown(page), 'the banner').toBe(true);
    expectNothingRan(await visitor.finish());
  });

  it('gives a visitor outside it (the CDN says US) every service without a banner, stores no consent and records none', { timeout: 90_000 }, async () => {
    const recordsBefore = (await consentRecords()).length;
    const { visitor, page, answers } = await visitFrom('US');
    await visitor.open('/');
    expect(await answers()).toEqual([{ eu: false, us: true, country: 'US' }]);
    expect(await bannerShown(page), 'no banner').toBe(false);
    const accepted = await page.evaluate(() => (window as unknown as { __accepted: string[] }).__accepted);
    const active = [...onboarded.embeddings.values()].filter((embedding) => embedding.active).map((embedding) => embedding.id);
    expect(new Set(accepted), 'every service of the banner, told to the page as accepted').toEqual(new Set(active));
    // The settings button stays: the visitor can still make a choice of their own.
    await page.waitForSelector('.ccm-settings-button', { visible: true, timeout: 5_000 });
    // The next page (with the map) is not asked either: nothing was stored, the region is asked again.
    await visitor.open(INNER_PAGE);
    expect(await answers()).toEqual([{ eu: false, us: true, country: 'US' }, { eu: false, us: true, country: 'US' }]);
    expect(await bannerShown(page), 'no banner on the next page').toBe(false);
    const cookies = (await page.cookies()).map((cookie) => cookie.name);
    expect(cookies, 'no consent stored: nobody chose').not.toContain(CONSENT_NAME);
    const evidence = await visitor.finish();
    expect.soft(evidence.problems).toEqual([]);
    const { byVendor } = findingsOf(evidence);
    for (const vendor of VENDORS) {
      const finding = byVendor.get(vendor.key)!;
      if (vendor.runs) expect.soft(finding.ran, `${vendor.label} runs`).toBe(true);
    }
    const contacted = VENDORS.filter((vendor) => byVendor.get(vendor.key)!.contacts.length > 0).map((vendor) => vendor.key);
    expect(contacted, 'vendor hosts contacted').toEqual(expect.arrayContaining(['gtm', 'ga4', 'metaPixel', 'matomo', 'hotjar']));
    const withCookies = VENDORS.filter((vendor) => byVendor.get(vendor.key)!.cookies.length > 0).map((vendor) => vendor.key);
    expect(withCookies, 'vendor cookies set').toEqual(expect.arrayContaining(['ga4', 'metaPixel']));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await consentRecords()).length, 'no consent record').toBe(recordsBefore);
  });

  it('leaves a visitor outside it who sends Do Not Track to complyWithDoNotTrack: nothing runs', { timeout: 90_000 }, async () => {
    const put = await onboarded.service.rest('PUT', themePath, { complyWithDoNotTrack: true });
    expect(put.status, put.text).toBe(200);
    const { visitor, page } = await visitFrom('US');
    await page.evaluateOnNewDocument(() => Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1', configurable: true }));
    await visitor.open('/');
    expect(await bannerShown(page), 'no banner').toBe(false);
    const accepted = await page.evaluate(() => (window as unknown as { __accepted: string[] }).__accepted);
    const necessary = [...onboarded.embeddings.values()].filter((embedding) => embedding.active && embedding.category === 'necessary').map((embedding) => embedding.id);
    expect(new Set(accepted), 'only what is necessary').toEqual(new Set(necessary));
    const evidence = await visitor.finish();
    const { byVendor } = findingsOf(evidence);
    for (const vendor of VENDORS) {
      if (necessary.includes(onboarded.embeddings.get(vendor.key)?.id ?? '')) continue;
      const finding = byVendor.get(vendor.key)!;
      if (vendor.runs) expect.soft(finding.ran, `${vendor.label} must not run`).toBe(false);
      expect.soft(finding.contacts, `${vendor.label}: requests to its hosts`).toEqual([]);
      expect.soft(finding.cookies, `${vendor.label}: cookies`).toEqual([]);
    }
  });
});
