import { describe, expect, it } from 'vitest';
import { DEFAULT_TEXT_PLACEHOLDERS, SHIPPED_LANGUAGES } from '../../../src/features/locales/default-texts/index.ts';
import { LOCALE_TEXT_KEYS } from '../../../src/features/locales/locale.contract.ts';
import { toLocale } from '../../../src/features/locales/locale.view.ts';
import { API, createApiKey, createDomain, type DomainPath, domainState, unknownId } from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

const { service, domain } = useServiceWithDomain();

// ── what the documentation names ─────────────────────────────────────────────

/** The text properties of CCM19's Locale, as its documentation lists them. */
const DOCUMENTED_TEXTS = [
  'widgetTitle', 'widgetIntroText', 'widgetDeclineButtonText', 'widgetFullConsentButtonText', 'widgetSettingsButtonText',
  'checkAllButtonText', 'uncheckAllButtonText', 'imprint', 'imprintHtmlCode', 'imprintUrl', 'privacyPolicy',
  'privacyPolicyHtmlCode', 'privacyPolicyUrl', 'accessibility', 'accessibilityHtmlCode', 'accessibilityUrl', 'categoriesTitle',
  'categoriesCancelButtonText', 'categoriesFullConsentButtonText', 'categoriesSaveButtonText', 'detailsTitle',
  'detailsCloseButtonText', 'embeddingVendorLabel', 'embeddingDescriptionLabel', 'embeddingPrivacyPolicyUrlLabel',
  'embeddingLifetimeLabel', 'embeddingWhichDataIsCollectedLabel', 'embeddingPurposeOfDataCollectionLabel',
  'embeddingLegalBasisLabel', 'embeddingPlaceOfProcessingLabel', 'embeddingAssetNameLabel', 'embeddingAssetLifetimeLabel',
  'embeddingAssetDescriptionLabel', 'blockedContentTitle', 'blockedContentDisclaimer', 'blockedContentConsentButtonText',
  'blockedContentConsentSwitchShowExternalContent', 'blockedContentConsentSwitchAllowEmbedding',
  'blockedContentConsentSwitchProviderDetails', 'changeConsentText', 'moreInformationLabel', 'questionMarkButtonText',
  'tcfVendorIntroText', 'tcfPurposeLabel', 'tcfSpecialPurposeLabel', 'tcfFeaturesLabel', 'tcfSpecialFeaturesLabel',
  'tcfOptedInRemark', 'tcfThirdPartiesLabel', 'nonTcfPurposesLabel', 'nonTcfVendorsLabel', 'tcfVendorUsesNonCookieStorageText',
  'tcfSpecialFeaturesHandledGloballyText', 'tcfStacksListText', 'tcfCookieRefreshText', 'tcfExtendedDisclosureText',
  'tcfAssetTypeLabel', 'tcfAssetPurposesLabel',
] as const;
const PURPOSE_IDS = ['41ba25c', 'cdcbd7c', 'a717ff5', '7c19e32', '6cd2721', '15c61c3'];
/** The placeholders CCM19's documentation asks every site to define, which the default texts may use. */
const KNOWN_PLACEHOLDERS = ['FIRMA', 'Firma_Datenschutz', 'Firma_Impressum', 'Firma_Ort'];

type Locale = Record<string, unknown> & {
  name: string;
  active: boolean;
  purposeNames: Record<string, string>;
  purposeDescriptions: Record<string, string>;
};

const localeBase = (path: DomainPath = domain) => `${path.base}/locale`;
const readLocale = async (name: string, path: DomainPath = domain) => (await service.rest('GET', `${localeBase(path)}/${name}`)).body as Locale;
const readLocales = async (path: DomainPath = domain) => (await service.rest('GET', localeBase(path))).body as Locale[];
const domainLocales = async (path: DomainPath = domain) => (await service.rest('GET', path.base)).body.locales as string[];

/** Every text of a locale: its plain texts and its purpose texts, with where each is. */
function textsOf(locale: Locale): [string, string][] {
  return [
    ...DOCUMENTED_TEXTS.map((key): [string, string] => [key, locale[key] as string]),
    ...PURPOSE_IDS.map((id): [string, string] => [`purposeNames/${id}`, locale.purposeNames[id]!]),
    ...PURPOSE_IDS.map((id): [string, string] => [`purposeDescriptions/${id}`, locale.purposeDescriptions[id]!]),
  ];
}

