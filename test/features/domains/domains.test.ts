import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  createClient,
  createDomain,
  domainState,
  embeddingPayload,
  themePayload,
  unknownId,
} from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import { domainFields } from '../../../src/features/domains/domain.contract.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const domainsOf = (clientId: string) => `${API}/${clientId}/domain`;
const domainPath = (clientId: string, domainId: string) => `${API}/${clientId}/domain/${domainId}`;

/** A new client and the REST prefix of its domains. */
async function newClient() {
  const client = await createClient(service);
  return { clientId: client.id, domains: domainsOf(client.id) };
}

/** Creates a domain under a new client and returns its REST answer and paths. */
async function postDomain(payload: Record<string, unknown>) {
  const { clientId, domains } = await newClient();
  const answer = await service.rest('POST', domains, payload);
  return { clientId, domains, answer };
}

/** The domains of a client, as REST lists them: proves that a refused write changed nothing. */
const domainsState = async (clientId: string) => (await service.rest('GET', domainsOf(clientId))).body;

/** Rows left in a table whose `column` is one of `ids`: proves a cascade really deleted them. */
async function countRows(table: string, column: string, ids: string[]): Promise<number> {
  const rows = await service.database.orm.em
    .fork()
    .getConnection()
    .execute<{ n: number }[]>(`select count(*)::int as n from ${table} where ${column} in (${ids.map(() => '?').join(', ')})`, ids);
  return rows[0]!.n;
}

const DOMAIN_FIELDS = `id clientId ${Object.keys(domainFields).filter((key) => key !== 'id').join(' ')}`;

/** CCM19's settings of a new domain, with the defaults documented or chosen for each. */
const NEW_DOMAIN = {
  whitelabel: false,
  consentCookieLifetime: 365,
  consentCookieSecure: true,
  consentResetBeforeDate: null,
  consentResetOnLegalChange: false,
  consentSharingDomains: [],
  consentSharingCrossDomain: false,
  frontendWidgetEnabled: true,
  frontendWidgetCache: true,
  frontendWidgetMinifyCode: true,
  managementStructure: 'embedding',
  deleteUnknownCookies: false,
  deleteUnknownCookiesForceReload: false,
  requireConsentForMandatoryEmbeddings: false,
  declineButtonEnforced: true,
  allowedScriptMarkers: [],
  blockedScriptMarkers: [],
  evalInlineScripts: false,
  recordScriptsOnWebsite: true,
  blockNewScripts: true,
  blockFirstPartyScripts: false,
  blockInlineScripts: false,
  permanentScanEnabled: false,
  tcfEnabled: false,
  tcfEnableNewVendorsAfterGvlUpdate: false,
  tcfVendorBlacklist: [],
  tcfSpecialFeatures: [],
  tcfGoogleAdditionalConsentMode: false,
  tcfGoogleAdditionalConsentAdProviders: [],
  tcfUrlMacroAutoAppend: false,
  tcfUrlMacroHandling: false,
  blockIframes: true,
  rememberIframeConsentPerDomain: false,
  appendConsentSwitchToIframes: false,
  iframeBlockMode: 'whitelist',
  iframeMarkers: [],
  cookieDeclarationTableHeadingStartLevel: 3,
  cookieDeclarationTablePrependConsentChangeLink: true,
  cookieDeclarationTablePrependIntroText: true,
  imprintDisplayMode: 'link',
  imprintOpenInNewTab: false,
  imprintShowWidget: false,
  privacyPolicyDisplayMode: 'link',
  privacyPolicyOpenInNewTab: false,
  privacyPolicyShowWidget: false,
  accessibilityDisplayMode: 'link',
  accessibilityLinkEnabled: false,
  usPrivacyModel: 'opt-in',
};

