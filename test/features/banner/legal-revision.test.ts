import { describe, expect, it } from 'vitest';
import { buildBannerConfig } from '../../../src/features/banner/banner-config.build.ts';
import { readPublishedConfiguration } from '../../../src/features/banner/published-configuration.ts';
import { embeddingPayload, themePayload } from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * `consentResetOnLegalChange`: the banner asks again when what a consent was given to changes —
 * every field CCM19 shows as an embedding's legal information — and never for wording or colours.
 * Each change goes through the API; the banner's legal hash and the recorded revision's must move
 * together (the recorder computes it from the change, the banner from the whole configuration).
 */
describe('the legal revision', () => {
  const { service, domain } = useServiceWithDomain({ domainPer: 'suite' });

  const banner = async () => buildBannerConfig((await readPublishedConfiguration(service.database.orm, service.services, domain.domainId))!, null);
  /** The newest revision as GraphQL reports it: its legal hash and whether it was a legal change. */
  const newestRevision = async () => {
    const answer = await service.graphql(
      `query($c: ID!, $d: ID!) { client(id: $c) { domain(id: $d) { revisions(limit: 1) { revisions { legalHash legal } } } } }`,
      { c: domain.clientId, d: domain.domainId },
    );
    expect(answer.errors).toBeUndefined();
    return answer.data.client.domain.revisions.revisions[0] as { legalHash: string; legal: boolean };
  };
  const put = async (path: string, body: unknown) => {
    const answer = await service.rest('PUT', `${domain.base}${path}`, body);
    expect(answer.status, answer.text).toBe(200);
  };

  let embeddingId = '';
  let themeId = '';
  /** Sets up once: an embedding with every legal field set, a theme, and the domain asking again on legal changes. */
  const ready = async () => {
    if (embeddingId) return;
    await put('', { consentResetOnLegalChange: true });
    const created = await service.rest(
      'POST',
      `${domain.base}/embedding`,
      embeddingPayload({
        description: 'Shows videos',
        whatDataIsCollected: 'IP address',
        purposeOfDataCollection: 'Showing videos',
        legalBasis: 'Art. 6 (1) a GDPR',
        placeOfProcessing: 'Ireland',
        scriptHtmlCode: '<script>first()</script>',
        googleConsentMode: ['ad_storage'],
        tcfPurposes: [1],
        tcfSpecialFeatures: [1],
        translations: { en_US: { description: 'Shows videos', blockedContentTitle: 'Blocked' } },
      }),
    );
    expect(created.status, created.text).toBe(201);
    embeddingId = created.body.id;
    const theme = await service.rest('POST', `${domain.base}/theme`, themePayload({ default: true }));
    expect(theme.status, theme.text).toBe(201);
    themeId = theme.body.id;
  };

  /** Each legally relevant change, as an update of the embedding. */
  const LEGAL: [string, Record<string, unknown>][] = [
    ['name', { name: 'YouTube (nocookie)' }],
    ['purpose', { purpose: 'cdcbd7c' }],
    ['vendor', { vendor: 'Google LLC' }],
    ['description', { description: 'Shows videos and counts views' }],
    ['privacy policy URL', { privacyPolicyUrl: 'https://policies.google.com/privacy?hl=de' }],
    ['collected data', { whatDataIsCollected: 'IP address, device id' }],
    ['purpose of collection', { purposeOfDataCollection: 'Showing videos, advertising' }],
    ['legal basis', { legalBasis: 'Art. 6 (1) f GDPR' }],
    ['place of processing', { placeOfProcessing: 'USA' }],
    ['cookies (assets)', { assets: [{ name: 'VISITOR_INFO1_LIVE', lifetime: '6 months' }, { name: 'YSC' }] }],
    ['Consent Mode types', { googleConsentMode: ['ad_storage', 'analytics_storage'] }],
    ['TCF purposes', { tcfPurposes: [1, 2] }],
    ['TCF special features', { tcfSpecialFeatures: [1, 2] }],
    ['script code', { scriptHtmlCode: '<script>second()</script>' }],
    ['a translated description', { translations: { en_US: { description: 'Plays videos', blockedContentTitle: 'Blocked' } } }],
  ];

  it.each(LEGAL)('changes when the embedding’s %s changes, and the banner asks again', async (_what, change) => {
    await ready();
    const before = await banner();
    await put(`/embedding/${embeddingId}`, change);
    const after = await banner();
    expect(after.legalRevision).not.toBe(before.legalRevision);
    expect(after.revision).not.toBe(before.revision);
    expect(await newestRevision()).toEqual({ legalHash: after.legalRevision, legal: true });
  });

  /** Changes of wording and look: never a reason to ask again. */
  const COSMETIC: [string, string, Record<string, unknown>][] = [
    ['a theme colour', 'theme', { primaryButtonBackgroundColor: '#abcdef' }],
    ['the banner’s title', 'locale/de_DE', { widgetTitle: 'Neu formuliert' }],
    ['the blocked-content wording of the embedding', 'embedding', { translations: { en_US: { description: 'Plays videos', blockedContentTitle: 'Held back' } } }],
    ['the embedding’s script markers', 'embedding', { scriptMarkers: ['youtube.com/iframe_api'] }],
  ];

  it.each(COSMETIC)('stays when %s changes', async (_what, target, change) => {
    await ready();
    const before = await banner();
    const path = target === 'theme' ? `/theme/${themeId}` : target === 'embedding' ? `/embedding/${embeddingId}` : `/${target}`;
    await put(path, change);
    const after = await banner();
    expect(after.contentRevision).not.toBe(before.contentRevision);
    expect(after.legalRevision).toBe(before.legalRevision);
    expect(after.revision).toBe(before.revision);
    expect(await newestRevision()).toEqual({ legalHash: before.legalRevision, legal: false });
  });

  it('reads a set (Consent Mode types, TCF purposes) without its order', async () => {
    await ready();
    await put(`/embedding/${embeddingId}`, { googleConsentMode: ['ad_storage', 'analytics_storage'], tcfPurposes: [1, 2] });
    const before = await banner();
    await put(`/embedding/${embeddingId}`, { googleConsentMode: ['analytics_storage', 'ad_storage'], tcfPurposes: [2, 1] });
    const after = await banner();
    expect(after.contentRevision).not.toBe(before.contentRevision);
    expect(after.legalRevision).toBe(before.legalRevision);
  });
});
