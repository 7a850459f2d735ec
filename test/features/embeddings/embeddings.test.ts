import { describe, expect, it } from 'vitest';
import {
  API,
  createApiKey,
  createDomain,
  type DomainPath,
  domainState,
  embeddingPayload,
  unknownId,
} from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

const { service, domain } = useServiceWithDomain();

type Json = Record<string, any>;

const embeddings = (path: DomainPath = domain) => `${path.base}/embedding`;

/** POST an embedding (the fixture's YouTube one, with overrides) and insist on 201. */
async function createEmbedding(overrides: Json = {}, path: DomainPath = domain): Promise<Json> {
  const answer = await service.rest('POST', embeddings(path), embeddingPayload(overrides));
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const expectValidationProblem = (answer: { status: number; headers: Headers; body: any }) => {
  expect(answer.status).toBe(400);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ type: '/problems/validation', title: 'Bad Request', status: 400, detail: expect.any(String) });
  expect(answer.body.errors.length).toBeGreaterThan(0);
  for (const error of answer.body.errors) expect(error).toEqual({ path: expect.any(String), message: expect.any(String) });
};

/** Every field of SERVICE.md §2 "Embedding", with values other than the defaults. */
const fullEmbedding = () => ({
  name: 'Google Analytics',
  active: false,
  purpose: 'a717ff5',
  vendor: 'Google Ireland Limited',
  scriptHtmlCode: '<script async src="https://www.googletagmanager.com/gtag/js?id=G-XYZ"></script>',
  scriptLoaderGroup: 'analytics',
  scriptMarkers: ['gtag(', 'googletagmanager.com'],
  iframeMarkers: ['youtube.com/embed'],
  hideIframesUntilConsent: true,
  excludeUrlsMode: 'blacklist',
  excludeFromUrls: ['/checkout', '/admin/*'],
  description: 'Web analytics — ünïcödé ✓',
  privacyPolicyUrl: 'http://example.com/privacy?lang=en#top',
  whatDataIsCollected: 'IP address, device information',
  purposeOfDataCollection: 'Statistics',
  legalBasis: 'Art. 6 (1) a GDPR',
  placeOfProcessing: 'Ireland',
  translations: {
    de_DE: {
      name: 'Google Analytics (DE)',
      description: 'Webanalyse',
      privacyPolicyUrl: 'https://policies.google.com/privacy?hl=de',
      whatDataIsCollected: 'IP-Adresse',
      purposeOfDataCollection: 'Statistik',
      legalBasis: 'Art. 6 Abs. 1 lit. a DSGVO',
      placeOfProcessing: 'Irland',
      blockedContentTitle: 'Inhalt blockiert',
      blockedContentText: 'Bitte zustimmen',
      blockedContentButtonText: 'Zustimmen',
    },
    zh: { name: '谷歌分析' },
  },
  tcfVendor: 755,
  tcfPurposes: [1, 7, 11],
  tcfSpecialFeatures: [2, 1],
  googleConsentMode: ['analytics_storage', 'ad_storage'],
  assets: [
    {
      name: '_ga',
      dynamic: false,
      storageType: 'cookie',
      lifetime: '2 years',
      description: 'Distinguishes users',
      translations: { de_DE: { lifetime: '2 Jahre', description: 'Unterscheidet Nutzer' } },
    },
    { name: '_ga_*', dynamic: true, storageType: 'cookie', lifetime: '2 years', description: '', translations: {} },
    { name: 'ga-disable', dynamic: false, storageType: 'localStorage', lifetime: '', description: 'Opt-out', translations: { en_US: {} } },
  ],
});

const EMBEDDING_DEFAULTS = {
  active: true,
  vendor: '',
  scriptHtmlCode: '',
  scriptLoaderGroup: '',
  scriptMarkers: [],
  iframeMarkers: [],
  hideIframesUntilConsent: false,
  excludeUrlsMode: '',
  excludeFromUrls: [],
  description: '',
  privacyPolicyUrl: '',
  whatDataIsCollected: '',
  purposeOfDataCollection: '',
  legalBasis: '',
  placeOfProcessing: '',
  translations: {},
  tcfVendor: null,
  tcfPurposes: [],
  tcfSpecialFeatures: [],
  googleConsentMode: [],
  assets: [],
};
const ASSET_DEFAULTS = { dynamic: false, storageType: 'cookie', lifetime: '', description: '', translations: {} };

/** What a create answers for a payload: the defaults, what was sent, and new ids. */
const withIds = (payload: Json) => ({
  ...EMBEDDING_DEFAULTS,
  ...payload,
  id: expect.any(String),
  assets: (payload.assets ?? []).map((asset: Json) => ({ ...ASSET_DEFAULTS, ...asset, id: expect.any(String) })),
});

