import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_PAGE, BOOKING_SCRIPT, SITE_URL } from '../../fixtures/vendor-site.ts';
import { type OnboardedSite, onboardVendorSite, startVisit, type Visit } from '../../support/onboarded-site.ts';
import { until } from '../../support/until.ts';

type Finding = { scriptUrl: string; pagePath: string; timesSeen: number };

/**
 * recordScriptsOnWebsite in a real Chromium, on the site onboarded as the README says: the banner
 * reports the scripts of the pages it finds that no embedding knows, and the operator reads them
 * as the domain's script findings; with the setting off, the banner sends nothing.
 */
describe('the banner reports scripts no embedding knows (recordScriptsOnWebsite)', () => {
  let onboarded: OnboardedSite;

  beforeAll(async () => {
    onboarded = await onboardVendorSite();
  }, 120_000);

  afterAll(async () => {
    await onboarded?.close();
  }, 60_000);

  const findings = async (): Promise<Finding[]> => {
    const answer = await onboarded.service.rest('GET', `${onboarded.domain.base}/script-findings`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };

  /** Opens the home page and the booking page, then leaves; the bodies the pages sent to /script-report. */
  async function visitBothPages(): Promise<{ visitor: Visit; reports: string[] }> {
    const visitor = await startVisit(onboarded, onboarded.markup('snippet-only'), { paths: ['/', BOOKING_PAGE] });
    const reports: string[] = [];
    visitor.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/script-report') reports.push(request.postData() ?? '');
    });
    // Each page stays longer than the banner's batch delay (2 s): its report goes out while it is open.
    for (const path of ['/', BOOKING_PAGE]) {
      await visitor.open(path);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
    }
    await visitor.page.goto('about:blank');
    return { visitor, reports };
  }

  it('finds the booking widget and the site bundle after a visit, without queries; nothing with the setting off', async () => {
    expect(await findings()).toEqual([]);
    const on = await visitBothPages();
    const found = await until('the booking widget among the findings', async () => {
      const listed = await findings();
      return listed.some((finding) => finding.scriptUrl === BOOKING_SCRIPT) ? listed : undefined;
    });
    const evidence = await on.visitor.finish();
    expect(evidence.problems).toEqual([]);

    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ scriptUrl: BOOKING_SCRIPT, pagePath: BOOKING_PAGE, timesSeen: 1 }),
        expect.objectContaining({ scriptUrl: new URL('/assets/bundle.js', SITE_URL).href, pagePath: '/', timesSeen: 1 }),
      ]),
    );
    // Neither the vendors' scripts the onboarding made embeddings for, nor the banner's own, nor any query.
    const onboardedHosts = ['googletagmanager.com', 'connect.facebook.net', 'matomo'];
    for (const { scriptUrl } of found) {
      expect(scriptUrl).not.toContain('?');
      expect(onboardedHosts.some((host) => scriptUrl.includes(host)), scriptUrl).toBe(false);
      expect(scriptUrl.startsWith(onboarded.service.baseUrl)).toBe(false);
    }
    expect(on.reports.length).toBeGreaterThan(0);
    expect(on.reports.join('\n')).not.toMatch(/kanzlei=muster/);

    const put = await onboarded.service.rest('PUT', onboarded.domain.base, { recordScriptsOnWebsite: false });
    expect(put.status, put.text).toBe(200);
    const off = await visitBothPages();
    const evidenceOff = await off.visitor.finish();
    expect(evidenceOff.problems).toEqual([]);
    expect(off.reports).toEqual([]);
    expect(await findings()).toEqual(found);
  }, 120_000);
});