/** A value other than the default for every setting, each of its kind. */
const EVERY_SETTING = {
  whitelabel: true,
  consentCookieLifetime: 180,
  consentCookieSecure: false,
  consentResetBeforeDate: '2026-05-25',
  consentResetOnLegalChange: true,
  consentSharingDomains: ['shop.example.org', 'blog.example.org'],
  consentSharingCrossDomain: true,
  frontendWidgetEnabled: false,
  frontendWidgetCache: false,
  frontendWidgetMinifyCode: false,
  // managementStructure has no other writable value (`cookie` is refused): management-structure.test.ts.
  deleteUnknownCookies: true,
  deleteUnknownCookiesForceReload: true,
  requireConsentForMandatoryEmbeddings: true,
  declineButtonEnforced: false,
  allowedScriptMarkers: ['jquery.min.js'],
  blockedScriptMarkers: ['gtag(', 'fbq('],
  evalInlineScripts: true,
  recordScriptsOnWebsite: false,
  blockNewScripts: false,
  blockFirstPartyScripts: true,
  blockInlineScripts: true,
  permanentScanEnabled: true,
  tcfEnabled: true,
  tcfEnableNewVendorsAfterGvlUpdate: true,
  tcfVendorBlacklist: [755, 1],
  tcfSpecialFeatures: [1, 2],
  tcfGoogleAdditionalConsentMode: true,
  tcfGoogleAdditionalConsentAdProviders: [89, 2526],
  tcfUrlMacroAutoAppend: true,
  tcfUrlMacroHandling: true,
  blockIframes: false,
  rememberIframeConsentPerDomain: true,
  appendConsentSwitchToIframes: true,
  iframeBlockMode: 'blacklist',
  iframeMarkers: ['youtube.com/embed', 'player.vimeo.com'],
  cookieDeclarationTableHeadingStartLevel: 5,
  cookieDeclarationTablePrependConsentChangeLink: false,
  cookieDeclarationTablePrependIntroText: false,
  imprintDisplayMode: 'direct',
  imprintOpenInNewTab: true,
  imprintShowWidget: true,
  privacyPolicyDisplayMode: 'direct',
  privacyPolicyOpenInNewTab: true,
  privacyPolicyShowWidget: true,
  accessibilityDisplayMode: 'direct',
  accessibilityLinkEnabled: true,
  usPrivacyModel: 'opt-out',
};

