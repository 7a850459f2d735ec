import { GppModel } from '@iabgpp/cmpapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardVendorSite, type OnboardedSite, startVisit } from '../../support/onboarded-site.ts';
import { until } from '../../support/until.ts';

/**
 * The banner's record of a choice carries the IAB strings the TCF and GPP bundles keep on the
 * handover (`window.__ccmBanner.privacyStrings`), seen in a visitor's Chromium on the onboarded
 * fixture site. The strings are put on the handover here, as those bundles do before the choice
 * is recorded; what they encode is the bundles' business, not this test's.
 */

/** A TC string of TCF 2.2 (cmpId 300; purposes 1, 2, 7; vendors 1 and 40), as @iabtechlabtcf/core encoded it. */
const TC_STRING = 'CQuZP8AQuZP8AEsAHAENApFoAMIAAEIAAACYAUIAAAAABAChAAAAAAIAAAAA.IAAA.YAAAAAAAAAAA';
const AC_STRING = '2~1.35~dv.9';

type LoggedRecord = { consentId: string; choice: string; tcString: string | null; acString: string | null; gppString: string | null };

describe('the IAB strings in the banner’s consent record', () => {
  let onboarded: OnboardedSite;
  beforeAll(async () => {
    onboarded = await onboardVendorSite();
  }, 120_000);
  afterAll(async () => {
    await onboarded?.close();
  }, 60_000);

  /** The consent id the visitor's banner kept, once it did. */
  const consentIdOf = (visit: Awaited<ReturnType<typeof startVisit>>) =>
    until('a consent id', () => visit.page.evaluate(() => (window as unknown as { CCM?: { ucid?: string | null } }).CCM?.ucid ?? undefined));

  const recordOf = (consentId: string) =>
    until(`the record of ${consentId}`, async () => {
      const answer = await onboarded.service.rest('GET', `${onboarded.domain.base}/consent/${consentId}`);
      return answer.status === 200 ? (answer.body as LoggedRecord[])[0] : undefined;
    });

  /** Accepts all in a fresh visit, `strings` on the handover first (none: as without TCF and GPP); the visitor's record. */
  async function acceptAll(strings?: Record<string, string>): Promise<LoggedRecord> {
    const visit = await startVisit(onboarded, onboarded.markup('advised'), { paths: ['/'] });
    try {
      await visit.open('/');
      expect(visit.bannerStarted, 'the banner started').toBe(true);
      if (strings) {
        await visit.page.evaluate((given) => {
          (window as unknown as { __ccmBanner: { privacyStrings?: Record<string, string> } }).__ccmBanner.privacyStrings = given;
        }, strings);
      }
      await visit.click('#cc-main .cm__btn[data-role="all"]');
      await visit.chosen();
      return await recordOf(await consentIdOf(visit));
    } finally {
      await visit.finish();
    }
  }

  it('sends the TC, AC and GPP strings the bundles keep with the choice, and the evidence decodes them', { timeout: 90_000 }, async () => {
    const usnat = new GppModel();
    usnat.setFieldValue('usnat', 'SaleOptOutNotice', 1);
    usnat.setFieldValue('usnat', 'SaleOptOut', 2);
    const gppString = usnat.encode();

    const record = await acceptAll({ tcString: TC_STRING, acString: AC_STRING, gppString });
    expect(record).toMatchObject({ choice: 'all', tcString: TC_STRING, acString: AC_STRING, gppString });

    const { service, domain } = onboarded;
    const evidence = await service.rest('GET', `${domain.base}/consent/${record.consentId}/evidence`);
    expect(evidence.status, evidence.text).toBe(200);
    expect(evidence.body.privacyStrings.tcString).toMatchObject({ cmpId: 300, purposeConsents: [1, 2, 7], vendorConsents: [1, 40] });
    expect(evidence.body.privacyStrings.acString).toEqual({ version: 2, consentedProviders: [1, 35], disclosedProviders: [9] });
    expect(evidence.body.privacyStrings.gppString).toMatchObject({ sections: [{ id: 7, name: 'usnat' }], usnat: { saleOptOutNotice: 1, saleOptOut: 2 } });
  });

  it('sends none of them without the bundles', { timeout: 90_000 }, async () => {
    const record = await acceptAll();
    expect(record).toMatchObject({ choice: 'all', tcString: null, acString: null, gppString: null });
  });
});