describe('embeddings over REST', () => {
  it('creates with every field (201) and answers the full payload with ids', async () => {
    const payload = fullEmbedding();
    const created = await service.rest('POST', embeddings(), payload);
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    expect(created.body).toEqual(withIds(payload));
    const assetIds = created.body.assets.map((asset: Json) => asset.id);
    expect(new Set(assetIds).size).toBe(3);
    expect(assetIds).not.toContain(created.body.id);

    const read = await service.rest('GET', `${embeddings()}/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('fills in the defaults of every optional field', async () => {
    const created = await service.rest('POST', embeddings(), { name: 'Minimal', purpose: '41ba25c' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'Minimal', purpose: '41ba25c', ...EMBEDDING_DEFAULTS });
    expect(Object.keys(created.body).sort()).toEqual(['id', 'name', 'purpose', ...Object.keys(EMBEDDING_DEFAULTS)].sort());
    expect((await service.rest('GET', `${embeddings()}/${created.body.id}`)).body).toEqual(created.body);
  });

  it('fills in the defaults of the assets it creates', async () => {
    const created = await createEmbedding({ assets: [{ name: '_gid' }] });
    expect(created.assets).toEqual([
      { id: expect.any(String), name: '_gid', dynamic: false, storageType: 'cookie', lifetime: '', description: '', translations: {} },
    ]);
  });

  it('accepts each of the six purposes', async () => {
    for (const purpose of ['41ba25c', 'cdcbd7c', 'a717ff5', '7c19e32', '6cd2721', '15c61c3']) {
      const answer = await service.rest('POST', embeddings(), { name: `for ${purpose}`, purpose });
      expect(answer.status, purpose).toBe(201);
      expect(answer.body.purpose).toBe(purpose);
    }
  });

  it('reads all embeddings (200) in creation order, with their assets', async () => {
    expect((await service.rest('GET', embeddings())).body).toEqual([]);
    const first = await createEmbedding({ name: 'first' });
    const second = await createEmbedding({ name: 'second', assets: [] });
    const third = await createEmbedding({ name: 'third', purpose: '41ba25c' });
    const all = await service.rest('GET', embeddings());
    expect(all.status).toBe(200);
    expect(all.body).toEqual([first, second, third]);
    expect(all.body.map((e: Json) => e.name)).toEqual(['first', 'second', 'third']);
  });

  it('ignores a read-only id sent on create', async () => {
    const existing = await createEmbedding({ name: 'existing' });
    const answer = await service.rest('POST', embeddings(), embeddingPayload({
      id: existing.id,
      name: 'copy',
      assets: existing.assets,
    }));
    expect(answer.status).toBe(201);
    expect(answer.body.id).not.toBe(existing.id);
    const oldAssetIds = existing.assets.map((asset: Json) => asset.id);
    for (const asset of answer.body.assets) expect(oldAssetIds).not.toContain(asset.id);
    expect(answer.body.assets.map(({ id: _, ...rest }: Json) => rest)).toEqual(existing.assets.map(({ id: _, ...rest }: Json) => rest));
    // The original keeps its assets.
    expect((await service.rest('GET', `${embeddings()}/${existing.id}`)).body).toEqual(existing);
  });

  it('updates (200) only the fields a PUT carries', async () => {
    const created = (await service.rest('POST', embeddings(), fullEmbedding())).body;
    let expected: Json = created;
    const changes: Json[] = [
      { name: 'GA4' },
      { active: true },
      { purpose: '15c61c3' },
      { vendor: '' },
      { scriptHtmlCode: '<script>window.x = 1</script>', scriptLoaderGroup: '' },
      { scriptMarkers: [], iframeMarkers: ['vimeo.com'], excludeFromUrls: [] },
      { hideIframesUntilConsent: false, excludeUrlsMode: 'whitelist' },
      { description: 'changed', privacyPolicyUrl: '', whatDataIsCollected: 'nothing' },
      { purposeOfDataCollection: 'p', legalBasis: 'l', placeOfProcessing: 'EU' },
      { translations: { en_US: { name: 'Analytics' } } },
      { tcfVendor: null },
      { tcfVendor: 1 },
      { tcfPurposes: [11], tcfSpecialFeatures: [] },
      { googleConsentMode: ['functionality_storage', 'personalization_storage', 'security_storage'] },
      {},
    ];
    for (const change of changes) {
      const answer = await service.rest('PUT', `${embeddings()}/${created.id}`, change);
      expect(answer.status, JSON.stringify(change)).toBe(200);
      expected = { ...expected, ...change };
      expect(answer.body, JSON.stringify(change)).toEqual(expected);
    }
    // The assets were never sent, so they are untouched, ids included.
    expect(expected.assets).toEqual(created.assets);
    expect((await service.rest('GET', `${embeddings()}/${created.id}`)).body).toEqual(expected);
  });

  it('replaces the translations map as a whole when a PUT carries it', async () => {
    const created = (await service.rest('POST', embeddings(), fullEmbedding())).body;
    const answer = await service.rest('PUT', `${embeddings()}/${created.id}`, { translations: { fr_FR: { name: 'Analyse' } } });
    expect(answer.status).toBe(200);
    expect(answer.body.translations).toEqual({ fr_FR: { name: 'Analyse' } });
    const emptied = await service.rest('PUT', `${embeddings()}/${created.id}`, { translations: {} });
    expect(emptied.body.translations).toEqual({});
    expect((await service.rest('GET', `${embeddings()}/${created.id}`)).body.translations).toEqual({});
  });

  it('takes back what it sent: read, change a field, PUT the whole object back', async () => {
    const created = (await service.rest('POST', embeddings(), fullEmbedding())).body;
    const read = (await service.rest('GET', `${embeddings()}/${created.id}`)).body;
    const answer = await service.rest('PUT', `${embeddings()}/${created.id}`, { ...read, description: 'round trip' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...read, description: 'round trip' });
    expect((await service.rest('GET', `${embeddings()}/${created.id}`)).body).toEqual({ ...read, description: 'round trip' });
    // Unchanged, it comes back the same again.
    const again = await service.rest('PUT', `${embeddings()}/${created.id}`, answer.body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(answer.body);
  });

  it('ignores a different read-only id in a PUT body', async () => {
    const created = await createEmbedding();
    const other = await createEmbedding({ name: 'other' });
    const answer = await service.rest('PUT', `${embeddings()}/${created.id}`, { id: other.id, name: 'renamed' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...created, name: 'renamed' });
    expect((await service.rest('GET', `${embeddings()}/${other.id}`)).body).toEqual(other);
  });

  it('makes the assets exactly those of a write, in the order sent', async () => {
    const created = await createEmbedding();
    const [a, b] = created.assets as Json[];
    const answer = await service.rest('PUT', `${embeddings()}/${created.id}`, {
      assets: [
        { name: 'brand-new', storageType: 'sessionStorage' },
        { ...b, lifetime: 'session' },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.assets).toEqual([
      { id: expect.any(String), name: 'brand-new', dynamic: false, storageType: 'sessionStorage', lifetime: '', description: '', translations: {} },
      { ...b, lifetime: 'session' },
    ]);
    const newId = answer.body.assets[0].id;
    expect([a!.id, b!.id]).not.toContain(newId);
    // Every other field stayed as it was.
    expect({ ...answer.body, assets: created.assets }).toEqual(created);

    const assetsUrl = `${embeddings()}/${created.id}/asset`;
    expect((await service.rest('GET', `${assetsUrl}/${a!.id}`)).status).toBe(404);
    expect((await service.rest('GET', `${assetsUrl}/${b!.id}`)).body).toEqual({ ...b, lifetime: 'session' });
    expect((await service.rest('GET', assetsUrl)).body).toEqual(answer.body.assets);
    expect((await service.rest('GET', `${embeddings()}/${created.id}`)).body).toEqual(answer.body);

    const emptied = await service.rest('PUT', `${embeddings()}/${created.id}`, { assets: [] });
    expect(emptied.status).toBe(200);
    expect(emptied.body.assets).toEqual([]);
    expect((await service.rest('GET', assetsUrl)).body).toEqual([]);
    expect((await service.rest('GET', `${assetsUrl}/${b!.id}`)).status).toBe(404);
  });

  it('replaces a kept asset as a whole: fields it does not carry fall back to their defaults', async () => {
    const created = await createEmbedding();
    const [a] = created.assets as Json[];
    expect(a!.lifetime).not.toBe('');
    const answer = await service.rest('PUT', `${embeddings()}/${created.id}`, { assets: [{ id: a!.id, name: a!.name }] });
    expect(answer.status).toBe(200);
    expect(answer.body.assets).toEqual([{ id: a!.id, name: a!.name, dynamic: false, storageType: 'cookie', lifetime: '', description: '', translations: {} }]);
    expect((await service.rest('GET', `${embeddings()}/${created.id}/asset/${a!.id}`)).body).toEqual(answer.body.assets[0]);
  });

  it('keeps the order of the assets sent, also when existing ones are reordered', async () => {
    const created = await createEmbedding({ assets: [{ name: 'one' }, { name: 'two' }, { name: 'three' }] });
    const [one, two, three] = created.assets as Json[];
    const answer = await service.rest('PUT', `${embeddings()}/${created.id}`, { assets: [three, one, { name: 'four' }, two] });
    expect(answer.status).toBe(200);
    expect(answer.body.assets.map((asset: Json) => asset.name)).toEqual(['three', 'one', 'four', 'two']);
    expect(answer.body.assets.map((asset: Json) => asset.id)).toEqual([three!.id, one!.id, expect.any(String), two!.id]);
    expect((await service.rest('GET', `${embeddings()}/${created.id}/asset`)).body).toEqual(answer.body.assets);
  });

  it('does not take over an asset of another embedding whose id is sent along', async () => {
    const owner = await createEmbedding({ name: 'owner' });
    const taker = await createEmbedding({ name: 'taker', assets: [] });
    const foreign = owner.assets[0];
    const answer = await service.rest('PUT', `${embeddings()}/${taker.id}`, { assets: [foreign, { id: 'not-an-id', name: 'x' }] });
    expect(answer.status).toBe(200);
    expect(answer.body.assets).toEqual([
      { ...foreign, id: expect.any(String) },
      { id: expect.any(String), name: 'x', dynamic: false, storageType: 'cookie', lifetime: '', description: '', translations: {} },
    ]);
    expect(answer.body.assets[0].id).not.toBe(foreign.id);
    expect(answer.body.assets[1].id).not.toBe('not-an-id');
    expect((await service.rest('GET', `${embeddings()}/${owner.id}`)).body).toEqual(owner);
  });

  it('gives a new id to the second of two assets sent with the same id', async () => {
    const created = await createEmbedding();
    const kept = created.assets[0];
    const answer = await service.rest('PUT', `${embeddings()}/${created.id}`, {
      assets: [{ ...kept, name: 'twin-1' }, { ...kept, name: 'twin-2' }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.assets.map((asset: Json) => asset.name)).toEqual(['twin-1', 'twin-2']);
    expect(answer.body.assets[0].id).toBe(kept.id);
    expect(answer.body.assets[1].id).not.toBe(kept.id);
  });

  it('deletes (204, empty body) and its assets go with it', async () => {
    const doomed = await createEmbedding({ name: 'doomed' });
    const survivor = await createEmbedding({ name: 'survivor' });
    const deleted = await service.rest('DELETE', `${embeddings()}/${doomed.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');

    expect((await service.rest('GET', `${embeddings()}/${doomed.id}`)).status).toBe(404);
    expect((await service.rest('GET', `${embeddings()}/${doomed.id}/asset`)).status).toBe(404);
    for (const asset of doomed.assets) {
      expect((await service.rest('GET', `${embeddings()}/${doomed.id}/asset/${asset.id}`)).status).toBe(404);
    }
    expect((await service.rest('GET', embeddings())).body).toEqual([survivor]);
    expect((await service.rest('DELETE', `${embeddings()}/${doomed.id}`)).status).toBe(404);
  });

  it('accepts the edge values of the contract', async () => {
    const accepted: Json[] = [
      { privacyPolicyUrl: '' },
      { privacyPolicyUrl: 'https://example.org' },
      { privacyPolicyUrl: 'http://127.0.0.1:8080/privacy' },
      { translations: { de_DE: {}, en_US: { name: '' }, zh: { description: '中文' }, cs: { privacyPolicyUrl: '' }, fil: {} } },
      { tcfVendor: null },
      { tcfVendor: 1 },
      { tcfPurposes: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] },
      { tcfSpecialFeatures: [1, 2] },
      { googleConsentMode: ['ad_storage', 'analytics_storage', 'functionality_storage', 'personalization_storage', 'security_storage'] },
      { scriptMarkers: [''], vendor: '', description: '' },
      { assets: ['cookie', 'localStorage', 'sessionStorage', 'indexedDb', 'webSql', 'other'].map((storageType) => ({ name: storageType, storageType })) },
    ];
    for (const overrides of accepted) {
      const answer = await service.rest('POST', embeddings(), embeddingPayload(overrides));
      expect(answer.status, `${JSON.stringify(overrides)}: ${answer.text}`).toBe(201);
      expect(answer.body).toEqual(withIds(embeddingPayload(overrides)));
    }
  });

  it('keeps long script code, and refuses a body over 2 MiB with 413 storing nothing', async () => {
    const scriptHtmlCode = `<script>${'/* tag manager */ '.repeat(12_000)}</script>`;
    const long = await service.rest('POST', embeddings(), embeddingPayload({ scriptHtmlCode }));
    expect(long.status).toBe(201);
    expect((await service.rest('GET', `${embeddings()}/${long.body.id}`)).body.scriptHtmlCode).toBe(scriptHtmlCode);

    const before = await domainState(service, domain);
    const huge = await service.rest('POST', embeddings(), embeddingPayload({ scriptHtmlCode: 'x'.repeat(2 * 1024 * 1024 + 1) }));
    expect(huge.status).toBe(413);
    expect(huge.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const hugeUpdate = await service.rest('PUT', `${embeddings()}/${long.body.id}`, { scriptHtmlCode: 'x'.repeat(2 * 1024 * 1024 + 1) });
    expect(hugeUpdate.status).toBe(413);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('accepts exactly 1000 assets', async () => {
    const assets = Array.from({ length: 1000 }, (_, i) => ({ name: `c${i}` }));
    const answer = await service.rest('POST', embeddings(), embeddingPayload({ assets }));
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.assets).toHaveLength(1000);
    expect(answer.body.assets[999].name).toBe('c999');
  });

  it('takes translations for at most 1,000 locales, as GraphQL takes at most 1,000 entries', async () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const locales = [...letters].flatMap((a) => [...letters].flatMap((b) => [`${a}${b}`, `${a}${b}_DE`])).slice(0, 1001);
    const texts = (count: number, field = 'name') => Object.fromEntries(locales.slice(0, count).map((locale) => [locale, { [field]: locale }]));
    const before = await domainState(service, domain);
    const tooMany = await service.rest('POST', embeddings(), embeddingPayload({ translations: texts(1001) }));
    expect(tooMany.status, tooMany.text.slice(0, 300)).toBe(400);
    expect(tooMany.body.errors).toEqual([{ path: '/translations', message: 'must have at most 1000 locales' }]);
    const inAsset = await service.rest('POST', embeddings(), embeddingPayload({ assets: [{ name: 'a', translations: texts(1001, 'description') }] }));
    expect(inAsset.body.errors).toEqual([{ path: '/assets/0/translations', message: 'must have at most 1000 locales' }]);
    const viaGraphql = await service.graphql(
      'mutation($c: ID!, $d: ID!, $input: EmbeddingCreateInput!) { createEmbedding(clientId: $c, domainId: $d, input: $input) { id } }',
      { c: domain.clientId, d: domain.domainId, input: { name: 'x', purpose: '6cd2721', translations: locales.map((locale) => ({ locale, name: locale })) } },
    );
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await domainState(service, domain)).toEqual(before);
    const atTheLimit = await service.rest('POST', embeddings(), embeddingPayload({ translations: texts(1000) }));
    expect(atTheLimit.status, atTheLimit.text.slice(0, 300)).toBe(201);
    expect(Object.keys(atTheLimit.body.translations)).toHaveLength(1000);
  });

  const badAsset = { name: 'ok' };
  it.each([
    ['no name', { name: undefined }, '/name'],
    ['an empty name', { name: '' }, '/name'],
    ['a name that is not a string', { name: 42 }, '/name'],
    ['no purpose', { purpose: undefined }, '/purpose'],
    ['an unknown purpose', { purpose: 'abcdef0' }, '/purpose'],
    ['a purpose by its meaning', { purpose: 'analytics' }, '/purpose'],
    ['active as a string', { active: 'yes' }, '/active'],
    ['hideIframesUntilConsent as a number', { hideIframesUntilConsent: 1 }, '/hideIframesUntilConsent'],
    ['vendor as a number', { vendor: 7 }, '/vendor'],
    ['scriptMarkers as a string', { scriptMarkers: 'gtag(' }, '/scriptMarkers'],
    ['a non-string item in excludeFromUrls', { excludeFromUrls: ['/ok', 5] }, '/excludeFromUrls/1'],
    ['an ftp privacyPolicyUrl', { privacyPolicyUrl: 'ftp://x' }, '/privacyPolicyUrl'],
    ['a protocol-relative privacyPolicyUrl', { privacyPolicyUrl: '//elsewhere.example/privacy' }, '/privacyPolicyUrl'],
    ['a privacyPolicyUrl without scheme', { privacyPolicyUrl: 'www.example.org/privacy' }, '/privacyPolicyUrl'],
    ['a javascript: privacyPolicyUrl', { privacyPolicyUrl: 'javascript:alert(1)' }, '/privacyPolicyUrl'],
    ['translations keyed by a language name', { translations: { german: { name: 'x' } } }, '/translations/german'],
    ['translations keyed by a BCP 47 tag', { translations: { 'de-DE': { name: 'x' } } }, '/translations/de-DE'],
    ['translations as a list', { translations: [{ name: 'x' }] }, '/translations'],
    ['an unknown property in a translation', { translations: { de_DE: { title: 'x' } } }, '/translations/de_DE/title'],
    ['a non-string text in a translation', { translations: { de_DE: { name: 1 } } }, '/translations/de_DE/name'],
    ['a bad privacyPolicyUrl in a translation', { translations: { de_DE: { privacyPolicyUrl: 'ftp://x' } } }, '/translations/de_DE/privacyPolicyUrl'],
    ['tcfVendor 0', { tcfVendor: 0 }, '/tcfVendor'],
    ['tcfVendor 1.5', { tcfVendor: 1.5 }, '/tcfVendor'],
    ['tcfVendor as a string', { tcfVendor: '755' }, '/tcfVendor'],
    ['tcfVendor beyond a 32-bit integer', { tcfVendor: 3_000_000_000 }, '/tcfVendor'],
    ['tcfPurposes with 0', { tcfPurposes: [0] }, '/tcfPurposes/0'],
    ['tcfPurposes with 12', { tcfPurposes: [1, 12] }, '/tcfPurposes/1'],
    ['tcfPurposes with a repeated value', { tcfPurposes: [3, 3] }, '/tcfPurposes'],
    ['tcfPurposes with a fraction', { tcfPurposes: [2.5] }, '/tcfPurposes/0'],
    ['tcfSpecialFeatures with 3', { tcfSpecialFeatures: [3] }, '/tcfSpecialFeatures/0'],
    ['tcfSpecialFeatures with 0', { tcfSpecialFeatures: [1, 0] }, '/tcfSpecialFeatures/1'],
    ['tcfSpecialFeatures with a repeated value', { tcfSpecialFeatures: [1, 1] }, '/tcfSpecialFeatures'],
    ['an unknown googleConsentMode', { googleConsentMode: ['ad_storage', 'ad_user_data'] }, '/googleConsentMode/1'],
    ['a repeated googleConsentMode', { googleConsentMode: ['ad_storage', 'ad_storage'] }, '/googleConsentMode'],
    ['googleConsentMode as a string', { googleConsentMode: 'ad_storage' }, '/googleConsentMode'],
    ['an unknown property', { colour: 'red' }, '/colour'],
    ['assets as an object', { assets: { name: 'x' } }, '/assets'],
    ['an asset with an unknown storageType', { assets: [{ name: 'x', storageType: 'cookies' }] }, '/assets/0/storageType'],
    ['an asset with an empty name', { assets: [{ name: '' }] }, '/assets/0/name'],
    ['an asset without a name', { assets: [{ lifetime: '1 day' }] }, '/assets/0/name'],
    ['an asset with dynamic as a string', { assets: [{ name: 'x', dynamic: 'true' }] }, '/assets/0/dynamic'],
    ['an asset with an unknown property', { assets: [{ name: 'x', domain: '.example.org' }] }, '/assets/0/domain'],
    ['an asset with a bad translation locale', { assets: [{ name: 'x', translations: { 'en-US': {} } }] }, '/assets/0/translations/en-US'],
    ['translations keyed by __proto__', { translations: JSON.parse('{"__proto__":{"name":"x"}}') }, '/translations/__proto__'],
    [
      'an asset with translations keyed by __proto__',
      { assets: [{ name: 'x', translations: JSON.parse('{"__proto__":{"lifetime":"1 day"}}') }] },
      '/assets/0/translations/__proto__',
    ],
    ['a bad second asset', { assets: [badAsset, { name: '' }, badAsset] }, '/assets/1/name'],
    ['1001 assets', { assets: Array.from({ length: 1001 }, (_, i) => ({ name: `c${i}` })) }, '/assets'],
    ['a NUL character', { description: 'a\u0000b' }, '/description'],
    ['a lone surrogate', { name: 'broken \ud800' }, '/name'],
  ])('answers 400 on create for %s, lists the field and stores nothing', async (_, overrides, pointer) => {
    await createEmbedding({ name: 'already there' });
    const before = await domainState(service, domain);
    const answer = await service.rest('POST', embeddings(), embeddingPayload(overrides));
    expectValidationProblem(answer);
    expect(answer.body.errors).toContainEqual({ path: pointer, message: expect.any(String) });
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('lists every problem of a payload, each at its own pointer', async () => {
    const answer = await service.rest('POST', embeddings(), {
      name: '',
      purpose: 'nope',
      tcfSpecialFeatures: [5],
      assets: [{ name: 'fine' }, { name: 'x', storageType: 'jar' }],
      extra: true,
    });
    expectValidationProblem(answer);
    expect(answer.body.errors.map((e: Json) => e.path).sort()).toEqual(
      ['/assets/1/storageType', '/extra', '/name', '/purpose', '/tcfSpecialFeatures/0'].sort(),
    );
    expect((await service.rest('GET', embeddings())).body).toEqual([]);
  });

  it.each([
    ['an empty name', { name: '' }, '/name'],
    ['a name of null', { name: null }, '/name'],
    ['an unknown purpose', { purpose: 'x' }, '/purpose'],
    ['active as a string', { active: 'no' }, '/active'],
    ['a protocol-relative privacyPolicyUrl', { privacyPolicyUrl: '//elsewhere.example/privacy' }, '/privacyPolicyUrl'],
    ['tcfVendor 0', { tcfVendor: 0 }, '/tcfVendor'],
    ['tcfVendor beyond a 32-bit integer', { tcfVendor: 2_147_483_648 }, '/tcfVendor'],
    ['a repeated tcfPurpose', { tcfPurposes: [1, 1] }, '/tcfPurposes'],
    ['a bad translation locale', { translations: { german: {} } }, '/translations/german'],
    ['an unknown property', { colour: 'red' }, '/colour'],
    ['a bad asset among good ones', { assets: [{ name: 'new' }, { name: 'x', storageType: 'flash' }] }, '/assets/1/storageType'],
    ['1001 assets', { assets: Array.from({ length: 1001 }, (_, i) => ({ name: `c${i}` })) }, '/assets'],
  ])('answers 400 on update for %s and changes nothing', async (_, change, pointer) => {
    const created = await createEmbedding();
    const before = await domainState(service, domain);
    const answer = await service.rest('PUT', `${embeddings()}/${created.id}`, { vendor: 'would change', ...change });
    expectValidationProblem(answer);
    expect(answer.body.errors).toContainEqual({ path: pointer, message: expect.any(String) });
    expect(await domainState(service, domain)).toEqual(before);
    expect((await service.rest('GET', `${embeddings()}/${created.id}`)).body).toEqual(created);
  });

  it('answers 400 for a body that is not JSON or not an object, and stores nothing', async () => {
    const created = await createEmbedding();
    const before = await domainState(service, domain);
    for (const [method, path] of [['POST', embeddings()], ['PUT', `${embeddings()}/${created.id}`]] as const) {
      const broken = await service.raw({ method, path, body: '{"name": "x", ', headers: { 'content-type': 'application/json' } });
      expectValidationProblem(broken);
      const list = await service.rest(method, path, [embeddingPayload()]);
      expectValidationProblem(list);
      const scalar = await service.rest(method, path, 'YouTube');
      expectValidationProblem(scalar);
    }
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers 404 for an unknown or malformed embedding id, also on its asset routes', async () => {
    const existing = await createEmbedding();
    const assetId = existing.assets[0].id;
    const before = await domainState(service, domain);
    for (const id of [unknownId(), 'abc', '12345']) {
      const url = `${embeddings()}/${id}`;
      const answers = [
        await service.rest('GET', url),
        await service.rest('PUT', url, { name: 'x' }),
        await service.rest('DELETE', url),
        await service.rest('GET', `${url}/asset`),
        await service.rest('POST', `${url}/asset`, { name: 'x' }),
        await service.rest('GET', `${url}/asset/${assetId}`),
        await service.rest('PUT', `${url}/asset/${assetId}`, { name: 'x' }),
        await service.rest('DELETE', `${url}/asset/${assetId}`),
      ];
      for (const answer of answers) {
        expect(answer.status, `${id}: ${answer.text}`).toBe(404);
        expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(answer.body).toMatchObject({ type: '/problems/not-found', title: 'Not Found', status: 404 });
      }
    }
    const problem = (await service.rest('GET', `${embeddings()}/${unknownId()}`)).body;
    expect(problem.detail).toContain('embedding');
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers 404 for an unknown domain or client, also when creating', async () => {
    const existing = await createEmbedding();
    const other = await createDomain(service, 'other.example');
    const noDomain = { ...domain, base: `${API}/${domain.clientId}/domain/${unknownId()}` };
    const noClient = { ...domain, base: `${API}/${unknownId()}/domain/${domain.domainId}` };
    const wrongClient = { ...domain, base: `${API}/${other.clientId}/domain/${domain.domainId}` };
    const garbage = { ...domain, base: `${API}/not-an-id/domain/also-not` };
    for (const path of [noDomain, noClient, wrongClient, garbage]) {
      expect((await service.rest('POST', embeddings(path), embeddingPayload())).status, path.base).toBe(404);
      expect((await service.rest('GET', embeddings(path))).status).toBe(404);
      expect((await service.rest('GET', `${embeddings(path)}/${existing.id}`)).status).toBe(404);
      expect((await service.rest('PUT', `${embeddings(path)}/${existing.id}`, { name: 'x' })).status).toBe(404);
      expect((await service.rest('DELETE', `${embeddings(path)}/${existing.id}`)).status).toBe(404);
    }
    const problem = (await service.rest('POST', embeddings(noDomain), embeddingPayload())).body;
    expect(problem).toMatchObject({ type: '/problems/not-found', status: 404, detail: expect.stringContaining('domain') });
    expect((await service.rest('GET', embeddings())).body).toEqual([existing]);
    expect((await service.rest('GET', embeddings(other))).body).toEqual([]);
  });

  it("never reaches another domain's embedding through this domain's path", async () => {
    const sibling = await createDomain(service, 'shop.example.org', { clientId: domain.clientId });
    for (const other of [sibling, await createDomain(service, 'foreign.example')]) {
      const theirs = await createEmbedding({ name: 'theirs' }, other);
      const url = `${embeddings()}/${theirs.id}`;
      const assetUrl = `${url}/asset/${theirs.assets[0].id}`;
      expect((await service.rest('GET', url)).status).toBe(404);
      expect((await service.rest('PUT', url, { name: 'hijacked', assets: [] })).status).toBe(404);
      expect((await service.rest('DELETE', url)).status).toBe(404);
      expect((await service.rest('GET', `${url}/asset`)).status).toBe(404);
      expect((await service.rest('POST', `${url}/asset`, { name: 'planted' })).status).toBe(404);
      expect((await service.rest('GET', assetUrl)).status).toBe(404);
      expect((await service.rest('PUT', assetUrl, { name: 'hijacked' })).status).toBe(404);
      expect((await service.rest('DELETE', assetUrl)).status).toBe(404);
      expect((await service.rest('GET', embeddings())).body).toEqual([]);
      expect((await service.rest('GET', `${embeddings(other)}/${theirs.id}`)).body).toEqual(theirs);
    }
  });

  it('answers 405 with Allow for a method a known embedding path does not take', async () => {
    const created = await createEmbedding();
    const onOne = await service.rest('PATCH', `${embeddings()}/${created.id}`, { name: 'x' });
    expect(onOne.status).toBe(405);
    expect(onOne.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PUT']);
    const onAll = await service.rest('DELETE', embeddings());
    expect(onAll.status).toBe(405);
    expect(onAll.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect((await service.rest('GET', embeddings())).body).toEqual([created]);
  });
});

// ── GraphQL ──────────────────────────────────────────────────────────────────

const GQL_SCOPE = 'clientId: $clientId, domainId: $domainId';
const GQL_VARS = '$clientId: ID!, $domainId: ID!';
const scope = () => ({ clientId: domain.clientId, domainId: domain.domainId });

const TRANSLATION_TEXTS = 'name description privacyPolicyUrl whatDataIsCollected purposeOfDataCollection legalBasis placeOfProcessing blockedContentTitle blockedContentText blockedContentButtonText';
const ASSET_FIELDS = 'id name dynamic storageType lifetime description translations { locale lifetime description }';
const EMBEDDING_FIELDS = `id name active purpose vendor scriptHtmlCode scriptLoaderGroup scriptMarkers iframeMarkers
  hideIframesUntilConsent excludeUrlsMode excludeFromUrls description privacyPolicyUrl whatDataIsCollected
  purposeOfDataCollection legalBasis placeOfProcessing translations { locale ${TRANSLATION_TEXTS} }
  tcfVendor tcfPurposes tcfSpecialFeatures googleConsentMode assets { ${ASSET_FIELDS} }`;

const CREATE = `mutation(${GQL_VARS}, $input: EmbeddingCreateInput!) { createEmbedding(${GQL_SCOPE}, input: $input) { ${EMBEDDING_FIELDS} } }`;
const UPDATE = `mutation(${GQL_VARS}, $embeddingId: ID!, $input: EmbeddingUpdateInput!) {
  updateEmbedding(${GQL_SCOPE}, embeddingId: $embeddingId, input: $input) { ${EMBEDDING_FIELDS} } }`;
const DELETE = `mutation(${GQL_VARS}, $embeddingId: ID!) { deleteEmbedding(${GQL_SCOPE}, embeddingId: $embeddingId) }`;
const LIST = `query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) { embeddings { ${EMBEDDING_FIELDS} } } }`;
const ONE = `query($clientId: ID!, $id: ID!, $embeddingId: ID!, $assetId: ID!) {
  domain(clientId: $clientId, id: $id) { embedding(id: $embeddingId) { ${EMBEDDING_FIELDS} asset(id: $assetId) { ${ASSET_FIELDS} } } } }`;

/** GraphQL's translation entries → the REST map (unset texts come back as null). */
const entriesToMap = (entries: Json[]) =>
  Object.fromEntries(
    entries.map(({ locale, ...texts }) => [locale, Object.fromEntries(Object.entries(texts).filter(([, v]) => v !== null))]),
  );
const fromGraphql = (embedding: Json): Json => ({
  ...embedding,
  translations: entriesToMap(embedding.translations),
  assets: embedding.assets.map((asset: Json) => ({ ...asset, translations: entriesToMap(asset.translations) })),
});
/** A REST payload → GraphQL input: translations as entries, no read-only ids. */
const mapToEntries = (map: Record<string, Json>) => Object.entries(map).map(([locale, texts]) => ({ locale, ...texts }));
const toGraphqlInput = ({ id: _id, translations, assets, ...rest }: Json): Json => ({
  ...rest,
  ...(translations === undefined ? {} : { translations: mapToEntries(translations) }),
  ...(assets === undefined
    ? {}
    : {
        assets: assets.map(({ id: _assetId, translations: t, ...asset }: Json) => ({
          ...asset,
          ...(t === undefined ? {} : { translations: mapToEntries(t) }),
        })),
      }),
});

describe('embeddings over GraphQL', () => {
  it('creates with every field; REST reads what GraphQL wrote', async () => {
    const payload = fullEmbedding();
    const created = await service.graphql(CREATE, { ...scope(), input: toGraphqlInput(payload) });
    expect(created.errors).toBeUndefined();
    const embedding = fromGraphql(created.data.createEmbedding);
    expect(embedding).toEqual(withIds(payload));
    expect(created.data.createEmbedding.translations.map((t: Json) => t.locale).sort()).toEqual(['de_DE', 'zh']);

    const viaRest = await service.rest('GET', `${embeddings()}/${embedding.id}`);
    expect(viaRest.status).toBe(200);
    expect(viaRest.body).toEqual(embedding);
    expect((await service.rest('GET', `${embeddings()}/${embedding.id}/asset`)).body).toEqual(embedding.assets);
  });

  it('fills in the defaults on create', async () => {
    const created = await service.graphql(CREATE, { ...scope(), input: { name: 'Minimal', purpose: '15c61c3' } });
    expect(created.errors).toBeUndefined();
    expect(created.data.createEmbedding).toMatchObject({
      active: true,
      vendor: '',
      translations: [],
      tcfVendor: null,
      tcfPurposes: [],
      googleConsentMode: [],
      assets: [],
    });
    expect((await service.rest('GET', `${embeddings()}/${created.data.createEmbedding.id}`)).body).toEqual(
      fromGraphql(created.data.createEmbedding),
    );
  });

  it('reads through the Domain what REST wrote: embeddings with assets, one embedding, one asset', async () => {
    const first = (await service.rest('POST', embeddings(), fullEmbedding())).body;
    const second = await createEmbedding({ name: 'second' });

    const list = await service.graphql(LIST, { clientId: domain.clientId, id: domain.domainId });
    expect(list.errors).toBeUndefined();
    expect(list.data.domain.embeddings.map(fromGraphql)).toEqual([first, second]);

    const one = await service.graphql(ONE, {
      clientId: domain.clientId,
      id: domain.domainId,
      embeddingId: first.id,
      assetId: first.assets[1].id,
    });
    expect(one.errors).toBeUndefined();
    const { asset, ...embedding } = one.data.domain.embedding;
    expect(fromGraphql(embedding)).toEqual(first);
    expect({ ...asset, translations: entriesToMap(asset.translations) }).toEqual(first.assets[1]);
  });

  it('updates only the fields it carries, replaces assets when sent, and REST sees it', async () => {
    const created = (await service.rest('POST', embeddings(), fullEmbedding())).body;
    const vars = { ...scope(), embeddingId: created.id };

    const renamed = await service.graphql(UPDATE, { ...vars, input: { name: 'GA4', tcfVendor: null, googleConsentMode: [] } });
    expect(renamed.errors).toBeUndefined();
    const expected = { ...created, name: 'GA4', tcfVendor: null, googleConsentMode: [] };
    expect(fromGraphql(renamed.data.updateEmbedding)).toEqual(expected);
    expect((await service.rest('GET', `${embeddings()}/${created.id}`)).body).toEqual(expected);

    const translated = await service.graphql(UPDATE, {
      ...vars,
      input: { translations: [{ locale: 'fr_FR', name: 'Analyse' }, { locale: 'en_US', blockedContentTitle: 'Blocked' }] },
    });
    expect(translated.errors).toBeUndefined();
    expect((await service.rest('GET', `${embeddings()}/${created.id}`)).body.translations).toEqual({
      fr_FR: { name: 'Analyse' },
      en_US: { blockedContentTitle: 'Blocked' },
    });

    const reassetted = await service.graphql(UPDATE, {
      ...vars,
      input: { assets: [{ name: 'only-one', storageType: 'indexedDb', translations: [{ locale: 'de_DE', lifetime: 'immer' }] }] },
    });
    expect(reassetted.errors).toBeUndefined();
    const afterAssets = (await service.rest('GET', `${embeddings()}/${created.id}`)).body;
    expect(afterAssets.assets).toEqual([
      { id: expect.any(String), name: 'only-one', dynamic: false, storageType: 'indexedDb', lifetime: '', description: '', translations: { de_DE: { lifetime: 'immer' } } },
    ]);
    expect(fromGraphql(reassetted.data.updateEmbedding)).toEqual(afterAssets);
    for (const old of created.assets) {
      expect((await service.rest('GET', `${embeddings()}/${created.id}/asset/${old.id}`)).status).toBe(404);
    }
    expect({ ...afterAssets, assets: undefined, translations: undefined }).toEqual({ ...expected, assets: undefined, translations: undefined });
  });

  it('deletes the embedding and its assets, answering its id', async () => {
    const created = await createEmbedding();
    const deleted = await service.graphql(DELETE, { ...scope(), embeddingId: created.id });
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data.deleteEmbedding).toBe(created.id);
    expect((await service.rest('GET', `${embeddings()}/${created.id}`)).status).toBe(404);
    expect((await service.rest('GET', `${embeddings()}/${created.id}/asset/${created.assets[0].id}`)).status).toBe(404);
    expect((await service.rest('GET', embeddings())).body).toEqual([]);
    const again = await service.graphql(DELETE, { ...scope(), embeddingId: created.id });
    expect(again.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it.each([
    ['an empty name', { name: '' }],
    ['an unknown purpose', { purpose: 'nope' }],
    ['an ftp privacyPolicyUrl', { privacyPolicyUrl: 'ftp://x' }],
    ['a protocol-relative privacyPolicyUrl', { privacyPolicyUrl: '//elsewhere.example/privacy' }],
    ['tcfVendor 0', { tcfVendor: 0 }],
    ['tcfPurposes out of range', { tcfPurposes: [0, 12] }],
    ['a repeated tcfPurpose', { tcfPurposes: [4, 4] }],
    ['tcfSpecialFeatures out of range', { tcfSpecialFeatures: [3] }],
    ['an unknown googleConsentMode', { googleConsentMode: ['ad_user_data'] }],
    ['a repeated googleConsentMode', { googleConsentMode: ['ad_storage', 'ad_storage'] }],
    ['a bad asset storageType', { assets: [{ name: 'x', storageType: 'cookies' }] }],
    ['a bad second asset', { assets: [{ name: 'ok' }, { name: '' }] }],
    ['1001 assets', { assets: Array.from({ length: 1001 }, (_, i) => ({ name: `c${i}` })) }],
    ['several problems at once', { name: '', purpose: 'x', tcfSpecialFeatures: [9], assets: [{ name: '', storageType: 'jar' }] }],
  ])('reports %s as BAD_USER_INPUT with the same errors as REST, on create and update, storing nothing', async (_, overrides) => {
    const existing = await createEmbedding();
    const before = await domainState(service, domain);
    const payload = embeddingPayload(overrides);

    const viaRest = await service.rest('POST', embeddings(), payload);
    expect(viaRest.status).toBe(400);
    const created = await service.graphql(CREATE, { ...scope(), input: toGraphqlInput(payload) });
    expect(created.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(created.errors?.[0]?.extensions?.errors).toEqual(viaRest.body.errors);
    expect(created.data?.createEmbedding ?? null).toBeNull();

    const updateRest = await service.rest('PUT', `${embeddings()}/${existing.id}`, overrides);
    expect(updateRest.status).toBe(400);
    const updated = await service.graphql(UPDATE, { ...scope(), embeddingId: existing.id, input: toGraphqlInput(overrides) });
    expect(updated.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(updated.errors?.[0]?.extensions?.errors).toEqual(updateRest.body.errors);

    expect(await domainState(service, domain)).toEqual(before);
  });

  it('refuses translation entries with a repeated or malformed locale as BAD_USER_INPUT', async () => {
    const existing = await createEmbedding();
    const before = await domainState(service, domain);
    const duplicate = await service.graphql(CREATE, {
      ...scope(),
      input: { name: 'x', purpose: '6cd2721', translations: [{ locale: 'de_DE', name: 'a' }, { locale: 'de_DE', name: 'b' }] },
    });
    expect(duplicate.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(duplicate.errors?.[0]?.extensions?.errors).toContainEqual({ path: '/translations/1/locale', message: expect.any(String) });

    const duplicateInUpdate = await service.graphql(UPDATE, {
      ...scope(),
      embeddingId: existing.id,
      input: { translations: [{ locale: 'zh', name: 'a' }, { locale: 'en_US' }, { locale: 'zh' }] },
    });
    expect(duplicateInUpdate.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(duplicateInUpdate.errors?.[0]?.extensions?.errors).toContainEqual({ path: '/translations/2/locale', message: expect.any(String) });

    const duplicateInAsset = await service.graphql(UPDATE, {
      ...scope(),
      embeddingId: existing.id,
      input: { assets: [{ name: 'a', translations: [{ locale: 'en_US' }, { locale: 'en_US' }] }] },
    });
    expect(duplicateInAsset.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(duplicateInAsset.errors?.[0]?.extensions?.errors).toContainEqual({ path: '/assets/0/translations/1/locale', message: expect.any(String) });

    for (const locale of ['german', 'de-DE', '']) {
      const malformed = await service.graphql(CREATE, { ...scope(), input: { name: 'x', purpose: '6cd2721', translations: [{ locale }] } });
      expect(malformed.errors?.[0]?.extensions?.code, locale).toBe('BAD_USER_INPUT');
      expect(malformed.errors?.[0]?.extensions?.errors).toContainEqual({ path: '/translations/0/locale', message: expect.any(String) });
    }
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('refuses a value of the wrong GraphQL type and stores nothing', async () => {
    const before = await domainState(service, domain);
    const answer = await service.graphql(CREATE, { ...scope(), input: { name: 'x', purpose: '6cd2721', active: 'yes' } });
    expect(answer.errors?.length).toBeGreaterThan(0);
    expect(answer.data?.createEmbedding ?? null).toBeNull();
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers NOT_FOUND for an unknown embedding, asset, domain or client, and for ids of another domain', async () => {
    const mine = await createEmbedding();
    const other = await createDomain(service, 'shop.example.org', { clientId: domain.clientId });
    const theirs = await createEmbedding({ name: 'theirs' }, other);
    const read = (embeddingId: string, assetId: string, id = domain.domainId) =>
      service.graphql(ONE, { clientId: domain.clientId, id, embeddingId, assetId });

    for (const [embeddingId, assetId] of [
      [unknownId(), mine.assets[0].id],
      ['abc', mine.assets[0].id],
      [theirs.id, theirs.assets[0].id],
      [mine.id, unknownId()],
      [mine.id, 'abc'],
      [mine.id, theirs.assets[0].id],
    ] as const) {
      const answer = await read(embeddingId, assetId);
      expect(answer.errors?.[0]?.extensions?.code, `${embeddingId}/${assetId}`).toBe('NOT_FOUND');
    }
    expect((await read(mine.id, mine.assets[0].id, unknownId())).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    for (const embeddingId of [unknownId(), 'abc', theirs.id]) {
      const updated = await service.graphql(UPDATE, { ...scope(), embeddingId, input: { name: 'hijacked' } });
      expect(updated.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const deleted = await service.graphql(DELETE, { ...scope(), embeddingId });
      expect(deleted.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    for (const vars of [
      { clientId: domain.clientId, domainId: unknownId() },
      { clientId: unknownId(), domainId: domain.domainId },
      { clientId: domain.clientId, domainId: 'abc' },
    ]) {
      const created = await service.graphql(CREATE, { ...vars, input: { name: 'x', purpose: '6cd2721' } });
      expect(created.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    expect((await service.rest('GET', embeddings())).body).toEqual([mine]);
    expect((await service.rest('GET', embeddings(other))).body).toEqual([theirs]);
  });
});

// ── code that runs on visitors' pages ──────────────────────────────────────────

describe("scriptHtmlCode: code that runs on every visitor's page, guarded by the client's canUseScripts", () => {
  const SCRIPT = '<script src="https://www.youtube.com/iframe_api"></script>';
  const setCanUseScripts = async (on: boolean) =>
    expect((await service.rest('PUT', `${API}/${domain.clientId}`, { features: { canUseScripts: on } })).status).toBe(200);
  const clientKey = async () => service.as((await createApiKey(service, domain.clientId, 'no code')).key);

  it('lets every client key write it by default (canUseScripts is on until the administrator turns it off)', async () => {
    expect((await service.rest('GET', `${API}/${domain.clientId}`)).body.features.canUseScripts).toBe(true);
    const asClient = await clientKey();
    const answer = await asClient.rest('POST', embeddings(), embeddingPayload({ scriptHtmlCode: SCRIPT }));
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.scriptHtmlCode).toBe(SCRIPT);
  });

  it("refuses a client key's write that sets or changes it while canUseScripts is off (403 over REST, FORBIDDEN over GraphQL), storing nothing", async () => {
    const created = await createEmbedding({ scriptHtmlCode: SCRIPT });
    await setCanUseScripts(false);
    const asClient = await clientKey();
    const before = await domainState(service, domain);

    const create = await asClient.rest('POST', embeddings(), embeddingPayload({ scriptHtmlCode: '<script>alert(1)</script>' }));
    expect(create.status).toBe(403);
    expect(create.body).toMatchObject({ status: 403, detail: expect.stringContaining('canUseScripts') });
    const update = await asClient.rest('PUT', `${embeddings()}/${created.id}`, { scriptHtmlCode: '<script>alert(1)</script>' });
    expect(update.status).toBe(403);
    const cleared = await asClient.rest('PUT', `${embeddings()}/${created.id}`, { ...created, scriptHtmlCode: '' });
    expect(cleared.status).toBe(403);

    const gqlCreate = await asClient.graphql(CREATE, { ...scope(), input: toGraphqlInput(embeddingPayload({ scriptHtmlCode: SCRIPT })) });
    expect(gqlCreate.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const gqlUpdate = await asClient.graphql(UPDATE, { ...scope(), embeddingId: created.id, input: { scriptHtmlCode: '<b>x</b>' } });
    expect(gqlUpdate.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    expect(await domainState(service, domain)).toEqual(before);
    // Nor may the key switch it back on.
    expect((await asClient.rest('PUT', `${API}/${domain.clientId}`, { features: { canUseScripts: true } })).status).toBe(403);
  });

  it('says in OpenAPI that it is code injection, for every schema that has it', async () => {
    const { schemas } = (await service.as(null).rest('GET', '/openapi.json')).body.components;
    for (const name of ['Embedding', 'EmbeddingCreate', 'EmbeddingUpdate']) {
      expect(schemas[name].properties.scriptHtmlCode.description, name).toMatch(/^Code injection by design.*canUseScripts/s);
    }
  });

  it('still lets a client key without canUseScripts write everything else, send the code back unchanged, and the administrator change it', async () => {
    const created = await createEmbedding({ scriptHtmlCode: SCRIPT });
    await setCanUseScripts(false);
    const asClient = await clientKey();

    expect((await asClient.rest('POST', embeddings(), embeddingPayload({ name: 'No code', scriptHtmlCode: '' }))).status).toBe(201);
    const roundTrip = await asClient.rest('PUT', `${embeddings()}/${created.id}`, { ...created, description: 'Videos' });
    expect(roundTrip.status, roundTrip.text).toBe(200);
    expect(roundTrip.body).toMatchObject({ description: 'Videos', scriptHtmlCode: SCRIPT });
    const gql = await asClient.graphql(UPDATE, { ...scope(), embeddingId: created.id, input: { scriptHtmlCode: SCRIPT, vendor: 'Google' } });
    expect(gql.errors).toBeUndefined();

    const byAdmin = await service.rest('PUT', `${embeddings()}/${created.id}`, { scriptHtmlCode: '<script>ok()</script>' });
    expect(byAdmin.status).toBe(200);
    await setCanUseScripts(true);
    expect((await asClient.rest('PUT', `${embeddings()}/${created.id}`, { scriptHtmlCode: '' })).status).toBe(200);
  });

  it('answers 404 rather than 403 for an embedding the client does not have', async () => {
    await setCanUseScripts(false);
    const asClient = await clientKey();
    expect((await asClient.rest('PUT', `${embeddings()}/${unknownId()}`, { scriptHtmlCode: SCRIPT })).status).toBe(404);
  });
});