describe('domains over REST', () => {
  it.each([
    ['a bare host', 'www.example.org', { name: 'www.example.org', path: '/', url: 'https://www.example.org/' }],
    ['a host with scheme and path', 'https://www.example.org/shop/', { name: 'www.example.org', path: '/shop/', url: 'https://www.example.org/shop/' }],
    ['an IP address with scheme and port', 'http://127.0.0.1:8080/', { name: '127.0.0.1', path: '/', url: 'http://127.0.0.1:8080/' }],
    ['a host with port but no scheme', 'shop.example.org:8443', { name: 'shop.example.org', path: '/', url: 'https://shop.example.org:8443/' }],
    ['a host with a path but no scheme', 'example.org/de/', { name: 'example.org', path: '/de/', url: 'https://example.org/de/' }],
  ])('creates a domain from %s (201) with the defaults for what was not sent', async (_, name, address) => {
    const { answer } = await postDomain({ name });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual({
      id: expect.any(String),
      ...address,
      country: null,
      locales: ['de_DE', 'en_US'],
      consentStorage: 'localStorage',
      ...NEW_DOMAIN,
    });
  });

  it('creates a domain with every field set and returns them all', async () => {
    const { answer } = await postDomain({
      name: 'https://shop.example.de/',
      country: 'DE',
      locales: ['fr_FR', 'zh', 'de_DE'],
      consentStorage: 'cookie',
      ...NEW_DOMAIN,
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(String),
      name: 'shop.example.de',
      path: '/',
      url: 'https://shop.example.de/',
      country: 'DE',
      locales: ['fr_FR', 'zh', 'de_DE'],
      consentStorage: 'cookie',
      ...NEW_DOMAIN,
    });
  });

  it('reads one domain (200) and all domains of a client, and only those (200)', async () => {
    const { clientId, domains } = await newClient();
    const first = (await service.rest('POST', domains, { name: 'one.example.org', country: 'AT' })).body;
    const second = (await service.rest('POST', domains, { name: 'http://two.example.org/blog/' })).body;
    const foreign = await createDomain(service, 'one.example.org');

    const one = await service.rest('GET', domainPath(clientId, first.id));
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      id: first.id,
      name: 'one.example.org',
      path: '/',
      url: 'https://one.example.org/',
      country: 'AT',
      locales: ['de_DE', 'en_US'],
      consentStorage: 'localStorage',
      ...NEW_DOMAIN,
    });

    const all = await service.rest('GET', domains);
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(2);
    expect(all.body).toContainEqual(one.body);
    expect(all.body).toContainEqual(second);
    expect(all.body.map((d: { id: string }) => d.id)).not.toContain(foreign.domainId);

    const fresh = await newClient();
    const none = await service.rest('GET', fresh.domains);
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
  });

  it('updates only the fields a PUT carries (200)', async () => {
    const { clientId, answer } = await postDomain({ name: 'https://www.example.org/shop/', country: 'DE' });
    const path = domainPath(clientId, answer.body.id);
    const updated = await service.rest('PUT', path, { locales: ['en_US'], consentStorage: 'sessionStorage' });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      id: answer.body.id,
      name: 'www.example.org',
      path: '/shop/',
      url: 'https://www.example.org/shop/',
      country: 'DE',
      locales: ['en_US'],
      consentStorage: 'sessionStorage',
      ...NEW_DOMAIN,
    });
    expect((await service.rest('GET', path)).body).toEqual(updated.body);

    const cleared = await service.rest('PUT', path, { country: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ ...updated.body, country: null });

    const empty = await service.rest('PUT', path, {});
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(cleared.body);
  });

  it('deletes a domain (204, no body); afterwards it is not found', async () => {
    const { clientId, domains, answer } = await postDomain({ name: 'gone.example.org' });
    const path = domainPath(clientId, answer.body.id);
    const deleted = await service.rest('DELETE', path);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await service.rest('GET', path)).status).toBe(404);
    expect((await service.rest('PUT', path, { country: 'DE' })).status).toBe(404);
    expect((await service.rest('DELETE', path)).status).toBe(404);
    expect((await service.rest('GET', domains)).body).toEqual([]);
    expect((await service.rest('GET', `${API}/${clientId}`)).status).toBe(200);
  });

  it('takes back what it sent: path, url and id are read-only and scheme, port and path are kept', async () => {
    const { clientId, answer } = await postDomain({ name: 'http://127.0.0.1:8080/shop/' });
    const path = domainPath(clientId, answer.body.id);
    const read = (await service.rest('GET', path)).body;
    expect(read).toMatchObject({ name: '127.0.0.1', path: '/shop/', url: 'http://127.0.0.1:8080/shop/' });

    const putBack = await service.rest('PUT', path, { ...read, country: 'ZZ' });
    expect(putBack.status).toBe(200);
    expect(putBack.body).toEqual({ ...read, country: 'ZZ' });
    expect(putBack.body.url).toBe('http://127.0.0.1:8080/shop/');

    // Other values of the read-only fields are ignored as well.
    const ignored = await service.rest('PUT', path, { ...read, id: unknownId(), path: '/elsewhere/', url: 'https://evil.example/' });
    expect(ignored.status).toBe(200);
    expect(ignored.body).toEqual(read);
    expect((await service.rest('GET', path)).body).toEqual(read);
  });

  it('on update, a bare host keeps scheme, port and path; a full address replaces them', async () => {
    const { clientId, answer } = await postDomain({ name: 'http://127.0.0.1:8080/shop/' });
    const path = domainPath(clientId, answer.body.id);

    const bare = await service.rest('PUT', path, { name: 'localhost' });
    expect(bare.status).toBe(200);
    expect(bare.body).toMatchObject({ name: 'localhost', path: '/shop/', url: 'http://localhost:8080/shop/' });

    const full = await service.rest('PUT', path, { name: 'https://www.example.org/' });
    expect(full.status).toBe(200);
    expect(full.body).toEqual({ ...bare.body, name: 'www.example.org', path: '/', url: 'https://www.example.org/' });

    const withPort = await service.rest('PUT', path, { name: 'http://www.example.org:3000/de/' });
    expect(withPort.status).toBe(200);
    expect(withPort.body).toMatchObject({ name: 'www.example.org', path: '/de/', url: 'http://www.example.org:3000/de/' });
    expect((await service.rest('GET', path)).body).toEqual(withPort.body);
  });

  it.each([['DE'], ['ZZ'], ['US'], [null]])('accepts country %s', async (country) => {
    const { clientId, answer } = await postDomain({ name: 'country.example', country });
    expect(answer.status).toBe(201);
    expect(answer.body.country).toBe(country);
    const updated = await service.rest('PUT', domainPath(clientId, answer.body.id), { country });
    expect(updated.status).toBe(200);
    expect(updated.body.country).toBe(country);
  });

  it.each([
    [['de_DE', 'en_US', 'zh']],
    [['ja']],
    [['cs', 'pt_BR']],
  ])('accepts locales %j', async (locales) => {
    const { answer } = await postDomain({ name: 'locales.example', locales });
    expect(answer.status).toBe(201);
    expect(answer.body.locales).toEqual(locales);
  });

  it.each([['cookie'], ['localStorage'], ['sessionStorage']])('accepts consentStorage %s', async (consentStorage) => {
    const { answer } = await postDomain({ name: 'storage.example', consentStorage });
    expect(answer.status).toBe(201);
    expect(answer.body.consentStorage).toBe(consentStorage);
  });

  it.each([
    ['no name', {}, ['/name']],
    ['an empty name', { name: '' }, ['/name']],
    ['an ftp address', { name: 'ftp://example.org' }, ['/name']],
    ['a name with a space', { name: 'exa mple.org' }, ['/name']],
    ['credentials in the address', { name: 'https://user:pw@example.org' }, ['/name']],
    ['a query in the address', { name: 'example.org/?q=1' }, ['/name']],
    ['a fragment in the address', { name: 'https://example.org/#top' }, ['/name']],
    ['a label starting and ending with a hyphen', { name: '-bad-.org' }, ['/name']],
    ['a name that is a number', { name: 42 }, ['/name']],
    ['a lower-case country', { name: 'x.example', country: 'de' }, ['/country']],
    ['an alpha-3 country', { name: 'x.example', country: 'DEU' }, ['/country']],
    ['an unassigned country code', { name: 'x.example', country: 'QQ' }, ['/country']],
    ['a country that is a number', { name: 'x.example', country: 49 }, ['/country']],
    ['a locale written with a hyphen', { name: 'x.example', locales: ['de-DE'] }, ['/locales/0']],
    ['a locale that is a word', { name: 'x.example', locales: ['en_US', 'german'] }, ['/locales/1']],
    ['a repeated locale', { name: 'x.example', locales: ['de_DE', 'en_US', 'de_DE'] }, ['/locales']],
    ['no locale at all', { name: 'x.example', locales: [] }, ['/locales']],
    ['locales as a string', { name: 'x.example', locales: 'de_DE' }, ['/locales']],
    ['an unknown consentStorage', { name: 'x.example', consentStorage: 'indexedDb' }, ['/consentStorage']],
    ['an unknown property', { name: 'x.example', language: 'de' }, ['/language']],
    ['several problems at once', { name: '', country: 'de', consentStorage: 'cookies' }, ['/consentStorage', '/country', '/name']],
    ['whitelabel as a string', { name: 'x.example', whitelabel: 'yes' }, ['/whitelabel']],
    ['a consentCookieLifetime of 0 days', { name: 'x.example', consentCookieLifetime: 0 }, ['/consentCookieLifetime']],
    ['a consentCookieLifetime that is a fraction', { name: 'x.example', consentCookieLifetime: 30.5 }, ['/consentCookieLifetime']],
    ['a consentResetBeforeDate with a time', { name: 'x.example', consentResetBeforeDate: '2026-01-01T00:00:00Z' }, ['/consentResetBeforeDate']],
    ['a consentResetBeforeDate that is no day', { name: 'x.example', consentResetBeforeDate: '2026-02-30' }, ['/consentResetBeforeDate']],
    ['a consentSharingDomains item that is empty', { name: 'x.example', consentSharingDomains: ['a.example', ''] }, ['/consentSharingDomains/1']],
    ['more than 1000 iframeMarkers', { name: 'x.example', iframeMarkers: Array.from({ length: 1001 }, (_, i) => `m${i}`) }, ['/iframeMarkers']],
    ['an unknown managementStructure', { name: 'x.example', managementStructure: 'purpose' }, ['/managementStructure']],
    ['an unknown iframeBlockMode', { name: 'x.example', iframeBlockMode: 'greylist' }, ['/iframeBlockMode']],
    ['a heading level of 1', { name: 'x.example', cookieDeclarationTableHeadingStartLevel: 1 }, ['/cookieDeclarationTableHeadingStartLevel']],
    ['an unknown imprintDisplayMode', { name: 'x.example', imprintDisplayMode: 'popup' }, ['/imprintDisplayMode']],
    ['a tcfVendorBlacklist with a repeated id', { name: 'x.example', tcfVendorBlacklist: [1, 1] }, ['/tcfVendorBlacklist']],
    ['a tcfVendorBlacklist id that is a string', { name: 'x.example', tcfVendorBlacklist: ['755'] }, ['/tcfVendorBlacklist/0']],
    ['an unknown tcfSpecialFeatures id', { name: 'x.example', tcfSpecialFeatures: [3] }, ['/tcfSpecialFeatures/0']],
    ['a negative ad provider id', { name: 'x.example', tcfGoogleAdditionalConsentAdProviders: [-89] }, ['/tcfGoogleAdditionalConsentAdProviders/0']],
    ['settings of several kinds wrong at once', { name: 'x.example', blockIframes: 1, accessibilityDisplayMode: 'inline', allowedScriptMarkers: 'gtag' }, ['/accessibilityDisplayMode', '/allowedScriptMarkers', '/blockIframes']],
  ])('refuses a create with %s (400) and stores nothing', async (_, payload, pointers) => {
    const { clientId } = await newClient();
    const answer = await service.rest('POST', domainsOf(clientId), payload);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ type: '/problems/validation', title: 'Bad Request', status: 400, detail: expect.any(String) });
    expect(answer.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(pointers);
    for (const error of answer.body.errors) expect(error).toEqual({ path: expect.any(String), message: expect.any(String) });
    expect(await domainsState(clientId)).toEqual([]);
  });

  it.each([
    ['an empty name', { name: '' }, '/name'],
    ['an ftp address', { name: 'ftp://example.org' }, '/name'],
    ['a query in the address', { name: 'example.org/?q=1' }, '/name'],
    ['a country that is not a code', { country: 'Germany' }, '/country'],
    ['no locale at all', { locales: [] }, '/locales'],
    ['an unknown consentStorage', { consentStorage: 'none' }, '/consentStorage'],
    ['an unknown property', { owner: 'me' }, '/owner'],
    ['a consentCookieLifetime above 3650', { consentCookieLifetime: 3651 }, '/consentCookieLifetime'],
    ['a consentResetBeforeDate in another format', { consentResetBeforeDate: '25.05.2026' }, '/consentResetBeforeDate'],
    ['a privacyPolicyDisplayMode of null', { privacyPolicyDisplayMode: null }, '/privacyPolicyDisplayMode'],
    ['tcfEnabled as a string', { tcfEnabled: 'true' }, '/tcfEnabled'],
  ])('refuses an update with %s (400) and changes nothing', async (_, payload, pointer) => {
    const domain = await createDomain(service, 'http://127.0.0.1:8080/shop/');
    await service.rest('POST', `${domain.base}/placeholder`, { name: 'kept', value: 'v' });
    const before = await domainState(service, domain);
    const answer = await service.rest('PUT', domain.base, { locales: ['fr_FR'], ...payload });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ type: '/problems/validation', status: 400 });
    expect(answer.body.errors).toEqual([{ path: pointer, message: expect.any(String) }]);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers 404 for an unknown or malformed client id on every domain route, also when creating', async () => {
    const domain = await createDomain(service);
    for (const clientId of [unknownId(), 'not-an-id']) {
      const create = await service.rest('POST', domainsOf(clientId), { name: 'www.example.org' });
      expect(create.status).toBe(404);
      expect(create.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(create.body).toMatchObject({ type: '/problems/not-found', status: 404, detail: expect.stringContaining('client') });
      expect((await service.rest('GET', domainsOf(clientId))).status).toBe(404);
      for (const domainId of [domain.domainId, unknownId(), 'not-an-id']) {
        const path = domainPath(clientId, domainId);
        expect((await service.rest('GET', path)).status, path).toBe(404);
        expect((await service.rest('PUT', path, { country: 'DE' })).status, path).toBe(404);
        expect((await service.rest('DELETE', path)).status, path).toBe(404);
      }
    }
    expect((await service.rest('GET', domain.base)).body.country).toBeNull();
  });

  it('answers 404 for an unknown or malformed domain id of a known client', async () => {
    const { clientId } = await newClient();
    for (const domainId of [unknownId(), 'not-an-id']) {
      const path = domainPath(clientId, domainId);
      const get = await service.rest('GET', path);
      expect(get.status).toBe(404);
      expect(get.body).toMatchObject({ type: '/problems/not-found', status: 404, detail: expect.stringContaining('domain') });
      expect((await service.rest('PUT', path, { country: 'DE' })).status).toBe(404);
      expect((await service.rest('DELETE', path)).status).toBe(404);
    }
  });

  it("never reaches client A's domain through client B's path", async () => {
    const a = await createDomain(service, 'https://a.example/');
    const b = await createClient(service);
    const before = await domainState(service, a);
    const wrongPath = domainPath(b.id, a.domainId);
    for (const [method, body] of [['GET'], ['PUT', { country: 'FR' }], ['DELETE']] as const) {
      const answer = await service.rest(method, wrongPath, body);
      expect(answer.status, method).toBe(404);
      expect(answer.body).toMatchObject({ type: '/problems/not-found', status: 404 });
    }
    for (const suffix of ['/placeholder', '/embedding', '/theme']) {
      expect((await service.rest('GET', `${wrongPath}${suffix}`)).status, suffix).toBe(404);
    }
    expect((await service.rest('GET', domainsOf(b.id))).body).toEqual([]);
    expect(await domainState(service, a)).toEqual(before);
  });

  it('deletes a domain with its placeholders, embeddings (with assets) and themes; a sibling domain keeps its own', async () => {
    const doomed = await createDomain(service, 'https://doomed.example/');
    const sibling = await createDomain(service, 'sibling.example', { clientId: doomed.clientId });
    const seeded = [];
    for (const domain of [doomed, sibling]) {
      const placeholder = await service.rest('POST', `${domain.base}/placeholder`, { name: 'brand', value: domain.domainId });
      expect(placeholder.status, placeholder.text).toBe(201);
      const embedding = await service.rest('POST', `${domain.base}/embedding`, embeddingPayload());
      expect(embedding.status, embedding.text).toBe(201);
      expect(embedding.body.assets).toHaveLength(2);
      const theme = await service.rest('POST', `${domain.base}/theme`, themePayload());
      expect(theme.status, theme.text).toBe(201);
      seeded.push({ embeddingId: embedding.body.id as string, assetIds: embedding.body.assets.map((a: { id: string }) => a.id) as string[], themeId: theme.body.id as string });
    }
    const [gone] = seeded;
    const siblingBefore = await domainState(service, sibling);

    expect((await service.rest('DELETE', doomed.base)).status).toBe(204);

    for (const path of [
      doomed.base,
      `${doomed.base}/placeholder`,
      `${doomed.base}/placeholder/brand`,
      `${doomed.base}/embedding`,
      `${doomed.base}/embedding/${gone!.embeddingId}`,
      `${doomed.base}/embedding/${gone!.embeddingId}/asset`,
      `${doomed.base}/embedding/${gone!.embeddingId}/asset/${gone!.assetIds[0]}`,
      `${doomed.base}/theme`,
      `${doomed.base}/theme/${gone!.themeId}`,
    ]) {
      expect((await service.rest('GET', path)).status, path).toBe(404);
    }
    // Nothing of it is left in the database either.
    expect({
      placeholders: await countRows('placeholder', 'domain_id', [doomed.domainId]),
      embeddings: await countRows('embedding', 'domain_id', [doomed.domainId]),
      assets: await countRows('embedding_asset', 'embedding_id', [gone!.embeddingId]),
      themes: await countRows('theme', 'domain_id', [doomed.domainId]),
    }).toEqual({ placeholders: 0, embeddings: 0, assets: 0, themes: 0 });

    expect(await domainState(service, sibling)).toEqual(siblingBefore);
    expect(siblingBefore.placeholders).toEqual([{ name: 'brand', value: sibling.domainId }]);
    expect(siblingBefore.embeddings.map((e: { id: string }) => e.id)).toEqual([seeded[1]!.embeddingId]);
    expect(siblingBefore.embeddings[0].assets.map((a: { id: string }) => a.id)).toEqual(seeded[1]!.assetIds);
    expect(siblingBefore.themes.map((t: { id: string }) => t.id)).toEqual([seeded[1]!.themeId]);
    expect((await service.rest('GET', domainsOf(doomed.clientId))).body).toEqual([siblingBefore.domain]);
  });
});

