import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtinPresets } from '../../../src/features/catalog/builtin.ts';
import { builtinPreset } from '../../support/presets.ts';
import { importOpenCookieDatabase } from '../../../src/features/catalog/import-open-cookie-database.ts';
import { API, createClient, createDomain, type DomainPath, domainState, unknownId } from '../../support/fixtures.ts';
import { startScanningTestService } from '../../support/scanning-service.ts';
import { PUBLIC_BASE_URL, type TestService } from '../../support/service.ts';

/** The four onboarding operations (SERVICE.md §3 "Scan domain" to "Code snippets"), over REST and GraphQL. */

let service: TestService;
let sites: Awaited<ReturnType<typeof startScanningTestService>>['sites'];
let close: () => Promise<void>;
beforeAll(async () => {
  ({ service, sites, close } = await startScanningTestService());
}, 120_000);
afterAll(() => close());

const preset = builtinPreset;
const YOUTUBE = preset('YouTube');
const GA4 = preset('Google Analytics 4');
const UA = preset('Google Analytics (Universal Analytics)');
const GOOGLE_FONTS = preset('Google Fonts');
const ADOBE_FONTS = preset('Adobe Fonts');

const gqlScope = (domain: DomainPath) => ({ clientId: domain.clientId, domainId: domain.domainId });

