import { describe, expect, it } from 'vitest';
import { buildBannerConfig } from '../../../src/features/banner/banner-config.build.ts';
import { readPublishedConfiguration } from '../../../src/features/banner/published-configuration.ts';
import { embeddingPayload } from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * An embedding's `privacyPolicyUrl` (and its translations') as CCM19 accepts it: an absolute URL,
 * a path on the site, or a `{placeholder}` (docs: funktionen/platzhalter.md, `{Firma_Datenschutz}`),
 * filled in when the banner is built; the banner links the absolute address.
 */
describe("an embedding's privacy policy address with placeholders", () => {
  const { service, domain } = useServiceWithDomain();

  const bannerJson = async (locale: string) =>
    JSON.stringify(buildBannerConfig((await readPublishedConfiguration(service.database.orm, service.services, domain.domainId))!, locale));
  const origin = async () => new URL((await service.rest('GET', domain.base)).body.url).origin;

  it('accepts a placeholder and a site path (REST and GraphQL) and links the filled-in absolute address', async () => {
    const placeholders = await service.rest('PUT', `${domain.base}/placeholder`, [
      { name: 'Firma_Datenschutz', value: 'https://www.example.org/datenschutz.html' },
      { name: 'Firma_Web', value: 'https://www.example.org' },
    ]);
    expect(placeholders.status, placeholders.text).toBe(201);
    const rest = await service.rest(
      'POST',
      `${domain.base}/embedding`,
      embeddingPayload({ privacyPolicyUrl: '{Firma_Datenschutz}', translations: { en_US: { privacyPolicyUrl: '/en/privacy' } } }),
    );
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body.privacyPolicyUrl).toBe('{Firma_Datenschutz}');
    const gql = await service.graphql(
      `mutation($c: ID!, $d: ID!, $input: EmbeddingCreateInput!) { createEmbedding(clientId: $c, domainId: $d, input: $input) { privacyPolicyUrl } }`,
      { c: domain.clientId, d: domain.domainId, input: { name: 'Maps', purpose: '6cd2721', privacyPolicyUrl: '{Firma_Web}/maps-datenschutz' } },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.createEmbedding.privacyPolicyUrl).toBe('{Firma_Web}/maps-datenschutz');

    const german = await bannerJson('de_DE');
    expect(german).toContain('href=\\"https://www.example.org/datenschutz.html\\"');
    expect(german).toContain('href=\\"https://www.example.org/maps-datenschutz\\"');
    expect(german).not.toContain('{Firma_');
    const english = await bannerJson('en_US');
    expect(english).toContain(`href=\\"${await origin()}/en/privacy\\"`);
  });

  it('refuses what is neither an address, a site path nor a placeholder (400, REST and GraphQL)', async () => {
    for (const bad of ['javascript:alert(1)', 'datenschutz.html', '//evil.example/x', '/\\evil.example', 'no {such thing}']) {
      const answer = await service.rest('POST', `${domain.base}/embedding`, embeddingPayload({ privacyPolicyUrl: bad }));
      expect(answer.status, bad).toBe(400);
      expect(answer.body.errors.map((e: { path: string }) => e.path)).toContain('/privacyPolicyUrl');
      const translated = await service.rest('POST', `${domain.base}/embedding`, embeddingPayload({ translations: { en_US: { privacyPolicyUrl: bad } } }));
      expect(translated.status, bad).toBe(400);
    }
    const gql = await service.graphql(
      `mutation($c: ID!, $d: ID!, $input: EmbeddingCreateInput!) { createEmbedding(clientId: $c, domainId: $d, input: $input) { id } }`,
      { c: domain.clientId, d: domain.domainId, input: { name: 'Bad', purpose: '6cd2721', privacyPolicyUrl: 'javascript:alert(1)' } },
    );
    expect(gql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
