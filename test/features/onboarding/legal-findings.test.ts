import { describe, expect, it } from 'vitest';
import { createApiKey, createDomain, domainState } from '../../support/fixtures.ts';
import type { TestClient } from '../../support/service.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/** applyLegalFindings: a scan's findings about the operator become the placeholders the banner texts use. */

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