describe('scan domain', () => {
  it('scans the site at the domain address and reports address, legal pages, storage and known services', async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    const answer = await service.rest('GET', `${domain.base}/onboarding/scan`);
    expect(answer.status, answer.text).toBe(200);
    const result = answer.body;

    expect(result.address).toEqual({ company: 'Fixture Shop GmbH', street: 'Musterstraße 12', zipCode: '10115', city: 'Berlin' });
    expect(result.imprintUrl).toBe('http://www.shop.test/impressum');
    expect(result.privacyPolicyUrl).toBe('http://www.shop.test/datenschutz');

    const cookies = result.storage.cookies.map((c: { name: string; domain: string; path: string }) => ({ name: c.name, domain: c.domain, path: c.path }));
    expect(cookies).toEqual(
      expect.arrayContaining([
        { name: 'shop_session', domain: 'www.shop.test', path: '/' },
        { name: '_ga', domain: 'www.shop.test', path: '/' },
        { name: '_ga_FIXTURE', domain: 'www.shop.test', path: '/' },
        { name: 'late_cookie', domain: 'www.shop.test', path: '/' },
        { name: 'VISITOR_INFO1_LIVE', domain: 'www.youtube.com', path: '/' },
        { name: 'YSC', domain: 'www.youtube.com', path: '/' },
      ]),
    );
    expect(cookies).toHaveLength(6);
    const youtubeCookie = result.storage.cookies.find((c: { name: string }) => c.name === 'VISITOR_INFO1_LIVE');
    expect(youtubeCookie).toMatchObject({ party: 'third', secure: true, httpOnly: false, sameSite: 'None' });
    expect(result.storage.localStorage.map((k: { name: string }) => k.name).sort()).toEqual(['cart_items', 'yt-remote-device-id']);
    expect(result.storage.sessionStorage.map((k: { name: string }) => ({ name: k.name }))).toEqual([{ name: 'checkout_step' }]);

    const found = Object.fromEntries(result.availablePresets.map((p: { id: number }) => [p.id, p]));
    expect(Object.keys(found).map(Number).sort((a, b) => a - b)).toEqual([GA4.id, YOUTUBE.id]);
    expect(found[YOUTUBE.id]).toMatchObject({
      id: YOUTUBE.id,
      name: 'YouTube',
      purpose: YOUTUBE.purpose,
      vendor: YOUTUBE.vendor,
      translations: {
        de_DE: { name: YOUTUBE.translations.de_DE.name, description: YOUTUBE.translations.de_DE.description },
        en_US: { name: YOUTUBE.translations.en_US.name, description: YOUTUBE.translations.en_US.description },
      },
    });
    expect(found[YOUTUBE.id].evidence).toEqual(
      expect.arrayContaining([
        { kind: 'cookie', value: 'VISITOR_INFO1_LIVE' },
        { kind: 'localStorage', value: 'yt-remote-device-id' },
        { kind: 'iframe', value: 'https://www.youtube.com/embed/fixture-video' },
      ]),
    );
    expect(found[GA4.id].evidence).toEqual(
      expect.arrayContaining([
        { kind: 'cookie', value: '_ga' },
        { kind: 'cookie', value: '_ga_FIXTURE' },
        { kind: 'script', value: 'http://www.googletagmanager.com/gtag/js?id=G-FIXTURE' },
      ]),
    );
    expect(result.pages[0]).toEqual({ url: 'http://www.shop.test/', status: 200, landedUrl: 'http://www.shop.test/' });
    expect(result.url).toBe('http://www.shop.test/');
  });

  it('scans the same site through GraphQL', async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    const answer = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!) { scanDomain(clientId: $clientId, domainId: $domainId) {
         address { company street zipCode city } imprintUrl privacyPolicyUrl
         availablePresets { id name translations { locale name } }
         storage { cookies { name domain path party } localStorage { name origin } sessionStorage { name } }
       } }`,
      gqlScope(domain),
    );
    expect(answer.errors).toBeUndefined();
    const result = answer.data.scanDomain;
    expect(result.address).toEqual({ company: 'Fixture Shop GmbH', street: 'Musterstraße 12', zipCode: '10115', city: 'Berlin' });
    expect(result.availablePresets.map((p: { id: number }) => p.id).sort((a: number, b: number) => a - b)).toEqual([GA4.id, YOUTUBE.id]);
    expect(result.storage.sessionStorage).toEqual([{ name: 'checkout_step' }]);
  });

  it.each([
    ['an error status', 'http://error404.test/', 400, '/problems/validation', 'BAD_USER_INPUT'],
    ['an empty page', 'http://empty.test/', 400, '/problems/validation', 'BAD_USER_INPUT'],
    ['a page that never finishes loading', 'http://slow.test/', 500, '/problems/internal', 'UPSTREAM_FAILURE'],
    ['a host that does not resolve', 'http://unresolvable.test/', 500, '/problems/internal', 'UPSTREAM_FAILURE'],
    ['a redirect to a private address', 'http://redirect.test/', 400, '/problems/validation', 'BAD_USER_INPUT'],
    ['a loopback address', 'http://127.0.0.1:9/', 400, '/problems/validation', 'BAD_USER_INPUT'],
  ])('answers a site with %s with %i (and the same error in GraphQL)', async (_, name, status, type, code) => {
    const domain = await createDomain(service, name);
    const answer = await service.rest('GET', `${domain.base}/onboarding/scan`);
    expect(answer.status, answer.text).toBe(status);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ type, status, detail: expect.any(String) });
    const viaGraphql = await service.graphql(
      'mutation($clientId: ID!, $domainId: ID!) { scanDomain(clientId: $clientId, domainId: $domainId) { imprintUrl } }',
      gqlScope(domain),
    );
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe(code);
  });

  it('answers 404 for an unknown domain or client', async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    expect((await service.rest('GET', `${API}/${domain.clientId}/domain/${unknownId()}/onboarding/scan`)).status).toBe(404);
    expect((await service.rest('GET', `${API}/${unknownId()}/domain/${domain.domainId}/onboarding/scan`)).status).toBe(404);
  });

  it('runs one scan per domain at a time: a second one meanwhile is 409', async () => {
    const domain = await createDomain(service, 'http://slow.test/');
    const first = service.rest('GET', `${domain.base}/onboarding/scan`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = await service.rest('GET', `${domain.base}/onboarding/scan`);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ type: '/problems/conflict', detail: expect.stringContaining('already running') });
    expect((await first).status).toBe(500);
  });

  it('caps scans running at once (2 here): one more is 429 with Retry-After, and none hangs', async () => {
    const domains = await Promise.all([1, 2, 3].map(() => createDomain(service, 'http://slow.test/')));
    const answers = await Promise.all(domains.map((domain) => service.rest('GET', `${domain.base}/onboarding/scan`)));
    expect(answers.map((a) => a.status).sort()).toEqual([429, 500, 500]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(refused.body).toMatchObject({ type: '/problems/too-many-requests', status: 429 });
  });
});

describe('import presets', () => {
  let domain: DomainPath;
  beforeEach(async () => {
    domain = await createDomain(service);
  });

  it('creates one embedding per preset with its assets and translations, in request order (201), active unless `active: false`', async () => {
    const answer = await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: YOUTUBE.id, active: false }, { id: GA4.id }]);
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toEqual([
      { presetId: YOUTUBE.id, embeddingId: expect.any(String), active: false },
      { presetId: GA4.id, embeddingId: expect.any(String), active: true },
    ]);
    const youtube = (await service.rest('GET', `${domain.base}/embedding/${answer.body[0].embeddingId}`)).body;
    expect(youtube).toMatchObject({
      name: 'YouTube',
      active: false,
      purpose: YOUTUBE.purpose,
      vendor: YOUTUBE.vendor,
      privacyPolicyUrl: YOUTUBE.privacyPolicyUrl,
      description: YOUTUBE.translations.en_US.description,
      iframeMarkers: YOUTUBE.signals.iframes,
      translations: {
        de_DE: { name: YOUTUBE.translations.de_DE.name, description: YOUTUBE.translations.de_DE.description },
        en_US: { name: YOUTUBE.translations.en_US.name, description: YOUTUBE.translations.en_US.description },
      },
    });
    expect(youtube.assets.map((a: { name: string; storageType: string; dynamic: boolean }) => [a.name, a.storageType, a.dynamic])).toEqual(
      YOUTUBE.cookies.map((c) => [c.name, c.storageType, c.wildcard]),
    );
    const visitor = youtube.assets.find((a: { name: string }) => a.name === 'VISITOR_INFO1_LIVE');
    const visitorPreset = YOUTUBE.cookies.find((c) => c.name === 'VISITOR_INFO1_LIVE')!;
    expect(visitor).toMatchObject({
      lifetime: visitorPreset.lifetime,
      description: visitorPreset.description.en_US,
      translations: {
        de_DE: { description: visitorPreset.description.de_DE, lifetime: expect.stringMatching(/Monate|Monat|Jahr|Tag/) },
        en_US: { description: visitorPreset.description.en_US, lifetime: visitorPreset.lifetime },
      },
    });
    // Left out, `active` is true (CCM19 documents false): a found service is in the banner, which holds back its scripts until consent.
    const analytics = (await service.rest('GET', `${domain.base}/embedding/${answer.body[1].embeddingId}`)).body;
    expect(analytics).toMatchObject({ name: GA4.name, active: true, purpose: 'a717ff5' });
  });

  it('carries the Consent Mode types of a Google preset into its embedding, and none for other services', async () => {
    const ADS = preset('Google Ads Conversion Tracking & Remarketing');
    const answer = await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: GA4.id }, { id: ADS.id }, { id: YOUTUBE.id }]);
    expect(answer.status, answer.text).toBe(201);
    const stored = await Promise.all(
      answer.body.map(async (result: { embeddingId: string }) => (await service.rest('GET', `${domain.base}/embedding/${result.embeddingId}`)).body),
    );
    expect(stored.map((embedding: { name: string; googleConsentMode: string[] }) => [embedding.name, embedding.googleConsentMode])).toEqual([
      [GA4.name, ['analytics_storage']],
      [ADS.name, ['ad_storage']],
      ['YouTube', []],
    ]);
  });

  it('imports a preset the domain already has no second time: the answer names its embedding, edits kept, switched on if asked', async () => {
    const first = await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: GA4.id, active: false }]);
    const gaId = first.body[0].embeddingId;
    expect(first.body[0].active).toBe(false);
    expect((await service.rest('PUT', `${domain.base}/embedding/${gaId}`, { description: 'Our own words' })).status).toBe(200);
    // Without `active: true` the embedding keeps its state: left out (whose default is true for a new one) it stays off.
    const unasked = await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: GA4.id }]);
    expect(unasked.body).toEqual([{ presetId: GA4.id, embeddingId: gaId, active: false }]);
    const again = await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: YOUTUBE.id }, { id: GA4.id, active: true }]);
    expect(again.status, again.text).toBe(201);
    expect(again.body[1]).toEqual({ presetId: GA4.id, embeddingId: gaId, active: true });
    // `active: false` does not switch off what is on.
    const off = await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: GA4.id, active: false }]);
    expect(off.body).toEqual([{ presetId: GA4.id, embeddingId: gaId, active: true }]);
    const embeddings = (await service.rest('GET', `${domain.base}/embedding`)).body as { id: string; name: string; active: boolean; description: string }[];
    expect(embeddings.filter((embedding) => embedding.name === GA4.name)).toEqual([
      expect.objectContaining({ id: gaId, active: true, description: 'Our own words' }),
    ]);
    expect(embeddings).toHaveLength(2);
  });

  it('lists a cookie two presets of one request share in one embedding only: _ga goes to GA4, not also to Universal Analytics', async () => {
    const answer = await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: UA.id }, { id: GA4.id }]);
    expect(answer.status, answer.text).toBe(201);
    const [ua, ga4] = await Promise.all(
      answer.body.map(async (result: { embeddingId: string }) => (await service.rest('GET', `${domain.base}/embedding/${result.embeddingId}`)).body),
    );
    expect(ga4.assets.map((a: { name: string }) => a.name)).toEqual(['_ga', '_ga_*']);
    expect(ua.assets.map((a: { name: string }) => a.name)).toEqual(UA.cookies.map((c) => c.name).filter((name) => name !== '_ga'));
    // Alone, a preset still brings every cookie it lists.
    const other = await createDomain(service);
    const alone = await service.rest('POST', `${other.base}/onboarding/presets`, [{ id: UA.id }]);
    expect(alone.status, alone.text).toBe(201);
    const uaAlone = (await service.rest('GET', `${other.base}/embedding/${alone.body[0].embeddingId}`)).body;
    expect(uaAlone.assets.map((a: { name: string }) => a.name)).toEqual(UA.cookies.map((c) => c.name));
  });

  it.each([
    ['an unknown preset id', [{ id: YOUTUBE.id }, { id: 99_999 }], ['/1/id']],
    ['a repeated preset id', [{ id: YOUTUBE.id }, { id: YOUTUBE.id }], ['/1/id']],
    ['an id that is not an integer', [{ id: 'youtube' }], ['/0/id']],
    ['an unknown property', [{ id: YOUTUBE.id, colour: 'red' }], ['/0/colour']],
    ['an object instead of an array', { id: YOUTUBE.id }, ['']],
  ])('answers 400 for %s and creates nothing', async (_, body, paths) => {
    const before = await domainState(service, domain);
    const answer = await service.rest('POST', `${domain.base}/onboarding/presets`, body);
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers 404 for an unknown domain', async () => {
    const client = await createClient(service);
    const answer = await service.rest('POST', `${API}/${client.id}/domain/${unknownId()}/onboarding/presets`, [{ id: YOUTUBE.id }]);
    expect(answer.status).toBe(404);
  });

  it('imports through GraphQL, and bad input is BAD_USER_INPUT with the same errors as REST', async () => {
    const mutation = `mutation($clientId: ID!, $domainId: ID!, $presets: [OnboardingPresetInput!]!) {
      importPresets(clientId: $clientId, domainId: $domainId, presets: $presets) { presetId embeddingId active } }`;
    const ok = await service.graphql(mutation, { ...gqlScope(domain), presets: [{ id: GA4.id }, { id: YOUTUBE.id, active: false }] });
    expect(ok.errors).toBeUndefined();
    expect(ok.data.importPresets).toEqual([
      { presetId: GA4.id, embeddingId: expect.any(String), active: true },
      { presetId: YOUTUBE.id, embeddingId: expect.any(String), active: false },
    ]);
    const read = await service.graphql(
      'query($clientId: ID!, $id: ID!, $e: ID!) { domain(clientId: $clientId, id: $id) { embedding(id: $e) { name active googleConsentMode } } }',
      { clientId: domain.clientId, id: domain.domainId, e: ok.data.importPresets[0].embeddingId },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data.domain.embedding).toEqual({ name: GA4.name, active: true, googleConsentMode: ['analytics_storage'] });

    const bad = [{ id: GA4.id }, { id: 99_999 }];
    const viaGraphql = await service.graphql(mutation, { ...gqlScope(domain), presets: bad });
    const viaRest = await service.rest('POST', `${domain.base}/onboarding/presets`, bad);
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(viaGraphql.errors?.[0]?.extensions?.errors).toEqual(viaRest.body.errors);
  });
});

describe('embeddings from cookies', () => {
  let domain: DomainPath;
  beforeEach(async () => {
    domain = await createDomain(service);
  });

  const found = [
    { name: '_ga', storageType: 'cookie' },
    { name: '_ga_ABC123', storageType: 'cookie' },
    { name: '_ga_XYZ789', storageType: 'cookie' },
    { name: 'VISITOR_INFO1_LIVE', storageType: 'cookie' },
    { name: 'mystery', storageType: 'cookie' },
    { name: 'my-app-state', storageType: 'localStorage' },
  ];

  it('creates one embedding per recognised service with the matched assets, and one inactive "other" for the rest (201)', async () => {
    const answer = await service.rest('POST', `${domain.base}/onboarding/embeddingsFromCookies`, found);
    expect(answer.status, answer.text).toBe(201);
    const byName = Object.fromEntries(answer.body.map((e: { name: string }) => [e.name, e]));
    expect(Object.keys(byName).sort()).toEqual([GA4.name, 'Unrecognised cookies', 'YouTube'].sort());
    expect(byName[GA4.name]).toMatchObject({ purpose: GA4.purpose, active: true, vendor: GA4.vendor });
    expect(byName[GA4.name].assets.map((a: { name: string; dynamic: boolean }) => [a.name, a.dynamic])).toEqual([
      ['_ga', false],
      ['_ga_*', true],
    ]);
    expect(byName.YouTube.assets.map((a: { name: string }) => a.name)).toEqual(['VISITOR_INFO1_LIVE']);
    expect(byName['Unrecognised cookies']).toMatchObject({ purpose: '15c61c3', active: false });
    expect(byName['Unrecognised cookies'].assets.map((a: { name: string; storageType: string }) => [a.name, a.storageType])).toEqual([
      ['mystery', 'cookie'],
      ['my-app-state', 'localStorage'],
    ]);
    // Everything returned is stored.
    const stored = (await service.rest('GET', `${domain.base}/embedding`)).body;
    expect(stored).toEqual(expect.arrayContaining(answer.body));
    expect(stored).toHaveLength(3);
  });

  it("adds to the domain's existing embedding of a service instead of duplicating it or its assets", async () => {
    const imported = await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: GA4.id }]);
    const gaId = imported.body[0].embeddingId;
    await service.rest('POST', `${domain.base}/onboarding/embeddingsFromCookies`, [{ name: 'mystery', storageType: 'cookie' }]);

    const again = await service.rest('POST', `${domain.base}/onboarding/embeddingsFromCookies`, [
      { name: '_ga', storageType: 'cookie' },
      { name: 'YSC', storageType: 'cookie' },
      { name: 'mystery', storageType: 'cookie' },
      { name: 'another-mystery', storageType: 'sessionStorage' },
    ]);
    expect(again.status).toBe(201);
    // GA4 already has _ga (the preset brought all its assets): nothing to add, so it is not returned.
    expect(again.body.map((e: { name: string }) => e.name).sort()).toEqual(['Unrecognised cookies', 'YouTube']);
    const unrecognised = again.body.find((e: { name: string }) => e.name === 'Unrecognised cookies');
    expect(unrecognised.assets.map((a: { name: string }) => a.name)).toEqual(['mystery', 'another-mystery']);

    const all = (await service.rest('GET', `${domain.base}/embedding`)).body as { id: string; name: string; assets: { name: string }[] }[];
    expect(all.map((e) => e.name).sort()).toEqual([GA4.name, 'Unrecognised cookies', 'YouTube'].sort());
    const ga = all.find((e) => e.id === gaId)!;
    expect(ga.assets.map((a) => a.name)).toEqual(GA4.cookies.map((c) => c.name));
  });

  it('counts the services the domain has embeddings of as found: _ga and _gid next to its GA4 embedding go there, no UA is made', async () => {
    const imported = await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: GA4.id }]);
    const answer = await service.rest('POST', `${domain.base}/onboarding/embeddingsFromCookies`, [
      { name: '_ga', storageType: 'cookie' },
      { name: '_gid', storageType: 'cookie' },
    ]);
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.map((e: { id: string; assets: { name: string }[] }) => [e.id, e.assets.map((a) => a.name)])).toEqual([
      [imported.body[0].embeddingId, ['_ga', '_ga_*', '_gid']],
    ]);
  });

  it('adds to an embedding the operator made by hand under the service\'s name, matched case-insensitively', async () => {
    const made = await service.rest('POST', `${domain.base}/embedding`, {
      name: 'youtube',
      purpose: '6cd2721',
      assets: [{ name: 'VISITOR_INFO1_LIVE' }],
    });
    const answer = await service.rest('POST', `${domain.base}/onboarding/embeddingsFromCookies`, [
      { name: 'VISITOR_INFO1_LIVE', storageType: 'cookie' },
      { name: 'YSC', storageType: 'cookie' },
    ]);
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toHaveLength(1);
    expect(answer.body[0]).toMatchObject({ id: made.body.id, name: 'youtube' });
    expect(answer.body[0].assets.map((a: { name: string }) => a.name)).toEqual(['VISITOR_INFO1_LIVE', 'YSC']);
    expect((await service.rest('GET', `${domain.base}/embedding`)).body).toHaveLength(1);
  });

  it("puts a cookie sent with its domain into the embedding of the service that owns the domain (`fr` on .facebook.com, Stripe's `m`)", async () => {
    const META_PIXEL = preset('Meta Pixel');
    const STRIPE = preset('Stripe');
    const answer = await service.rest('POST', `${domain.base}/onboarding/embeddingsFromCookies`, [
      { name: '_fbp', storageType: 'cookie', domain: 'www.shop.example' },
      { name: 'fr', storageType: 'cookie', domain: '.facebook.com' },
      { name: '__stripe_mid', storageType: 'cookie' },
      { name: 'm', storageType: 'cookie', domain: 'm.stripe.com' },
      { name: 'mystery', storageType: 'cookie', domain: '.shop.example' },
    ]);
    expect(answer.status, answer.text).toBe(201);
    const assets = Object.fromEntries(answer.body.map((e: { name: string; assets: { name: string }[] }) => [e.name, e.assets.map((a) => a.name)]));
    expect(assets).toEqual({ [META_PIXEL.name]: ['_fbp', 'fr'], [STRIPE.name]: ['__stripe_mid', 'm'], 'Unrecognised cookies': ['mystery'] });
    const fr = answer.body.find((e: { name: string }) => e.name === META_PIXEL.name).assets[1];
    expect(fr).toMatchObject({ name: 'fr', description: META_PIXEL.cookies.find((c) => c.name === 'fr')!.description.en_US });
  });

  it('keeps matching on names alone for a client that sends no domains (CCM19): `fr` then goes to "Unrecognised cookies"', async () => {
    const answer = await service.rest('POST', `${domain.base}/onboarding/embeddingsFromCookies`, [
      { name: '_fbp', storageType: 'cookie' },
      { name: 'fr', storageType: 'cookie' },
    ]);
    expect(answer.status, answer.text).toBe(201);
    const assets = Object.fromEntries(answer.body.map((e: { name: string; assets: { name: string }[] }) => [e.name, e.assets.map((a) => a.name)]));
    expect(assets).toEqual({ [preset('Meta Pixel').name]: ['_fbp'], 'Unrecognised cookies': ['fr'] });
  });

  it.each([
    ['_ga and _ga_<id> (GA4): one GA4 embedding with both, no Universal Analytics', ['_ga', '_ga_ABC123'], { [GA4.name]: ['_ga', '_ga_*'] }],
    [
      '_ga, _ga_<id> and _gid (GA4, whose gtag.js sets _gid too): one GA4 embedding with all three',
      ['_ga', '_ga_ABC123', '_gid'],
      { [GA4.name]: ['_ga', '_ga_*', '_gid'] },
    ],
    ['_ga, _gid and _gat (classic Universal Analytics): one UA embedding with all three', ['_ga', '_gid', '_gat'], { [UA.name]: ['_ga', '_gid', '_gat'] }],
    ['_ga and _gid (no GA4 evidence): one UA embedding', ['_ga', '_gid'], { [UA.name]: ['_ga', '_gid'] }],
  ])('makes for %s', async (_, names, expected) => {
    const answer = await service.rest(
      'POST',
      `${domain.base}/onboarding/embeddingsFromCookies`,
      names.map((name) => ({ name, storageType: 'cookie' })),
    );
    expect(answer.status, answer.text).toBe(201);
    expect(Object.fromEntries(answer.body.map((e: { name: string; assets: { name: string }[] }) => [e.name, e.assets.map((a) => a.name)]))).toEqual(expected);
  });

  it('recognises no service by a name many sites give their own cookies', async () => {
    const answer = await service.rest('POST', `${domain.base}/onboarding/embeddingsFromCookies`, [
      { name: 'cart', storageType: 'cookie' },
      { name: 'csrftoken', storageType: 'cookie' },
      { name: 'uid', storageType: 'cookie' },
      { name: 'MR', storageType: 'cookie' },
    ]);
    expect(answer.status).toBe(201);
    expect(answer.body.map((e: { name: string }) => e.name)).toEqual(['Unrecognised cookies']);
    expect(answer.body[0].assets.map((a: { name: string }) => a.name)).toEqual(['cart', 'csrftoken', 'uid', 'MR']);
  });

  it.each([
    ['an empty name', [{ name: '', storageType: 'cookie' }], '/0/name'],
    ['an unknown storage type', [{ name: 'x', storageType: 'indexedDb' }], '/0/storageType'],
    ['a missing storage type', [{ name: 'x' }], '/0/storageType'],
    ['a domain that is no host name', [{ name: 'x', storageType: 'cookie', domain: 'not a domain' }], '/0/domain'],
  ])('answers 400 for %s and creates nothing', async (_, bad, pointer) => {
    const before = await domainState(service, domain);
    const answer = await service.rest('POST', `${domain.base}/onboarding/embeddingsFromCookies`, [{ name: '_ga', storageType: 'cookie' }, ...bad]);
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { path: string }) => e.path)).toEqual([pointer.replace('/0/', '/1/')]);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers 404 for an unknown domain', async () => {
    const answer = await service.rest('POST', `${API}/${domain.clientId}/domain/${unknownId()}/onboarding/embeddingsFromCookies`, found);
    expect(answer.status).toBe(404);
  });

  it('offers a dry run in GraphQL: the plan, cookie by cookie and embedding by embedding, with nothing written', async () => {
    await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: YOUTUBE.id }]);
    const before = await domainState(service, domain);
    const answer = await service.graphql(
      `query($clientId: ID!, $id: ID!, $cookies: [OnboardingCookieInput!]!) { domain(clientId: $clientId, id: $id) {
         embeddingsFromCookiesPlan(cookies: $cookies) {
           cookies { name storageType rule presetId presetName pattern }
           embeddings { action presetId name embeddingId assets }
         } } }`,
      { clientId: domain.clientId, id: domain.domainId, cookies: found },
    );
    expect(answer.errors).toBeUndefined();
    const plan = answer.data.domain.embeddingsFromCookiesPlan;
    expect(plan.cookies).toEqual([
      { name: '_ga', storageType: 'cookie', rule: 'exact', presetId: GA4.id, presetName: GA4.name, pattern: '_ga' },
      { name: '_ga_ABC123', storageType: 'cookie', rule: 'wildcard', presetId: GA4.id, presetName: GA4.name, pattern: '_ga_*' },
      { name: '_ga_XYZ789', storageType: 'cookie', rule: 'wildcard', presetId: GA4.id, presetName: GA4.name, pattern: '_ga_*' },
      { name: 'VISITOR_INFO1_LIVE', storageType: 'cookie', rule: 'exact', presetId: YOUTUBE.id, presetName: 'YouTube', pattern: 'VISITOR_INFO1_LIVE' },
      { name: 'mystery', storageType: 'cookie', rule: null, presetId: null, presetName: null, pattern: null },
      { name: 'my-app-state', storageType: 'localStorage', rule: null, presetId: null, presetName: null, pattern: null },
    ]);
    expect(plan.embeddings).toEqual([
      { action: 'create', presetId: GA4.id, name: GA4.name, embeddingId: null, assets: ['_ga', '_ga_*'] },
      { action: 'create', presetId: null, name: 'Unrecognised cookies', embeddingId: null, assets: ['mystery', 'my-app-state'] },
    ]);
    expect(await domainState(service, domain)).toEqual(before);

    const applied = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!, $cookies: [OnboardingCookieInput!]!) {
         createEmbeddingsFromCookies(clientId: $clientId, domainId: $domainId, cookies: $cookies) { name assets { name } } }`,
      { ...gqlScope(domain), cookies: found },
    );
    expect(applied.errors).toBeUndefined();
    expect(applied.data.createEmbeddingsFromCookies.map((e: { name: string }) => e.name)).toEqual([GA4.name, 'Unrecognised cookies']);
  });

  it('recognises cookies from an imported Open Cookie Database file ("imported" rule)', async () => {
    // A small file in that format, of the project's making (test/fixtures/open-cookie-database.csv).
    const csv = await readFile(new URL('../../fixtures/open-cookie-database.csv', import.meta.url), 'utf8');
    await importOpenCookieDatabase(service.database.orm.em.fork(), csv);
    // A cookie the built-in catalog does not know, but the Open Cookie Database does.
    const answer = await service.graphql(
      `query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) {
         embeddingsFromCookiesPlan(cookies: [{ name: "CookieConsentBulkTicket", storageType: "cookie" }]) {
           cookies { rule presetId presetName } } } }`,
      { clientId: domain.clientId, id: domain.domainId },
    );
    expect(answer.errors).toBeUndefined();
    const [cookie] = answer.data.domain.embeddingsFromCookiesPlan.cookies;
    expect(cookie.rule).toBe('imported');
    expect(cookie.presetName).toBe('Cookiebot');
    expect(cookie.presetId).toBeGreaterThanOrEqual(100_000);
    const created = await service.rest('POST', `${domain.base}/onboarding/embeddingsFromCookies`, [
      { name: 'CookieConsentBulkTicket', storageType: 'cookie' },
    ]);
    expect(created.status).toBe(201);
    expect(created.body[0]).toMatchObject({ name: 'Cookiebot', assets: [{ name: 'CookieConsentBulkTicket', storageType: 'cookie' }] });
    // An imported file says nothing about Google Consent Mode.
    expect(created.body[0].googleConsentMode).toEqual([]);
  });

  it('prefers the built-in presets to imported rows, by exact name and by pattern', async () => {
    const csv = await readFile(new URL('../../fixtures/open-cookie-database.csv', import.meta.url), 'utf8');
    await importOpenCookieDatabase(service.database.orm.em.fork(), csv);
    // _hjid and the pattern _hjSession_ are rows of the file too, under the built-in preset's own name.
    const answer = await service.graphql(
      `query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) {
         embeddingsFromCookiesPlan(cookies: [
           { name: "_hjid", storageType: "cookie" },
           { name: "_hjSession_1234", storageType: "cookie" },
           { name: "_exa_ses_42", storageType: "cookie" }
         ]) { cookies { name rule presetId presetName pattern } } } }`,
      { clientId: domain.clientId, id: domain.domainId },
    );
    expect(answer.errors).toBeUndefined();
    const [id, session, imported] = answer.data.domain.embeddingsFromCookiesPlan.cookies;
    const HOTJAR = preset('Hotjar');
    expect(id).toEqual({ name: '_hjid', rule: 'exact', presetId: HOTJAR.id, presetName: 'Hotjar', pattern: '_hjid' });
    expect(session).toEqual({ name: '_hjSession_1234', rule: 'wildcard', presetId: HOTJAR.id, presetName: 'Hotjar', pattern: '_hjSession_*' });
    // A pattern row of the file, for a platform the built-in catalog does not have.
    expect(imported).toMatchObject({ name: '_exa_ses_42', rule: 'imported', presetName: 'Example Analytics', pattern: '_exa_ses_*' });
    expect(imported.presetId).toBeGreaterThanOrEqual(100_000);
  });
});