describe("CCM19's domain settings", () => {
  it('round-trips every setting over REST: create, read, list, update back to the defaults', async () => {
    const { clientId, domains } = await newClient();
    const created = await service.rest('POST', domains, { name: 'settings.example', ...EVERY_SETTING });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(EVERY_SETTING);
    const path = domainPath(clientId, created.body.id);
    expect((await service.rest('GET', path)).body).toEqual(created.body);
    expect((await service.rest('GET', domains)).body).toEqual([created.body]);

    const reset = await service.rest('PUT', path, NEW_DOMAIN);
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ ...created.body, ...NEW_DOMAIN });
    expect((await service.rest('GET', path)).body).toEqual(reset.body);
  });

  it('round-trips every setting over GraphQL, and REST reads the same', async () => {
    const { clientId } = await newClient();
    const created = await service.graphql(
      `mutation($clientId: ID!, $input: DomainCreateInput!) { createDomain(clientId: $clientId, input: $input) { ${DOMAIN_FIELDS} } }`,
      { clientId, input: { name: 'graph.example', ...EVERY_SETTING } },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createDomain).toMatchObject(EVERY_SETTING);
    const { clientId: _owner, ...payload } = created.data.createDomain;
    expect((await service.rest('GET', domainPath(clientId, payload.id))).body).toEqual(payload);

    const updated = await service.graphql(
      `mutation($clientId: ID!, $id: ID!, $input: DomainUpdateInput!) { updateDomain(clientId: $clientId, id: $id, input: $input) { ${DOMAIN_FIELDS} } }`,
      { clientId, id: payload.id, input: { consentResetBeforeDate: null, tcfSpecialFeatures: [2], iframeBlockMode: 'whitelist' } },
    );
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateDomain).toEqual({ ...created.data.createDomain, consentResetBeforeDate: null, tcfSpecialFeatures: [2], iframeBlockMode: 'whitelist' });
  });

  it('read one, send it back: nothing changes, and the answer is the same', async () => {
    const { domains } = await newClient();
    const created = (await service.rest('POST', domains, { name: 'https://back.example:8443/de/', country: 'AT', ...EVERY_SETTING })).body;
    const path = `${domains}/${created.id}`;
    const read = (await service.rest('GET', path)).body;
    const back = await service.rest('PUT', path, read);
    expect(back.status).toBe(200);
    expect(back.body).toEqual(read);
    expect((await service.rest('GET', path)).body).toEqual(read);
  });

  it('keeps the settings an update does not name', async () => {
    const { domains } = await newClient();
    const created = (await service.rest('POST', domains, { name: 'partial.example', ...EVERY_SETTING })).body;
    const updated = await service.rest('PUT', `${domains}/${created.id}`, { blockIframes: true, iframeMarkers: [] });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...created, blockIframes: true, iframeMarkers: [] });
  });
});

