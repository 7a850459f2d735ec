import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BannerWarning } from '../../../src/features/banner-check/banner-warning.contract.ts';
import { createDomain, type DomainPath, themePayload } from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';

/**
 * A domain's `country` (where the site and its operator are) is information for the operator,
 * which the banner check reads: the warnings of kind `country`, over REST and GraphQL.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const QUERY = `query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) { country bannerWarnings { kind rule path related message } } }`;

/** The country warnings over REST, after checking that GraphQL answers the same. */
async function countryWarnings(domain: DomainPath): Promise<Pick<BannerWarning, 'rule' | 'path' | 'related' | 'message'>[]> {
  const rest = await service.rest<BannerWarning[]>('GET', `${domain.base}/bannerWarnings`);
  expect(rest.status, rest.text).toBe(200);
  const graphql = await service.graphql(QUERY, { clientId: domain.clientId, id: domain.domainId });
  expect(graphql.errors).toBeUndefined();
  const ofKind = (list: BannerWarning[]) => list.filter((warning) => warning.kind === 'country').map(({ rule, path, related, message }) => ({ rule, path, related, message }));
  expect(ofKind(graphql.data.domain.bannerWarnings)).toEqual(ofKind(rest.body));
  return ofKind(rest.body);
}

async function setCountryByGraphql(domain: DomainPath, country: string | null, locales?: string[]) {
  const answer = await service.graphql(
    `mutation($clientId: ID!, $id: ID!, $input: DomainUpdateInput!) { updateDomain(clientId: $clientId, id: $id, input: $input) { country } }`,
    { clientId: domain.clientId, id: domain.domainId, input: { country, ...(locales ? { locales } : {}) } },
  );
  expect(answer.errors).toBeUndefined();
  expect(answer.data.updateDomain.country).toBe(country);
}

describe("a domain's country in the banner check", () => {
  let domain: DomainPath;
  let themeId: string;
  beforeAll(async () => {
    domain = await createDomain(service, 'www.kanzlei-land.de');
    const theme = await service.rest('POST', `${domain.base}/theme`, themePayload({ enableOnlyInEu: true }));
    expect(theme.status, theme.text).toBe(201);
    themeId = theme.body.id;
  });

  it('unset (null) or unknown (ZZ): nothing', async () => {
    expect((await service.rest('GET', domain.base)).body.country).toBeNull();
    expect(await countryWarnings(domain)).toEqual([]);
    expect((await service.rest('PUT', domain.base, { country: 'ZZ' })).status).toBe(200);
    expect(await countryWarnings(domain)).toEqual([]);
  });

  it('a site in Germany that asks only EU visitors is warned that its law binds it for every visitor (REST)', async () => {
    expect((await service.rest('PUT', domain.base, { country: 'DE' })).status).toBe(200);
    const warnings = await countryWarnings(domain);
    expect(warnings).toEqual([
      { rule: 'countryOnlyInEu', path: `/theme/${themeId}/enableOnlyInEu`, related: ['/country'], message: expect.stringContaining('Germany (DE)') },
    ]);
    expect(warnings[0]!.message).toContain('every visitor');
  });

  it('the same site with the theme asking everyone: nothing', async () => {
    expect((await service.rest('PUT', `${domain.base}/theme/${themeId}`, { enableOnlyInEu: false })).status).toBe(200);
    expect(await countryWarnings(domain)).toEqual([]);
    expect((await service.rest('PUT', `${domain.base}/theme/${themeId}`, { enableOnlyInEu: true })).status).toBe(200);
  });

  it('a site in the United States: enableOnlyInEu is its choice, and English is active: nothing (GraphQL)', async () => {
    await setCountryByGraphql(domain, 'US');
    expect(await countryWarnings(domain)).toEqual([]);
  });

  it('a site in France without a French locale is told its visitors read another language (GraphQL)', async () => {
    await setCountryByGraphql(domain, 'FR');
    expect(await countryWarnings(domain)).toEqual([
      { rule: 'countryLanguageMissing', path: '/locales', related: ['/country'], message: expect.stringContaining('French (fr)') },
      { rule: 'countryOnlyInEu', path: `/theme/${themeId}/enableOnlyInEu`, related: ['/country'], message: expect.stringContaining('France (FR)') },
    ]);
    await setCountryByGraphql(domain, 'FR', ['fr_FR', 'en_US']);
    expect((await countryWarnings(domain)).map((warning) => warning.rule)).toEqual(['countryOnlyInEu']);
  });

  it('Austria is German-speaking: de_DE counts; Belgium likely speaks Dutch', async () => {
    await setCountryByGraphql(domain, 'AT', ['de_DE', 'en_US']);
    expect((await countryWarnings(domain)).map((warning) => warning.rule)).toEqual(['countryOnlyInEu']);
    await setCountryByGraphql(domain, 'BE');
    expect((await countryWarnings(domain)).map((warning) => warning.rule)).toEqual(['countryLanguageMissing', 'countryOnlyInEu']);
  });

  it('refuses what is no country code', async () => {
    const answer = await service.rest('PUT', domain.base, { country: 'XX' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].path).toBe('/country');
  });
});
