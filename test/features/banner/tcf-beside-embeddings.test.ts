import { readFileSync } from 'node:fs';
import { TCString } from '@iabtechlabtcf/core';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importGlobalVendorList } from '../../../src/features/tcf-vendors/import-global-vendor-list.ts';
import { INNER_PAGE, VENDORS } from '../../fixtures/vendor-site.ts';
import { findingsOf, type OnboardedSite, onboardVendorSite, startVisit, vendorRequestsSince } from '../../support/onboarded-site.ts';
import { until } from '../../support/until.ts';

/**
 * A site onboarded the README's way (scan, presets, advised markup) whose operator then turns IAB
 * TCF on: the embeddings that are no TCF vendor (Tag Manager, Analytics, the Meta pixel, Matomo,
 * Hotjar, YouTube, Maps) are still held before a choice and after "reject all", Consent Mode still
 * follows the choice, and one choice moves both worlds: "accept all" consents every TCF purpose
 * and vendor and releases every embedding.
 */

const GVL_TEXT = readFileSync(new URL('../../fixtures/global-vendor-list.json', import.meta.url), 'utf8');

type TcData = {
  eventStatus: string;
  gdprApplies: boolean;
  tcString: string;
  purpose: { consents: Record<string, boolean> };
  vendor: { consents: Record<string, boolean> };
};

/** Set in every document before its scripts: every answer the CMP's listeners get. */
const LISTEN_FOR_TCF = () => {
  const events: unknown[] = [];
  (window as unknown as { __tcfEvents: unknown[] }).__tcfEvents = events;
  const listen = () => {
    const api = (window as unknown as { __tcfapi?: (...args: unknown[]) => void }).__tcfapi;
    if (typeof api === 'function') api('addEventListener', 2, (tcData: unknown, success: boolean) => success && events.push(tcData));
    else setTimeout(listen, 5);
  };
  listen();
};

const tcEvents = (page: Page) => page.evaluate(() => (window as unknown as { __tcfEvents: unknown[] }).__tcfEvents) as Promise<TcData[]>;
const lastEvent = async (page: Page, status: string) =>
  until(`a TCF ${status} event`, async () => (await tcEvents(page)).filter((event) => event.eventStatus === status).at(-1));

/** Google Consent Mode commands the page's tags were given, in order. */
const consentCommands = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? [])
      .map((entry) => Array.from(entry as ArrayLike<unknown>))
      .filter((entry) => entry[0] === 'consent')
      .map((entry) => ({ command: entry[1] as string, state: entry[2] as Record<string, string> })),
  );

describe('TCF beside the embeddings of an onboarded site', () => {
  let onboarded: OnboardedSite;
  let vendorIds: number[];

  beforeAll(async () => {
    onboarded = await onboardVendorSite();
    const { service, domain } = onboarded;
    await importGlobalVendorList(service.database.orm.em.fork(), GVL_TEXT);
    const put = await service.rest('PUT', domain.base, { tcfEnabled: true });
    expect(put.status, put.text).toBe(200);
    const app = await (await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`)).text();
    vendorIds = JSON.parse(/"vendorIds":(\[[\d,]*\])/.exec(app)?.[1] ?? 'null') as number[];
    expect(vendorIds, 'app.js names the domain’s TCF vendors').not.toBeNull();
    expect(vendorIds.length).toBeGreaterThan(0);
  }, 120_000);

  afterAll(async () => {
    await onboarded?.close();
  }, 60_000);

  it('holds every embedding until "accept all", which then consents every TCF purpose and vendor and releases them all', { timeout: 120_000 }, async () => {
    const start = onboarded.site.requests.length;
    const visitor = await startVisit(onboarded, onboarded.markup('advised'));
    await visitor.page.evaluateOnNewDocument(LISTEN_FOR_TCF);
    await visitor.open('/');
    const shown = await lastEvent(visitor.page, 'cmpuishown');
    expect(shown.gdprApplies).toBe(true);
    expect(Object.values(shown.vendor.consents).some(Boolean), 'no vendor consent before a choice').toBe(false);
    expect(vendorRequestsSince(onboarded, start), 'no vendor host contacted before a choice').toEqual([]);
    expect((await consentCommands(visitor.page)).map(({ command }) => command), 'Consent Mode: denied by default, no update yet').toEqual(['default']);

    await visitor.click('#cc-main .cm__btn[data-role="all"]');
    await visitor.chosen();
    const chosen = await lastEvent(visitor.page, 'useractioncomplete');
    const decoded = TCString.decode(chosen.tcString);
    expect([...decoded.vendorConsents.values()].sort((a, b) => a - b)).toEqual(vendorIds);
    for (const purpose of Object.keys(JSON.parse(GVL_TEXT).purposes as object)) expect(decoded.purposeConsents.has(Number(purpose)), `purpose ${purpose}`).toBe(true);
    const updates = (await consentCommands(visitor.page)).filter(({ command }) => command === 'update');
    expect(updates.at(-1)?.state, 'Consent Mode granted with the choice').toMatchObject({ ad_storage: 'granted', analytics_storage: 'granted' });
    await visitor.open(INNER_PAGE);
    await lastEvent(visitor.page, 'tcloaded');

    const { byVendor } = findingsOf(await visitor.finish());
    const released = VENDORS.filter((vendor) => vendor.runs && onboarded.embeddings.get(vendor.key)?.active);
    expect(released.length, 'the scan found the vendors that run').toBeGreaterThanOrEqual(5);
    for (const vendor of released) expect.soft(byVendor.get(vendor.key)!.ran, `${vendor.label} runs after "accept all"`).toBe(true);
  });

  it('"reject all": no TCF consent, and no embedding runs on this page or the next', { timeout: 120_000 }, async () => {
    const visitor = await startVisit(onboarded, onboarded.markup('advised'));
    await visitor.page.evaluateOnNewDocument(LISTEN_FOR_TCF);
    await visitor.open('/');
    await lastEvent(visitor.page, 'cmpuishown');
    await visitor.click('#cc-main .cm__btn[data-role="necessary"]');
    await visitor.chosen();
    const chosen = await lastEvent(visitor.page, 'useractioncomplete');
    const decoded = TCString.decode(chosen.tcString);
    expect(decoded.vendorConsents.size).toBe(0);
    expect(decoded.purposeConsents.size).toBe(0);
    expect((await consentCommands(visitor.page)).filter(({ command }) => command === 'update').at(-1)?.state).toMatchObject({ ad_storage: 'denied', analytics_storage: 'denied' });
    await visitor.open(INNER_PAGE);

    const evidence = await visitor.finish();
    expect.soft(evidence.problems).toEqual([]);
    const { byVendor } = findingsOf(evidence);
    for (const vendor of VENDORS) {
      const embedding = onboarded.embeddings.get(vendor.key);
      if (!embedding || embedding.category === 'necessary') continue;
      const finding = byVendor.get(vendor.key)!;
      if (vendor.runs) expect.soft(finding.ran, `${vendor.label} must not run`).toBe(false);
      expect.soft(finding.contacts, `${vendor.label}: requests to its hosts`).toEqual([]);
      expect.soft(finding.cookies, `${vendor.label}: cookies`).toEqual([]);
    }
  });
});