/** What is wrong with a locale's texts as defaults: a missing or empty text, an unknown `{placeholder}`. */
function defaultProblems(locale: Locale): string[] {
  const problems: string[] = [];
  expect(Object.keys(locale).sort()).toEqual(['name', 'active', ...DOCUMENTED_TEXTS, 'purposeNames', 'purposeDescriptions'].sort());
  expect(Object.keys(locale.purposeNames).sort()).toEqual([...PURPOSE_IDS].sort());
  expect(Object.keys(locale.purposeDescriptions).sort()).toEqual([...PURPOSE_IDS].sort());
  for (const [where, value] of textsOf(locale)) {
    if (typeof value !== 'string' || value.trim() === '') problems.push(`${locale.name} ${where} is empty`);
    for (const [, name] of String(value).matchAll(/\{([^{}]*)\}/g)) {
      if (!KNOWN_PLACEHOLDERS.includes(name!)) problems.push(`${locale.name} ${where} uses the unknown placeholder {${name}}`);
    }
    if (/[{}]/.test(String(value).replace(/\{[A-Za-z_]+\}/g, ''))) problems.push(`${locale.name} ${where} has a stray brace`);
  }
  return problems;
}

/** A value for every writable text, all different, tagged. */
const everyText = (tag: string) => ({
  ...Object.fromEntries(DOCUMENTED_TEXTS.map((key, i) => [key, `${tag} ${key} ${i} ✓`])),
  purposeNames: Object.fromEntries(PURPOSE_IDS.map((id) => [id, `${tag} name ${id}`])),
  purposeDescriptions: Object.fromEntries(PURPOSE_IDS.map((id) => [id, `${tag} description ${id}`])),
});

describe('the default locales of a new domain', () => {
  it('are de_DE and en_US, active, listed in `locales`, with every documented text filled in', async () => {
    expect(await domainLocales()).toEqual(['de_DE', 'en_US']);
    const locales = await readLocales();
    expect(locales.map((l) => [l.name, l.active])).toEqual([
      ['de_DE', true],
      ['en_US', true],
    ]);
    for (const locale of locales) expect(defaultProblems(locale)).toEqual([]);
    const [de, en] = locales;
    expect(de!.widgetFullConsentButtonText).toBe('Alle akzeptieren');
    expect(en!.widgetFullConsentButtonText).toBe('Accept all');
    expect(de!.imprintUrl).toBe('{Firma_Impressum}');
    expect(en!.privacyPolicyUrl).toBe('{Firma_Datenschutz}');
  });

  it('uses only the placeholders CCM19 documents, and the code lists exactly those', () => {
    expect([...DEFAULT_TEXT_PLACEHOLDERS]).toEqual(KNOWN_PLACEHOLDERS);
    expect([...LOCALE_TEXT_KEYS].sort()).toEqual([...DOCUMENTED_TEXTS].sort());
  });

  it('follow the domain: `locales` sent on create makes exactly those, from their own defaults', async () => {
    const answer = await service.rest('POST', `${API}/${domain.clientId}/domain`, { name: 'fr.example.org', locales: ['fr', 'en_GB'] });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.locales).toEqual(['fr', 'en_GB']);
    const path = { clientId: domain.clientId, domainId: answer.body.id, base: `${API}/${domain.clientId}/domain/${answer.body.id}` };
    const [enGb, fr] = await readLocales(path);
    expect([enGb!.name, fr!.name]).toEqual(['en_GB', 'fr']);
    expect(fr!.widgetFullConsentButtonText).toBe('Tout accepter');
    expect(enGb!.widgetFullConsentButtonText).toBe('Accept all');
  });
});

