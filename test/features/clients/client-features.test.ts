import { describe, expect, it } from 'vitest';
import { CLIENT_FEATURES } from '../../../src/features/clients/client.contract.ts';
import { API, createApiKey, domainState, themePayload } from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * A client's feature switches (CCM19's `features.canUse*`): on for a new client, and while the
 * administrator has one off, a client key's write that would use what it governs is refused
 * (403 / FORBIDDEN naming the switch) and the banner ignores those settings.
 */
describe('client features', () => {
  const { service, domain } = useServiceWithDomain();

  const LOGO = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  const clientPath = () => `${API}/${domain.clientId}`;
  const setFeatures = async (features: Record<string, boolean>) => {
    const answer = await service.rest('PUT', clientPath(), { features });
    expect(answer.status, answer.text).toBe(200);
  };
  const clientKey = async () => service.as((await createApiKey(service, domain.clientId, 'features')).key);
  const createdTheme = async (body: Record<string, unknown> = {}) => {
    const answer = await service.rest('POST', `${domain.base}/theme`, themePayload({ default: true, ...body }));
    expect(answer.status, answer.text).toBe(201);
    return answer.body.id as string;
  };

  it('are all on for a new client (REST and GraphQL), as CCM19 makes new clients, and say so in OpenAPI', async () => {
    const created = await service.rest('POST', API, { username: `features-${domain.domainId}`, emailAddress: 'f@example.org', password: 'a password' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.features).toEqual(Object.fromEntries(CLIENT_FEATURES.map((name) => [name, true])));
    const gql = await service.graphql(`query($id: ID!) { client(id: $id) { features { ${CLIENT_FEATURES.join(' ')} } } }`, { id: created.body.id });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.client.features).toEqual(created.body.features);

    const openApi = (await (await fetch(`${service.baseUrl}/openapi.json`)).json()) as { components: { schemas: Record<string, any> } };
    const schema = openApi.components.schemas.ClientFeatures;
    for (const name of CLIENT_FEATURES) expect(schema.properties[name].description, name).toMatch(/Default true/);
    expect(JSON.stringify(schema)).not.toMatch(/Default false|defaults? to false/i);
  });

  /** Each governed setting: the switch, where it is, a value that uses it, and what it may be without the switch. */
  const GATES: [feature: string, target: 'domain' | 'theme', field: string, using: unknown, without: unknown][] = [
    ['canUseConsentSharing', 'domain', 'consentSharingDomains', ['shop.example.org'], []],
    ['canUseConsentSharing', 'domain', 'consentSharingCrossDomain', true, false],
    ['canUseIAB', 'domain', 'tcfEnabled', true, false],
    ['canUseIframes', 'domain', 'appendConsentSwitchToIframes', true, false],
    ['canUseIframes', 'domain', 'rememberIframeConsentPerDomain', true, false],
    ['canUseIframes', 'domain', 'iframeBlockMode', 'blacklist', 'whitelist'],
    ['canUseIframes', 'domain', 'iframeMarkers', ['maps.example.com'], []],
    ['canUseIframes', 'domain', 'blockIframes', false, true],
    ['moreThan2Lang', 'domain', 'locales', ['de_DE', 'en_US', 'fr_FR'], ['de_DE']],
    ['canUseOwnLogo', 'theme', 'logoEnabled', true, false],
    ['canUseOwnLogo', 'theme', 'logoImage', LOGO, null],
  ];

  it.each(GATES)('%s governs the %s’s %s: refused to a client key while off (REST and GraphQL), stored nothing', async (feature, target, field, using, without) => {
    const themeId = target === 'theme' ? await createdTheme() : '';
    const path = target === 'theme' ? `${domain.base}/theme/${themeId}` : domain.base;
    const asClient = await clientKey();
    await setFeatures({ [feature]: false });
    const before = await domainState(service, domain);

    const refused = await asClient.rest('PUT', path, { [field]: using });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toMatchObject({ type: '/problems/forbidden', status: 403 });
    expect(refused.body.detail).toContain(feature);
    expect(refused.body.detail).toContain(field);
    const mutation =
      target === 'theme'
        ? `mutation($c: ID!, $d: ID!, $t: ID!, $input: ThemeUpdateInput!) { updateTheme(clientId: $c, domainId: $d, themeId: $t, input: $input) { id } }`
        : `mutation($c: ID!, $d: ID!, $input: DomainUpdateInput!) { updateDomain(clientId: $c, id: $d, input: $input) { id } }`;
    const gql = await asClient.graphql(mutation, { c: domain.clientId, d: domain.domainId, t: themeId, input: { [field]: using } });
    expect(gql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(gql.errors?.[0]?.message).toContain(feature);
    // A create that would use it is refused too.
    const create =
      target === 'theme'
        ? await asClient.rest('POST', `${domain.base}/theme`, themePayload({ [field]: using }))
        : await asClient.rest('POST', `${API}/${domain.clientId}/domain`, { name: `gated-${field.toLowerCase()}.example`, [field]: using });
    expect(create.status, create.text).toBe(403);
    expect(await domainState(service, domain)).toEqual(before);

    // What the setting may be without the switch is fine, and so is the administrator's write.
    expect((await asClient.rest('PUT', path, { [field]: without })).status).toBe(200);
    expect((await service.rest('PUT', path, { [field]: using })).status).toBe(200);
    // Reading the object and writing it back is no change, so the client key may.
    const read = (await asClient.rest('GET', path)).body;
    const back = await asClient.rest('PUT', path, read);
    expect(back.status, back.text).toBe(200);
    // Switched on again, the client key may use it.
    await setFeatures({ [feature]: true });
    expect((await asClient.rest('PUT', path, { [field]: without })).status).toBe(200);
    expect((await asClient.rest('PUT', path, { [field]: using })).status).toBe(200);
  });

  /** The configuration inside the domain's app.js, as a visitor's browser gets it. */
  const bannerConfig = async () => {
    const script = await (await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`)).text();
    const match = /\.start\((\{.*\}),"[^"]*"\);\}\)\(\);\s*$/s.exec(script);
    expect(match, 'app.js carries a configuration').not.toBeNull();
    return JSON.parse(match![1]!) as {
      sharing: { domains: string[]; crossDomain: boolean };
      layout: { logo: string | null };
      locales: string[];
      iframes: { block: boolean; mode: string; markers: string[]; consentSwitch: boolean; rememberHosts: boolean };
      legalRevision: string;
      contentRevision: string;
    };
  };
  const shown = (config: Awaited<ReturnType<typeof bannerConfig>>) => ({
    sharing: config.sharing.domains,
    logo: config.layout.logo !== null,
    locales: config.locales,
    iframes: config.iframes,
  });

  it('makes the banner ignore what a switched-off feature governs, at once, and show it again once switched on', async () => {
    const embedding = await service.rest('POST', `${domain.base}/embedding`, { name: 'Maps', purpose: '6cd2721', iframeMarkers: ['maps.example.com'] });
    expect(embedding.status, embedding.text).toBe(201);
    await createdTheme({ logoEnabled: true, logoImage: LOGO });
    const settings = await service.rest('PUT', domain.base, {
      consentSharingDomains: ['shop.example.org'],
      locales: ['de_DE', 'en_US', 'fr_FR'],
      appendConsentSwitchToIframes: true,
      rememberIframeConsentPerDomain: true,
      iframeBlockMode: 'blacklist',
      iframeMarkers: ['maps.example.com'],
    });
    expect(settings.status, settings.text).toBe(200);
    const using = {
      sharing: ['shop.example.org'],
      logo: true,
      locales: ['de_DE', 'en_US', 'fr_FR'],
      iframes: { block: true, mode: 'blacklist', markers: ['maps.example.com'], consentSwitch: true, rememberHosts: true },
    };
    const first = await bannerConfig();
    expect(shown(first)).toEqual(using);

    const off = { canUseConsentSharing: false, canUseOwnLogo: false, moreThan2Lang: false, canUseIframes: false };
    await setFeatures(off);
    await expect.poll(async () => shown(await bannerConfig()), { timeout: 10_000 }).toEqual({
      sharing: [],
      logo: false,
      locales: ['de_DE', 'en_US'],
      iframes: { block: true, mode: 'whitelist', markers: [], consentSwitch: false, rememberHosts: false },
    });
    // What was published is unchanged: the same revision, so consent records still name it.
    const gated = await bannerConfig();
    expect([gated.contentRevision, gated.legalRevision]).toEqual([first.contentRevision, first.legalRevision]);

    await setFeatures(Object.fromEntries(Object.keys(off).map((name) => [name, true])));
    await expect.poll(async () => shown(await bannerConfig()), { timeout: 10_000 }).toEqual(using);
  });

  it('holds a restore to the switches: a client key may not bring back a logo or consent sharing it may not use', async () => {
    const themeId = await createdTheme({ logoEnabled: true, logoImage: LOGO });
    expect((await service.rest('PUT', domain.base, { consentSharingDomains: ['shop.example.org'] })).status).toBe(200);
    const revisions = async () => (await service.rest('GET', `${domain.base}/revision`)).body.revisions as { number: number }[];
    const withBoth = (await revisions())[0]!.number;
    expect((await service.rest('PUT', `${domain.base}/theme/${themeId}`, { logoEnabled: false, logoImage: null })).status).toBe(200);
    expect((await service.rest('PUT', domain.base, { consentSharingDomains: [] })).status).toBe(200);
    const newest = (await revisions())[0]!.number;

    const asClient = await clientKey();
    for (const [feature, others] of [
      ['canUseOwnLogo', { canUseConsentSharing: true }],
      ['canUseConsentSharing', { canUseOwnLogo: true }],
    ] as const) {
      await setFeatures({ [feature]: false, ...others });
      const refused = await asClient.rest('POST', `${domain.base}/revision/${withBoth}/restore`);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.detail).toContain(feature);
      const gql = await asClient.graphql(
        `mutation ($c: ID!, $d: ID!, $n: Int!) { restoreRevision(clientId: $c, domainId: $d, number: $n) { number } }`,
        { c: domain.clientId, d: domain.domainId, n: withBoth },
      );
      expect(gql.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect((await revisions())[0]!.number).toBe(newest);
    }
    await setFeatures({ canUseOwnLogo: true, canUseConsentSharing: true });
    const restored = await asClient.rest('POST', `${domain.base}/revision/${withBoth}/restore`);
    expect(restored.status, restored.text).toBe(201);
  });
});
