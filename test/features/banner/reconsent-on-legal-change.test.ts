import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OnboardedSite, onboardVendorSite, startVisit } from '../../support/onboarded-site.ts';

/**
 * `consentResetOnLegalChange` in a visitor's browser, on the site onboarding made: a visitor who
 * accepted is not asked again when the banner's look changes, and is asked again once the legal
 * information of a service changes (here its legal basis, which the legal hash did not cover before).
 */
describe('a visitor who accepted, after a legal change', () => {
  let onboarded: OnboardedSite;

  beforeAll(async () => {
    onboarded = await onboardVendorSite();
    const answer = await onboarded.service.rest('PUT', onboarded.domain.base, { consentResetOnLegalChange: true });
    expect(answer.status, answer.text).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await onboarded?.close();
  }, 60_000);

  it('is asked again when a service’s legal basis changes, and not when a text changes', async () => {
    const { service, domain } = onboarded;
    const [embedding] = [...onboarded.embeddings.values()].filter((one) => one.active);
    expect(embedding, 'the onboarding made an active embedding').toBeDefined();
    const visitor = await startVisit(onboarded, onboarded.markup('advised'), { paths: ['/'] });
    // Every load asks the service for the banner again (the visitor's cache would keep it for a minute).
    await visitor.page.setCacheEnabled(false);
    const asked = () => visitor.page.evaluate(() => document.documentElement.classList.contains('show--consent'));
    try {
      await visitor.open('/');
      expect(visitor.bannerStarted).toBe(true);
      expect(await asked()).toBe(true);
      await visitor.click('#cc-main .cm__btn[data-role="all"]');
      await visitor.chosen();
      await visitor.open('reload');
      expect(await asked()).toBe(false);

      const reworded = await service.rest('PUT', `${domain.base}/locale/de_DE`, { widgetTitle: 'Ihre Wahl, neu formuliert' });
      expect(reworded.status, reworded.text).toBe(200);
      await visitor.open('reload');
      expect(await asked()).toBe(false);

      const changed = await service.rest('PUT', `${domain.base}/embedding/${embedding!.id}`, { legalBasis: 'Art. 6 Abs. 1 lit. f DSGVO' });
      expect(changed.status, changed.text).toBe(200);
      await visitor.open('reload');
      expect(await asked()).toBe(true);
    } finally {
      await visitor.finish();
    }
  }, 90_000);
});