describe('default texts of each shipped language', () => {
  const LANGUAGES: [string, string][] = [
    ['fr_FR', 'Tout accepter'],
    ['es_ES', 'Aceptar todo'],
    ['it_IT', 'Accetta tutto'],
    ['nl_NL', 'Alles accepteren'],
    ['pl_PL', 'Akceptuj wszystkie'],
  ];

  it('ships German, English, French, Spanish, Italian, Dutch and Polish', () => {
    expect([...SHIPPED_LANGUAGES].sort()).toEqual(['de', 'en', 'es', 'fr', 'it', 'nl', 'pl']);
  });

  it.each(LANGUAGES)('%s starts complete, in its own language, and its bare language name starts the same', async (name, acceptAll) => {
    const created = await service.rest('POST', localeBase(), { name });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(`${localeBase()}/${name}`);
    const locale = created.body as Locale;
    expect(locale).toMatchObject({ name, active: true, widgetFullConsentButtonText: acceptAll });
    expect(defaultProblems(locale)).toEqual([]);
    // Its own texts: none of its sentences is the English one.
    const english = await readLocale('en_US');
    for (const key of ['widgetIntroText', 'blockedContentDisclaimer', 'tcfVendorIntroText'] as const) expect(locale[key]).not.toBe(english[key]);
    for (const id of PURPOSE_IDS) expect(locale.purposeDescriptions[id]).not.toBe(english.purposeDescriptions[id]);

    const bare = name.slice(0, 2);
    const bareLocale = (await service.rest('POST', localeBase(), { name: bare })).body as Locale;
    expect({ ...bareLocale, name }).toEqual(locale);
  });

  it('starts any other language, and another region of a shipped one, from the texts of that language or English', async () => {
    const english = await readLocale('en_US');
    const german = await readLocale('de_DE');
    for (const name of ['pt_BR', 'ja', 'zh_CN', 'en_GB']) {
      const created = await service.rest('POST', localeBase(), { name });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toEqual({ ...english, name });
    }
    const austrian = await service.rest('POST', localeBase(), { name: 'de_AT' });
    expect(austrian.body).toEqual({ ...german, name: 'de_AT' });
  });
});

describe('stored locales without texts', () => {
  it('show the defaults of their language, as the rows the migration makes for existing domains do', async () => {
    const french = (await service.rest('POST', localeBase(), { name: 'fr_FR' })).body as Locale;
    expect(toLocale({ name: 'fr_CA', active: false, texts: {} })).toEqual({ ...french, name: 'fr_CA', active: false });
    const partial = toLocale({ name: 'fr', active: true, texts: { widgetTitle: 'Titre', purposeNames: { cdcbd7c: 'Pub' } } });
    expect(partial).toEqual({ ...french, name: 'fr', widgetTitle: 'Titre', purposeNames: { ...french.purposeNames, cdcbd7c: 'Pub' } });
  });
});