describe('what the banner cannot hold back', () => {
  const SITE = 'http://www.einbettung.test/';
  /**
   * test/fixtures/websites.ts: YouTube frames written with src on two pages, one with data-src and
   * one a script inserts; Google Fonts' stylesheet in the HTML, Adobe Fonts' inserted by the site's
   * own script; a widget's script of another site that inserts a Google Fonts stylesheet.
   */
  const advice = [
    {
      kind: 'iframe-src',
      host: 'www.youtube.com',
      presetId: YOUTUBE.id,
      pages: [SITE, `${SITE}videos`],
      sources: ['https://www.youtube.com/embed/im-html', 'https://www.youtube.com/embed/zweites-video'],
      fix: expect.stringMatching(new RegExp(`^Write these iframes with data-src instead of src: .*until the banner finds consent to YouTube \\(import preset ${YOUTUBE.id} `)),
    },
    {
      kind: 'third-party-stylesheet',
      host: 'fonts.googleapis.com',
      presetId: GOOGLE_FONTS.id,
      pages: [SITE],
      sources: ['https://fonts.googleapis.com/css2?family=Fixture+Sans&display=swap'],
      fix: expect.stringMatching(/^Serve these stylesheets from the site's own server instead of fonts\.googleapis\.com: .*point the <link> or @import at the copies/),
    },
    {
      kind: 'third-party-stylesheet',
      host: 'use.typekit.net',
      presetId: ADOBE_FONTS.id,
      pages: [SITE],
      sources: ['https://use.typekit.net/fix1abc.css'],
      fix: expect.stringMatching(/^Serve these stylesheets from the site's own server instead of use\.typekit\.net/),
    },
    {
      kind: 'third-party-font',
      host: 'fonts.gstatic.com',
      presetId: GOOGLE_FONTS.id,
      pages: [SITE],
      sources: ['https://fonts.gstatic.com/s/fixturesans/v1/fixture-sans.woff2'],
      fix: expect.stringMatching(/^Serve these font files from the site's own server instead of fonts\.gstatic\.com: .*@font-face/),
    },
    {
      kind: 'third-party-font',
      host: 'use.typekit.net',
      presetId: ADOBE_FONTS.id,
      pages: [SITE],
      sources: ['https://use.typekit.net/af/fixture/l?primer=7cdcb4&fvd=n4&v=3'],
      fix: expect.stringMatching(/^Serve these font files from the site's own server instead of use\.typekit\.net/),
    },
  ];

  it("advises on iframes written with src and on other sites' stylesheets and fonts, not on what a script put in", async () => {
    const domain = await createDomain(service, SITE);
    const answer = await service.rest('GET', `${domain.base}/onboarding/scan`);
    expect(answer.status, answer.text).toBe(200);
    // Not the frame written with data-src, nor the one a script inserted, nor the widget's Google Fonts stylesheet.
    expect(answer.body.advice).toEqual(advice);

    const found = Object.fromEntries(answer.body.availablePresets.map((p: { id: number }) => [p.id, p]));
    expect(Object.keys(found).map(Number).sort((a, b) => a - b)).toEqual([YOUTUBE.id, GOOGLE_FONTS.id, ADOBE_FONTS.id]);
    expect(found[YOUTUBE.id].blockable).toBe(true);
    expect(found[YOUTUBE.id]).not.toHaveProperty('note');
    // Google Fonts never can be held back; Adobe Fonts could by its script, but this site loads it as a stylesheet.
    expect(found[GOOGLE_FONTS.id]).toMatchObject({ blockable: false, note: expect.stringMatching(/^Google Fonts loads only as stylesheets and fonts, .*inactive embedding/) });
    expect(found[ADOBE_FONTS.id]).toMatchObject({
      blockable: false,
      note: expect.stringMatching(/^On this site Adobe Fonts showed itself only by stylesheets and fonts, .*import it with active: false/),
    });
  });

  it('gives the same advice through GraphQL', async () => {
    const domain = await createDomain(service, SITE);
    const answer = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!) { scanDomain(clientId: $clientId, domainId: $domainId) {
         advice { kind host presetId pages sources fix }
         availablePresets { id blockable note }
       } }`,
      gqlScope(domain),
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.scanDomain.advice).toEqual(advice);
    expect(answer.data.scanDomain.availablePresets).toEqual([
      { id: YOUTUBE.id, blockable: true, note: null },
      { id: GOOGLE_FONTS.id, blockable: false, note: expect.stringContaining('loads only as stylesheets and fonts') },
      { id: ADOBE_FONTS.id, blockable: false, note: expect.stringContaining('On this site Adobe Fonts') },
    ]);
  });

  it("advises on the shop's YouTube frame, written in its HTML, and on nothing of its scripts", async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    const answer = await service.rest('GET', `${domain.base}/onboarding/scan`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.advice).toEqual([
      expect.objectContaining({ kind: 'iframe-src', host: 'www.youtube.com', presetId: YOUTUBE.id, pages: ['http://www.shop.test/'] }),
    ]);
  });

  it('imports a preset the banner cannot hold back as an inactive embedding, with a note saying why, even when asked to activate it', async () => {
    const domain = await createDomain(service);
    const answer = await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: GOOGLE_FONTS.id, active: true }, { id: YOUTUBE.id }]);
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toEqual([
      {
        presetId: GOOGLE_FONTS.id,
        embeddingId: expect.any(String),
        active: false,
        note: expect.stringMatching(/^Google Fonts loads only as stylesheets and fonts, which the consent banner cannot hold back, so its embedding is inactive/),
      },
      { presetId: YOUTUBE.id, embeddingId: expect.any(String), active: true },
    ]);
    const fontsId = answer.body[0].embeddingId;
    const stored = (await service.rest('GET', `${domain.base}/embedding/${fontsId}`)).body;
    expect(stored).toMatchObject({ name: 'Google Fonts', active: false, purpose: GOOGLE_FONTS.purpose, scriptMarkers: [], iframeMarkers: [] });

    // Asked again to activate it: still not switched on.
    const again = await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: GOOGLE_FONTS.id, active: true }]);
    expect(again.body).toEqual([{ presetId: GOOGLE_FONTS.id, embeddingId: fontsId, active: false, note: answer.body[0].note }]);
    expect((await service.rest('GET', `${domain.base}/embedding/${fontsId}`)).body.active).toBe(false);

    // Switched on by hand, it stays as the operator left it, and the note says to switch it off.
    expect((await service.rest('PUT', `${domain.base}/embedding/${fontsId}`, { active: true })).status).toBe(200);
    const switchedOn = await service.rest('POST', `${domain.base}/onboarding/presets`, [{ id: GOOGLE_FONTS.id }]);
    expect(switchedOn.body).toEqual([
      { presetId: GOOGLE_FONTS.id, embeddingId: fontsId, active: true, note: expect.stringMatching(/switch the embedding off \(active: false\)/) },
    ]);
  });

  it('says so in GraphQL: Preset.blockable, and the note of importPresets and of the cookies plan', async () => {
    const blockable = await service.graphql(
      `query($a: Int!, $b: Int!, $c: Int!, $d: Int!) {
         a: preset(id: $a) { name blockable } b: preset(id: $b) { name blockable } c: preset(id: $c) { name blockable } d: preset(id: $d) { name blockable } }`,
      { a: GOOGLE_FONTS.id, b: preset('Bunny Fonts').id, c: ADOBE_FONTS.id, d: YOUTUBE.id },
    );
    expect(blockable.errors).toBeUndefined();
    expect(Object.values(blockable.data)).toEqual([
      { name: 'Google Fonts', blockable: false },
      { name: 'Bunny Fonts', blockable: false },
      { name: 'Adobe Fonts', blockable: true },
      { name: 'YouTube', blockable: true },
    ]);

    const domain = await createDomain(service);
    const imported = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!, $presets: [OnboardingPresetInput!]!) {
         importPresets(clientId: $clientId, domainId: $domainId, presets: $presets) { presetId embeddingId active note } }`,
      { ...gqlScope(domain), presets: [{ id: GOOGLE_FONTS.id }, { id: YOUTUBE.id }] },
    );
    expect(imported.errors).toBeUndefined();
    expect(imported.data.importPresets).toEqual([
      { presetId: GOOGLE_FONTS.id, embeddingId: expect.any(String), active: false, note: expect.stringContaining('its embedding is inactive') },
      { presetId: YOUTUBE.id, embeddingId: expect.any(String), active: true, note: null },
    ]);

    // A cookie on Google Fonts' domain goes to its embedding, which stays inactive; the plan says why.
    const cookies = [{ name: 'fixture_font_choice', storageType: 'cookie', domain: '.gstatic.com' }];
    const plan = await service.graphql(
      `query($clientId: ID!, $id: ID!, $cookies: [OnboardingCookieInput!]!) { domain(clientId: $clientId, id: $id) {
         embeddingsFromCookiesPlan(cookies: $cookies) { embeddings { action presetId embeddingId assets note } } } }`,
      { clientId: domain.clientId, id: domain.domainId, cookies },
    );
    expect(plan.errors).toBeUndefined();
    expect(plan.data.domain.embeddingsFromCookiesPlan.embeddings).toEqual([
      {
        action: 'extend',
        presetId: GOOGLE_FONTS.id,
        embeddingId: imported.data.importPresets[0].embeddingId,
        assets: ['fixture_font_choice'],
        note: expect.stringContaining('its embedding is inactive'),
      },
    ]);
    const created = await service.rest('POST', `${domain.base}/onboarding/embeddingsFromCookies`, cookies);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual([expect.objectContaining({ name: 'Google Fonts', active: false })]);
  });
});

describe('code snippets', () => {
  it('gives a default snippet and one per active locale: an inline script that loads app.js from the public base URL', async () => {
    const domain = await createDomain(service);
    const answer = await service.rest('GET', `${domain.base}/onboarding/embed`);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['de_DE', 'default', 'en_US']);
    const src = (lang?: string) => `${PUBLIC_BASE_URL}/app.js?domain=${domain.domainId}${lang ? `&lang=${lang}` : ''}`;
    for (const [key, lang] of [['default', undefined], ['de_DE', 'de_DE'], ['en_US', 'en_US']] as const) {
      const snippet: string = answer.body[key];
      // One inline element, closed once at its end: it can stand first in any <head>.
      expect(snippet).toMatch(/^<script data-ccm-snippet>[\s\S]*<\/script>$/);
      expect(snippet.match(/<\/script/gi)).toHaveLength(1);
      expect(snippet).toContain(`.guard(${JSON.stringify(src(lang))})`);
    }

    await service.rest('PUT', domain.base, { locales: ['fr_FR', 'zh'] });
    const changed = (await service.rest('GET', `${domain.base}/onboarding/embed`)).body;
    expect(Object.keys(changed).sort()).toEqual(['default', 'fr_FR', 'zh']);

    const viaGraphql = await service.graphql(
      'query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) { embedCodeSnippets { default locales { locale snippet } } } }',
      { clientId: domain.clientId, id: domain.domainId },
    );
    expect(viaGraphql.data.domain.embedCodeSnippets).toEqual({
      default: changed.default,
      locales: [
        { locale: 'fr_FR', snippet: changed.fr_FR },
        { locale: 'zh', snippet: changed.zh },
      ],
    });
  });

  it('answers 404 for an unknown domain', async () => {
    const client = await createClient(service);
    expect((await service.rest('GET', `${API}/${client.id}/domain/${unknownId()}/onboarding/embed`)).status).toBe(404);
  });
});

describe('the preset catalog in GraphQL', () => {
  it('finds services by name, vendor or cookie name', async () => {
    const query = 'query($search: String, $first: Int) { presets(search: $search, first: $first) { id name source cookies { name wildcard } } }';
    const byCookie = (await service.graphql(query, { search: 'VISITOR_INFO1' })).data.presets;
    expect(byCookie.map((p: { name: string }) => p.name)).toContain('YouTube');
    const byName = (await service.graphql(query, { search: 'analytics 4' })).data.presets;
    expect(byName[0]).toMatchObject({ id: GA4.id, source: 'builtin', cookies: [{ name: '_ga', wildcard: false }, { name: '_ga_*', wildcard: true }] });
    expect((await service.graphql(query, { first: 5 })).data.presets).toHaveLength(5);
  });

  it('lists the whole catalog a page at a time, and finds one service by id', async () => {
    const page = 'query($offset: Int) { presets(first: 40, offset: $offset) { id } }';
    const ids: number[] = [];
    for (let offset = 0; ; offset += 40) {
      const batch = (await service.graphql(page, { offset })).data.presets as { id: number }[];
      ids.push(...batch.map((preset) => preset.id));
      if (batch.length < 40) break;
    }
    // Every built-in service (and what an earlier test imported), each once, by id.
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    expect(ids).toEqual(expect.arrayContaining(builtinPresets.map((preset) => preset.id)));
    const one = await service.graphql('query($id: Int!) { preset(id: $id) { name vendor } }', { id: YOUTUBE.id });
    expect(one.data.preset).toEqual({ name: 'YouTube', vendor: YOUTUBE.vendor });
    expect((await service.graphql('{ preset(id: 999999) { name } }')).data.preset).toBeNull();
  });
});

describe('fixture sites', () => {
  it('were really visited over the egress guard', () => {
    expect(sites.hits.get('www.shop.test /impressum')).toBeGreaterThan(0);
    expect(sites.hits.get('www.youtube.com /embed/fixture-video')).toBeGreaterThan(0);
  });
});
