import { describe, expect, it } from 'vitest';
import { API, createApiKey, createClient, createDomain, domainState, unknownId } from '../../support/fixtures.ts';
import type { TestClient } from '../../support/service.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * applyLegalFindings (GraphQL) and PUT …/onboarding/legalFindings (REST): a scan's findings about
 * the operator become the placeholders the banner texts use, and Domain.missingPlaceholders (and
 * the REST answer) tells which placeholders the texts of the active locales still lack.
 */

const { service, domain } = useServiceWithDomain();

const APPLY = `mutation($clientId: ID!, $domainId: ID!, $findings: OnboardingLegalFindingsInput!) {
  applyLegalFindings(clientId: $clientId, domainId: $domainId, findings: $findings) { name value } }`;

const apply = (findings: unknown, as: TestClient = service) =>
  as.graphql(APPLY, { clientId: domain.clientId, domainId: domain.domainId, findings });

/** The address and legal pages as a scan of a site answers them. */
const SCANNED = {
  address: { company: 'Beispiel Bäckerei GmbH', street: 'Hauptstraße 1', zipCode: '53111', city: 'Bonn' },
  imprintUrl: 'https://www.example.org/impressum',
  privacyPolicyUrl: 'https://www.example.org/datenschutz',
};

/** The domain's placeholders, by name. */
const placeholders = async () =>
  ((await service.rest('GET', `${domain.base}/placeholder`)).body as { name: string; value: string }[]).sort((a, b) => a.name.localeCompare(b.name));

describe('applyLegalFindings', () => {
  it("fills {FIRMA}, {Firma_Ort}, {Firma_Impressum} and {Firma_Datenschutz} from a scan's findings, and answers them", async () => {
    const answer = await apply(SCANNED);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.applyLegalFindings).toEqual([
      { name: 'FIRMA', value: 'Beispiel Bäckerei GmbH' },
      { name: 'Firma_Ort', value: 'Bonn' },
      { name: 'Firma_Impressum', value: 'https://www.example.org/impressum' },
      { name: 'Firma_Datenschutz', value: 'https://www.example.org/datenschutz' },
    ]);
    expect(await placeholders()).toEqual(
      expect.arrayContaining([
        { name: 'FIRMA', value: 'Beispiel Bäckerei GmbH' },
        { name: 'Firma_Ort', value: 'Bonn' },
        { name: 'Firma_Impressum', value: 'https://www.example.org/impressum' },
        { name: 'Firma_Datenschutz', value: 'https://www.example.org/datenschutz' },
      ]),
    );
    expect(await placeholders()).toHaveLength(4);
  });

  it('fills the placeholders the default texts of a new domain refer to, so its banner links to the scanned pages', async () => {
    await apply(SCANNED);
    const german = (await service.rest('GET', `${domain.base}/locale/de_DE`)).body;
    const names = new Set((await placeholders()).map(({ name }) => name));
    expect(german.imprintUrl).toBe('{Firma_Impressum}');
    expect(german.privacyPolicyUrl).toBe('{Firma_Datenschutz}');
    for (const [, name] of `${german.imprintUrl} ${german.privacyPolicyUrl}`.matchAll(/\{(\w+)\}/g)) expect(names).toContain(name);
  });

  it('replaces the values of those placeholders, leaves what was not found and every other placeholder as it is', async () => {
    await service.rest('PUT', `${domain.base}/placeholder`, [
      { name: 'FIRMA', value: 'Old Name' },
      { name: 'Firma_Datenschutz', value: 'https://old.example/privacy' },
      { name: 'opening_hours', value: 'Mo–Fr 8–18' },
    ]);
    const answer = await apply({ address: { company: 'New Name', street: null, zipCode: null, city: null }, imprintUrl: 'https://new.example/imprint', privacyPolicyUrl: null });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.applyLegalFindings).toEqual([
      { name: 'FIRMA', value: 'New Name' },
      { name: 'Firma_Impressum', value: 'https://new.example/imprint' },
    ]);
    expect(await placeholders()).toEqual([
      { name: 'FIRMA', value: 'New Name' },
      { name: 'Firma_Datenschutz', value: 'https://old.example/privacy' },
      { name: 'Firma_Impressum', value: 'https://new.example/imprint' },
      { name: 'opening_hours', value: 'Mo–Fr 8–18' },
    ]);
  });

  it('writes nothing for findings that are all missing (a scan that found no legal pages)', async () => {
    const answer = await apply({ address: { company: null, street: null, zipCode: null, city: '  ' }, imprintUrl: null, privacyPolicyUrl: null });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.applyLegalFindings).toEqual([]);
    expect(await placeholders()).toEqual([]);
  });

  it('refuses a URL that is not an absolute http(s) URL, and a text with NUL, with a pointer each; nothing is stored', async () => {
    const before = await domainState(service, domain);
    const answer = await apply({ ...SCANNED, imprintUrl: 'javascript:alert(1)', address: { ...SCANNED.address, company: 'A\u0000B' } });
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0]?.extensions?.errors).toEqual(
      expect.arrayContaining([
        { path: '/imprintUrl', message: 'must be an absolute http(s) URL' },
        expect.objectContaining({ path: '/address/company' }),
      ]),
    );
    expect(await domainState(service, domain)).toEqual(before);
  });

  it("answers NOT_FOUND to another client's key and writes nothing into the domain", async () => {
    const other = await createDomain(service, 'other.example');
    const { key } = await createApiKey(service, other.clientId, 'intruder');
    const answer = await apply(SCANNED, service.as(key));
    expect(answer.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(await placeholders()).toEqual([]);
  });
});