describe('domains over GraphQL', () => {
  it('creates, reads, updates and deletes a domain; REST sees the same', async () => {
    const { clientId } = await newClient();
    const created = await service.graphql(
      `mutation($clientId: ID!, $input: DomainCreateInput!) { createDomain(clientId: $clientId, input: $input) { ${DOMAIN_FIELDS} } }`,
      { clientId, input: { name: 'http://127.0.0.1:8080/shop/', country: 'DE' } },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createDomain).toEqual({
      id: expect.any(String),
      clientId,
      name: '127.0.0.1',
      path: '/shop/',
      url: 'http://127.0.0.1:8080/shop/',
      country: 'DE',
      locales: ['de_DE', 'en_US'],
      consentStorage: 'localStorage',
      ...NEW_DOMAIN,
    });
    const id: string = created.data.createDomain.id;
    const { clientId: _, ...payload } = created.data.createDomain;
    // What GraphQL wrote, REST reads.
    expect((await service.rest('GET', domainPath(clientId, id))).body).toEqual(payload);

    const updated = await service.graphql(
      `mutation($clientId: ID!, $id: ID!) { updateDomain(clientId: $clientId, id: $id, input: { name: "localhost", country: null, locales: ["en_US", "zh"], consentStorage: "cookie" }) { ${DOMAIN_FIELDS} } }`,
      { clientId, id },
    );
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateDomain).toEqual({
      ...created.data.createDomain,
      name: 'localhost',
      url: 'http://localhost:8080/shop/',
      country: null,
      locales: ['en_US', 'zh'],
      consentStorage: 'cookie',
      ...NEW_DOMAIN,
    });

    const read = await service.graphql(`query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) { ${DOMAIN_FIELDS} } }`, { clientId, id });
    expect(read.data.domain).toEqual(updated.data.updateDomain);

    const deleted = await service.graphql(`mutation($clientId: ID!, $id: ID!) { deleteDomain(clientId: $clientId, id: $id) }`, { clientId, id });
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data.deleteDomain).toBe(id);
    expect((await service.rest('GET', domainPath(clientId, id))).status).toBe(404);
  });

  it('reads through domain(clientId, id) and client(id) { domains } what REST created', async () => {
    const { clientId, domains } = await newClient();
    const shop = (await service.rest('POST', domains, { name: 'https://www.example.org/shop/', locales: ['fr_FR'] })).body;
    const other = (await service.rest('POST', domains, { name: 'other.example.org', country: 'ZZ', consentStorage: 'sessionStorage' })).body;

    const one = await service.graphql(`query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) { ${DOMAIN_FIELDS} } }`, { clientId, id: shop.id });
    expect(one.errors).toBeUndefined();
    expect(one.data.domain).toEqual({ ...shop, clientId });

    const nested = await service.graphql(
      `query($clientId: ID!, $id: ID!) { client(id: $clientId) { id domains { ${DOMAIN_FIELDS} } domain(id: $id) { ${DOMAIN_FIELDS} } } }`,
      { clientId, id: other.id },
    );
    expect(nested.errors).toBeUndefined();
    expect(nested.data.client.domain).toEqual({ ...other, clientId });
    const listed = (await service.rest('GET', domains)).body.map((d: object) => ({ ...d, clientId }));
    expect(nested.data.client.domains).toEqual(listed);
    expect(nested.data.client.domains).toHaveLength(2);
  });

  it('reports bad input as BAD_USER_INPUT with the same errors list as REST, and stores nothing', async () => {
    const { clientId, domains } = await newClient();
    const input = { name: 'exa mple.org', country: 'de', locales: ['de-DE', 'de-DE'], consentStorage: 'disk' };
    const viaGraphql = await service.graphql(
      `mutation($clientId: ID!, $input: DomainCreateInput!) { createDomain(clientId: $clientId, input: $input) { id } }`,
      { clientId, input },
    );
    const viaRest = await service.rest('POST', domains, input);
    expect(viaRest.status).toBe(400);
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(viaGraphql.errors?.[0]?.extensions?.errors).toEqual(viaRest.body.errors);
    expect(await domainsState(clientId)).toEqual([]);

    const domain = await createDomain(service, 'https://kept.example/');
    const before = await domainState(service, domain);
    const update = { name: 'ftp://kept.example', locales: [] };
    const updateViaGraphql = await service.graphql(
      `mutation($clientId: ID!, $id: ID!, $input: DomainUpdateInput!) { updateDomain(clientId: $clientId, id: $id, input: $input) { id } }`,
      { clientId: domain.clientId, id: domain.domainId, input: update },
    );
    const updateViaRest = await service.rest('PUT', domain.base, update);
    expect(updateViaRest.status).toBe(400);
    expect(updateViaGraphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(updateViaGraphql.errors?.[0]?.extensions?.errors).toEqual(updateViaRest.body.errors);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers NOT_FOUND for an unknown client or domain, and for a domain under the wrong client', async () => {
    const domain = await createDomain(service);
    const otherClient = await createClient(service);
    const read = `query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) { id } }`;
    const update = `mutation($clientId: ID!, $id: ID!) { updateDomain(clientId: $clientId, id: $id, input: { country: "FR" }) { id } }`;
    const remove = `mutation($clientId: ID!, $id: ID!) { deleteDomain(clientId: $clientId, id: $id) }`;
    for (const [clientId, id] of [
      [unknownId(), domain.domainId],
      ['not-an-id', domain.domainId],
      [domain.clientId, unknownId()],
      [domain.clientId, 'not-an-id'],
      [otherClient.id, domain.domainId],
    ] as const) {
      for (const operation of [read, update, remove]) {
        const answer = await service.graphql(operation, { clientId, id });
        expect(answer.errors?.[0]?.extensions?.code, `${operation} ${clientId} ${id}`).toBe('NOT_FOUND');
      }
    }
    const create = await service.graphql(
      `mutation($clientId: ID!) { createDomain(clientId: $clientId, input: { name: "www.example.org" }) { id } }`,
      { clientId: unknownId() },
    );
    expect(create.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const nested = await service.graphql(`query($clientId: ID!, $id: ID!) { client(id: $clientId) { domain(id: $id) { id } } }`, {
      clientId: otherClient.id,
      id: domain.domainId,
    });
    expect(nested.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await service.rest('GET', domain.base)).body.country).toBeNull();
  });
});