describe('locales over REST', () => {
  it('creates (201), reads one (200) and all (200), updates (200) and deletes (204)', async () => {
    const created = await service.rest('POST', localeBase(), { name: 'fr_FR', widgetTitle: 'Vos choix', purposeNames: { cdcbd7c: 'Pub' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'fr_FR', active: true, widgetTitle: 'Vos choix', widgetSettingsButtonText: 'Paramètres' });
    expect(created.body.purposeNames).toMatchObject({ cdcbd7c: 'Pub', '41ba25c': 'Indispensables' });

    const one = await service.rest('GET', `${localeBase()}/fr_FR`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created.body);

    const all = await service.rest('GET', localeBase());
    expect(all.status).toBe(200);
    expect(all.body.map((l: Locale) => l.name)).toEqual(['de_DE', 'en_US', 'fr_FR']);

    const updated = await service.rest('PUT', `${localeBase()}/fr_FR`, { detailsTitle: 'Détails', purposeDescriptions: { '15c61c3': 'Autre chose' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toEqual({
      ...created.body,
      detailsTitle: 'Détails',
      purposeDescriptions: { ...created.body.purposeDescriptions, '15c61c3': 'Autre chose' },
    });
    expect(await readLocale('fr_FR')).toEqual(updated.body);

    const deleted = await service.rest('DELETE', `${localeBase()}/fr_FR`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await service.rest('GET', `${localeBase()}/fr_FR`)).status).toBe(404);
    expect(await domainLocales()).toEqual(['de_DE', 'en_US']);
  });

  it('round-trips every documented property, on create and on update, and takes back what it sent', async () => {
    const first = { name: 'it_IT', active: true, ...everyText('one') };
    const created = await service.rest('POST', localeBase(), first);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual(first);
    expect(await readLocale('it_IT')).toEqual(first);

    const second = { ...everyText('two'), active: false };
    const updated = await service.rest('PUT', `${localeBase()}/it_IT`, second);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toEqual({ name: 'it_IT', ...second });
    expect(await readLocale('it_IT')).toEqual({ name: 'it_IT', ...second });

    // Read, change, PUT the whole object back (its `name` included).
    const read = await readLocale('it_IT');
    const back = await service.rest('PUT', `${localeBase()}/it_IT`, { ...read, widgetTitle: 'Titolo' });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toEqual({ ...read, widgetTitle: 'Titolo' });
  });

  it('changes only the purposes sent in a partial purposeNames', async () => {
    const before = await readLocale('de_DE');
    const answer = await service.rest('PUT', `${localeBase()}/de_DE`, { purposeNames: { a717ff5: 'Statistik' } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ ...before, purposeNames: { ...before.purposeNames, a717ff5: 'Statistik' } });
  });

  it.each([
    ['a name with a hyphen', { name: 'de-DE' }, '/name'],
    ['a name with the region first', { name: 'DE_de' }, '/name'],
    ['a whole word', { name: 'english' }, '/name'],
    ['an empty name', { name: '' }, '/name'],
    ['no name', { widgetTitle: 'x' }, '/name'],
    ['a text that is not a string', { name: 'fr_FR', widgetTitle: 42 }, '/widgetTitle'],
    ['a NUL character', { name: 'fr_FR', imprintHtmlCode: 'a\u0000b' }, '/imprintHtmlCode'],
    ['active that is not a boolean', { name: 'fr_FR', active: 'yes' }, '/active'],
    ['an unknown property', { name: 'fr_FR', colour: 'red' }, '/colour'],
    ['an unknown purpose id', { name: 'fr_FR', purposeNames: { '1234567': 'x' } }, '/purposeNames/1234567'],
    ['a purpose text that is not a string', { name: 'fr_FR', purposeDescriptions: { cdcbd7c: null } }, '/purposeDescriptions/cdcbd7c'],
    ['purpose names that are a list', { name: 'fr_FR', purposeNames: ['x'] }, '/purposeNames'],
  ])('answers 400 for %s, lists the field and stores nothing', async (_, payload, pointer) => {
    const before = await domainState(service, domain);
    const answer = await service.rest('POST', localeBase(), payload);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: '/problems/validation', status: 400 });
    expect(answer.body.errors).toContainEqual({ path: pointer, message: expect.any(String) });
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers 400 for an update with bad values or another name, and changes nothing', async () => {
    const before = await domainState(service, domain);
    const renamed = await service.rest('PUT', `${localeBase()}/de_DE`, { name: 'de_AT', widgetTitle: 'x' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.errors).toEqual([{ path: '/name', message: expect.stringContaining('de_DE') }]);
    const unknownPurpose = await service.rest('PUT', `${localeBase()}/de_DE`, { purposeNames: { nope: 'x' } });
    expect(unknownPurpose.status).toBe(400);
    expect(unknownPurpose.body.errors).toContainEqual({ path: '/purposeNames/nope', message: expect.any(String) });
    expect((await service.rest('PUT', `${localeBase()}/de_DE`, { widgetTitle: ['x'] })).status).toBe(400);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it.each(['de-DE', 'DE', 'de_de', 'deutsch', 'de_DE_x', '%20'])('answers 400 for the malformed name %s in the path on every locale route', async (name) => {
    const before = await domainState(service, domain);
    for (const [method, body] of [['GET'], ['PUT', { widgetTitle: 'x' }], ['DELETE']] as const) {
      const answer = await service.rest(method, `${localeBase()}/${name}`, body);
      expect(answer.status, `${method} ${name}: ${answer.text}`).toBe(400);
      expect(answer.body.errors).toEqual([{ path: '', message: expect.stringContaining('locale name') }]);
    }
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers 404 for a locale the domain lacks, and for an unknown domain or client, also when creating', async () => {
    for (const [method, body] of [['GET'], ['PUT', { widgetTitle: 'x' }], ['DELETE']] as const) {
      expect((await service.rest(method, `${localeBase()}/fr_FR`, body)).status, method).toBe(404);
    }
    const noDomain = { ...domain, base: `${API}/${domain.clientId}/domain/${unknownId()}` };
    const noClient = { ...domain, base: `${API}/${unknownId()}/domain/${domain.domainId}` };
    for (const path of [noDomain, noClient]) {
      expect((await service.rest('POST', localeBase(path), { name: 'fr_FR' })).status).toBe(404);
      expect((await service.rest('GET', localeBase(path))).status).toBe(404);
      expect((await service.rest('GET', `${localeBase(path)}/de_DE`)).status).toBe(404);
      expect((await service.rest('PUT', `${localeBase(path)}/de_DE`, { widgetTitle: 'x' })).status).toBe(404);
      expect((await service.rest('DELETE', `${localeBase(path)}/de_DE`)).status).toBe(404);
    }
    // An unknown domain is 404 even where the name is malformed.
    expect((await service.rest('GET', `${localeBase(noDomain)}/not-a-locale`)).status).toBe(404);
  });

  it('answers 409 for a locale the domain already has; another domain may have it', async () => {
    const again = await service.rest('POST', localeBase(), { name: 'de_DE', widgetTitle: 'twice' });
    expect(again.status).toBe(409);
    expect(again.body.type).toBe('/problems/conflict');
    expect((await readLocale('de_DE')).widgetTitle).toBe('Datenschutzeinstellungen');
    await service.rest('POST', localeBase(), { name: 'pl_PL', active: false });
    expect((await service.rest('POST', localeBase(), { name: 'pl_PL' })).status).toBe(409);
    const other = await createDomain(service, 'other.example', { clientId: domain.clientId });
    expect((await service.rest('POST', localeBase(other), { name: 'pl_PL' })).status).toBe(201);
  });

  it("answers 404 to another client's key on every locale route, and changes nothing", async () => {
    const other = await createDomain(service, 'someone-else.example');
    const key = await createApiKey(service, other.clientId, 'other');
    const asOther = service.as(key.key);
    const before = await domainState(service, domain);
    const requests: [string, string, unknown?][] = [
      ['POST', localeBase(), { name: 'fr_FR' }],
      ['GET', localeBase()],
      ['GET', `${localeBase()}/de_DE`],
      ['PUT', `${localeBase()}/de_DE`, { widgetTitle: 'mine now' }],
      ['DELETE', `${localeBase()}/de_DE`],
      ['GET', `${localeBase()}/not-a-locale`],
    ];
    for (const [method, path, body] of requests) {
      const answer = await asOther.rest(method as 'GET', path, body);
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(404);
    }
    expect(await domainState(service, domain)).toEqual(before);
  });
});

describe("the domain's `locales` and its locales stay in step", () => {
  it('locale writes change the list: create active (appended), deactivate, activate again, delete', async () => {
    await service.rest('POST', localeBase(), { name: 'es_ES' });
    expect(await domainLocales()).toEqual(['de_DE', 'en_US', 'es_ES']);
    await service.rest('POST', localeBase(), { name: 'nl_NL', active: false });
    expect(await domainLocales()).toEqual(['de_DE', 'en_US', 'es_ES']);

    expect((await service.rest('PUT', `${localeBase()}/de_DE`, { active: false })).status).toBe(200);
    expect(await domainLocales()).toEqual(['en_US', 'es_ES']);
    expect((await service.rest('PUT', `${localeBase()}/nl_NL`, { active: true })).status).toBe(200);
    expect(await domainLocales()).toEqual(['en_US', 'es_ES', 'nl_NL']);
    expect((await service.rest('PUT', `${localeBase()}/de_DE`, { active: true })).status).toBe(200);
    expect(await domainLocales()).toEqual(['en_US', 'es_ES', 'nl_NL', 'de_DE']);

    expect((await service.rest('DELETE', `${localeBase()}/es_ES`)).status).toBe(204);
    expect(await domainLocales()).toEqual(['en_US', 'nl_NL', 'de_DE']);
    expect((await readLocales()).map((l) => [l.name, l.active])).toEqual([
      ['de_DE', true],
      ['en_US', true],
      ['nl_NL', true],
    ]);
  });

  it("keeps the domain's last active locale: deactivating or deleting it is 409 and changes nothing", async () => {
    expect((await service.rest('PUT', `${localeBase()}/de_DE`, { active: false })).status).toBe(200);
    const before = await domainState(service, domain);
    expect(before.domain.locales).toEqual(['en_US']);
    const deactivate = await service.rest('PUT', `${localeBase()}/en_US`, { active: false, widgetTitle: 'changed' });
    expect(deactivate.status).toBe(409);
    expect(deactivate.body.type).toBe('/problems/conflict');
    expect((await service.rest('DELETE', `${localeBase()}/en_US`)).status).toBe(409);
    expect(await domainState(service, domain)).toEqual(before);
    // An inactive locale goes without touching the list.
    expect((await service.rest('DELETE', `${localeBase()}/de_DE`)).status).toBe(204);
    expect(await domainLocales()).toEqual(['en_US']);
  });

  it('domain writes of `locales` activate those named (creating missing ones) and deactivate the others, which keep their texts', async () => {
    await service.rest('PUT', `${localeBase()}/de_DE`, { widgetTitle: 'Meine Einstellungen' });
    const updated = await service.rest('PUT', domain.base, { locales: ['en_US', 'fr_FR'] });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.locales).toEqual(['en_US', 'fr_FR']);
    expect((await readLocales()).map((l) => [l.name, l.active])).toEqual([
      ['de_DE', false],
      ['en_US', true],
      ['fr_FR', true],
    ]);
    expect((await readLocale('fr_FR')).widgetTitle).toBe('Paramètres de confidentialité');

    await service.rest('PUT', domain.base, { locales: ['de_DE'] });
    expect((await readLocales()).map((l) => [l.name, l.active])).toEqual([
      ['de_DE', true],
      ['en_US', false],
      ['fr_FR', false],
    ]);
    expect((await readLocale('de_DE')).widgetTitle).toBe('Meine Einstellungen');

    // A domain write that does not name `locales` leaves them alone.
    await service.rest('PUT', domain.base, { country: 'DE' });
    expect((await readLocales()).filter((l) => l.active).map((l) => l.name)).toEqual(['de_DE']);
  });

  it('deletes the locales with their domain', async () => {
    const other = await createDomain(service, 'short-lived.example', { clientId: domain.clientId });
    await service.rest('POST', localeBase(other), { name: 'it_IT' });
    expect((await service.rest('DELETE', other.base)).status).toBe(204);
    expect((await service.rest('GET', localeBase(other))).status).toBe(404);
  });
});

// ── GraphQL ─────────────────────────────────────────────────────────────────

const GQL_SCOPE = 'clientId: $clientId, domainId: $domainId';
const scope = () => ({ clientId: domain.clientId, domainId: domain.domainId });
const SELECTION = `name active widgetTitle imprintUrl purposeNames { purpose text } purposeDescriptions { purpose text }`;

describe('locales over GraphQL', () => {
  it('creates, reads through the Domain, updates and deletes with the same rules as REST', async () => {
    const created = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!, $input: LocaleCreateInput!) { createLocale(${GQL_SCOPE}, input: $input) { ${SELECTION} } }`,
      { ...scope(), input: { name: 'nl_NL', widgetTitle: 'Uw keuze', purposeNames: [{ purpose: 'cdcbd7c', text: 'Reclame' }] } },
    );
    expect(created.errors).toBeUndefined();
    const locale = created.data.createLocale;
    expect(locale).toMatchObject({ name: 'nl_NL', active: true, widgetTitle: 'Uw keuze', imprintUrl: '{Firma_Impressum}' });
    expect(locale.purposeNames.map((p: { purpose: string }) => p.purpose)).toEqual(PURPOSE_IDS);
    expect(locale.purposeNames).toContainEqual({ purpose: 'cdcbd7c', text: 'Reclame' });
    expect(locale.purposeNames).toContainEqual({ purpose: '41ba25c', text: 'Noodzakelijk' });
    const rest = await readLocale('nl_NL');
    expect(rest.purposeNames.cdcbd7c).toBe('Reclame');

    const read = await service.graphql(
      `query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) { locales localeTexts { name active } locale(name: "nl_NL") { ${SELECTION} } } }`,
      { clientId: domain.clientId, id: domain.domainId },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data.domain.locales).toEqual(['de_DE', 'en_US', 'nl_NL']);
    expect(read.data.domain.localeTexts).toEqual([
      { name: 'de_DE', active: true },
      { name: 'en_US', active: true },
      { name: 'nl_NL', active: true },
    ]);
    expect(read.data.domain.locale).toEqual(locale);

    const updated = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!, $name: String!, $input: LocaleUpdateInput!) { updateLocale(${GQL_SCOPE}, name: $name, input: $input) { ${SELECTION} } }`,
      { ...scope(), name: 'nl_NL', input: { active: false, purposeDescriptions: [{ purpose: '15c61c3', text: 'Iets anders' }] } },
    );
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateLocale).toMatchObject({ active: false, widgetTitle: 'Uw keuze' });
    expect(updated.data.updateLocale.purposeDescriptions).toContainEqual({ purpose: '15c61c3', text: 'Iets anders' });
    expect(updated.data.updateLocale.purposeNames).toEqual(locale.purposeNames);
    expect(await domainLocales()).toEqual(['de_DE', 'en_US']);

    const deleted = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!, $name: String!) { deleteLocale(${GQL_SCOPE}, name: $name) }`,
      { ...scope(), name: 'nl_NL' },
    );
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data.deleteLocale).toBe('nl_NL');
    expect((await service.rest('GET', `${localeBase()}/nl_NL`)).status).toBe(404);
  });

  it('answers BAD_USER_INPUT, NOT_FOUND and CONFLICT where REST answers 400, 404 and 409', async () => {
    const create = `mutation($clientId: ID!, $domainId: ID!, $input: LocaleCreateInput!) { createLocale(${GQL_SCOPE}, input: $input) { name } }`;
    const before = await domainState(service, domain);
    const codeOf = async (query: string, variables: Record<string, unknown>) => {
      const answer = await service.graphql(query, variables);
      expect(answer.data?.[Object.keys(answer.data ?? {})[0] ?? ''] ?? null).toBeNull();
      return answer.errors?.[0]?.extensions?.code;
    };
    expect(await codeOf(create, { ...scope(), input: { name: 'de-DE' } })).toBe('BAD_USER_INPUT');
    expect(await codeOf(create, { ...scope(), input: { name: 'fr_FR', purposeNames: [{ purpose: 'nope', text: 'x' }] } })).toBe('BAD_USER_INPUT');
    expect(
      await codeOf(create, {
        ...scope(),
        input: { name: 'fr_FR', purposeNames: [{ purpose: 'cdcbd7c', text: 'a' }, { purpose: 'cdcbd7c', text: 'b' }] },
      }),
    ).toBe('BAD_USER_INPUT');
    expect(await codeOf(create, { ...scope(), input: { name: 'de_DE' } })).toBe('CONFLICT');
    const update = `mutation($clientId: ID!, $domainId: ID!, $name: String!, $input: LocaleUpdateInput!) { updateLocale(${GQL_SCOPE}, name: $name, input: $input) { name } }`;
    expect(await codeOf(update, { ...scope(), name: 'fr_FR', input: { widgetTitle: 'x' } })).toBe('NOT_FOUND');
    expect(await codeOf(update, { ...scope(), name: 'not a name', input: { widgetTitle: 'x' } })).toBe('BAD_USER_INPUT');
    expect(await codeOf(update, { ...scope(), name: 'de_DE', input: { name: 'en_US' } })).toBe('BAD_USER_INPUT');
    const remove = `mutation($clientId: ID!, $domainId: ID!, $name: String!) { deleteLocale(${GQL_SCOPE}, name: $name) }`;
    expect(await codeOf(remove, { ...scope(), name: 'it_IT' })).toBe('NOT_FOUND');
    expect(await codeOf(remove, { clientId: domain.clientId, domainId: unknownId(), name: 'de_DE' })).toBe('NOT_FOUND');
    const missing = await service.graphql(
      `query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) { locale(name: "fr_FR") { name } } }`,
      { clientId: domain.clientId, id: domain.domainId },
    );
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(await domainState(service, domain)).toEqual(before);
  });
});

describe('the OpenAPI document', () => {
  it('describes every property of Locale, LocaleCreate and LocaleUpdate, down to each purpose', async () => {
    const answer = await service.as(null).rest('GET', '/openapi.json');
    expect(answer.status).toBe(200);
    const schemas = answer.body.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    const undescribed: string[] = [];
    const walk = (schema: { properties?: Record<string, unknown> }, path: string) => {
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        const value = property as { description?: string; properties?: Record<string, unknown> };
        if (!value.description) undescribed.push(`${path}.${key}`);
        walk(value, `${path}.${key}`);
      }
    };
    for (const name of ['Locale', 'LocaleCreate', 'LocaleUpdate']) {
      expect(Object.keys(schemas[name]?.properties ?? {}).sort(), name).toEqual(
        ['name', 'active', ...DOCUMENTED_TEXTS, 'purposeNames', 'purposeDescriptions'].sort(),
      );
      walk(schemas[name]!, name);
    }
    expect(undescribed).toEqual([]);
  });
});