/** The placeholders the default texts of every shipped language refer to, sorted as the service sorts them. */
const DEFAULT_REFERENCES = ['FIRMA', 'Firma_Datenschutz', 'Firma_Impressum', 'Firma_Ort'];

const putFindings = (findings: unknown, path = `${domain.base}/onboarding/legalFindings`, as: TestClient = service) => as.rest('PUT', path, findings);

/** Domain.missingPlaceholders, read through GraphQL. */
async function missingInGraphql(): Promise<string[]> {
  const answer = await service.graphql('query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) { missingPlaceholders } }', {
    c: domain.clientId,
    d: domain.domainId,
  });
  expect(answer.errors).toBeUndefined();
  return answer.data.domain.missingPlaceholders;
}

describe('PUT …/onboarding/legalFindings', () => {
  it('writes the placeholders and answers them with the ones the banner still misses: all four for a new domain before, none after a full finding', async () => {
    expect(await missingInGraphql()).toEqual(DEFAULT_REFERENCES);
    const answer = await putFindings(SCANNED);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      placeholders: [
        { name: 'FIRMA', value: 'Beispiel Bäckerei GmbH' },
        { name: 'Firma_Ort', value: 'Bonn' },
        { name: 'Firma_Impressum', value: 'https://www.example.org/impressum' },
        { name: 'Firma_Datenschutz', value: 'https://www.example.org/datenschutz' },
      ],
      missingPlaceholders: [],
    });
    expect(await placeholders()).toHaveLength(4);
    expect(await missingInGraphql()).toEqual([]);
  });

  it('names what a partial finding leaves missing, and GraphQL agrees', async () => {
    const answer = await putFindings({ address: null, imprintUrl: 'https://www.example.org/impressum', privacyPolicyUrl: null });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      placeholders: [{ name: 'Firma_Impressum', value: 'https://www.example.org/impressum' }],
      missingPlaceholders: ['FIRMA', 'Firma_Datenschutz', 'Firma_Ort'],
    });
    expect(await missingInGraphql()).toEqual(answer.body.missingPlaceholders);
    // What the scan found nothing for, the operator adds by hand: then nothing is missing.
    expect((await service.rest('POST', `${domain.base}/placeholder`, { name: 'FIRMA', value: 'Beispiel GmbH' })).status).toBe(201);
    expect((await service.rest('POST', `${domain.base}/placeholder`, { name: 'Firma_Ort', value: 'Bonn' })).status).toBe(201);
    expect((await service.rest('POST', `${domain.base}/placeholder`, { name: 'Firma_Datenschutz', value: 'https://www.example.org/datenschutz' })).status).toBe(201);
    expect(await missingInGraphql()).toEqual([]);
  });

  it('counts a placeholder defined as empty (or blank) as missing', async () => {
    await service.rest('PUT', `${domain.base}/placeholder`, [
      { name: 'FIRMA', value: '' },
      { name: 'Firma_Ort', value: '   ' },
    ]);
    const answer = await putFindings({ imprintUrl: 'https://www.example.org/impressum', privacyPolicyUrl: 'https://www.example.org/datenschutz' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.missingPlaceholders).toEqual(['FIRMA', 'Firma_Ort']);
  });

  it("reads every text of the domain's active locales, purpose texts too, and no inactive locale", async () => {
    await putFindings(SCANNED);
    // An active locale's own texts, with references of their own ({a:b} is no name a placeholder can have).
    const german = await service.rest('PUT', `${domain.base}/locale/de_DE`, {
      widgetIntroText: 'Fragen? {Hotline} hilft, {Hotline} ist werktags da. JSON wie {a:b} ist kein Platzhalter.',
      purposeDescriptions: { a717ff5: 'Statistik für {Abteilung}' },
    });
    expect(german.status, german.text).toBe(200);
    // An inactive locale: what it refers to is not shown, so not missing.
    const french = await service.rest('POST', `${domain.base}/locale`, { name: 'fr_FR', active: false, widgetTitle: 'Bienvenue chez {Marque}' });
    expect(french.status, french.text).toBe(201);
    expect(await missingInGraphql()).toEqual(['Abteilung', 'Hotline']);

    expect((await service.rest('PUT', `${domain.base}/locale/fr_FR`, { active: true })).status).toBe(200);
    expect(await missingInGraphql()).toEqual(['Abteilung', 'Hotline', 'Marque']);
    const again = await putFindings(SCANNED);
    expect(again.body.missingPlaceholders).toEqual(['Abteilung', 'Hotline', 'Marque']);

    // Switching German off drops what only German refers to.
    expect((await service.rest('PUT', `${domain.base}/locale/de_DE`, { active: false })).status).toBe(200);
    expect(await missingInGraphql()).toEqual(['Marque']);
  });

  it.each([
    ['a URL that is not http(s)', { ...SCANNED, imprintUrl: 'javascript:alert(1)' }, ['/imprintUrl']],
    ['an unknown property', { ...SCANNED, phone: '0228 123' }, ['/phone']],
    ['a company that is not a text', { ...SCANNED, address: { ...SCANNED.address, company: 42 } }, ['/address/company']],
    ['an array instead of an object', [SCANNED], ['']],
  ])('answers 400 for %s, with a pointer, and stores nothing', async (_, body, paths) => {
    const before = await domainState(service, domain);
    const answer = await putFindings(body);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.errors.map((error: { path: string }) => error.path)).toEqual(paths);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers 404 for an unknown domain or client, and for the domain of another client', async () => {
    expect((await putFindings(SCANNED, `${API}/${domain.clientId}/domain/${unknownId()}/onboarding/legalFindings`)).status).toBe(404);
    expect((await putFindings(SCANNED, `${API}/${unknownId()}/domain/${domain.domainId}/onboarding/legalFindings`)).status).toBe(404);
    const other = await createClient(service);
    expect((await putFindings(SCANNED, `${API}/${other.id}/domain/${domain.domainId}/onboarding/legalFindings`)).status).toBe(404);
    expect(await placeholders()).toEqual([]);
  });
});
