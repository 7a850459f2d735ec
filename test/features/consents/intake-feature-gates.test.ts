import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API, embeddingPayload, themePayload } from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/**
 * Loose ends of the consent intake (POST /consent):
 * - it judges a record's page within the client's feature switches, as the banner does: while the
 *   administrator has `canUseConsentSharing` off, a consent-sharing domain's page is not the
 *   domain's own, and turning the switch back on counts it again (no restart, same revision);
 * - a record carries whether the theme's `manipulationPrevention` guarded the banner, and the
 *   log, its CSV and the proof of consent show it.
 */
describe('the consent intake within the client’s features', () => {
  const { service, domain } = useServiceWithDomain({ service: { consentsPerMinutePerAddress: 1_000 } });

  const newestRevision = async () => {
    const answer = await service.rest('GET', `${domain.base}/revision?limit=1`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body.revisions[0].hash as string;
  };
  const setFeatures = async (features: Record<string, boolean>) => {
    const answer = await service.rest('PUT', `${API}/${domain.clientId}`, { features });
    expect(answer.status, answer.text).toBe(200);
  };
  const post = (body: Record<string, unknown>) =>
    fetch(`${service.baseUrl}/consent`, { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: JSON.stringify(body) });
  const record = (revision: string, overrides: Record<string, unknown> = {}) => ({
    domain: domain.domainId,
    consentId: randomUUID(),
    choice: 'necessary',
    categories: ['necessary'],
    services: [],
    revision,
    locale: 'de_DE',
    url: 'https://www.partner.example/shop',
    ...overrides,
  });
  const originMatches = async (consentId: string) => {
    const log = await service.rest('GET', `${domain.base}/consent/${consentId}`);
    expect(log.status, log.text).toBe(200);
    return log.body[0].originMatches as boolean;
  };

  it("does not count a consent-sharing domain's page as the domain's while canUseConsentSharing is off", async () => {
    expect((await service.rest('PUT', domain.base, { consentSharingDomains: ['partner.example'] })).status).toBe(200);
    const revision = await newestRevision();
    const before = record(revision);
    expect((await post(before)).status).toBe(201);
    expect(await originMatches(before.consentId), 'with the feature on: a page of the shared site').toBe(true);

    await setFeatures({ canUseConsentSharing: false });
    // The banner shares nothing now, so its page there is a foreign page; the revision is the same.
    expect(await newestRevision()).toBe(revision);
    const off = record(revision);
    expect((await post(off)).status).toBe(201);
    expect(await originMatches(off.consentId), 'with the feature off').toBe(false);
    const own = record(revision, { url: 'https://www.example.org/' });
    expect((await post(own)).status).toBe(201);
    expect(await originMatches(own.consentId), "the domain's own page still is").toBe(true);

    await setFeatures({ canUseConsentSharing: true });
    const on = record(revision);
    expect((await post(on)).status).toBe(201);
    expect(await originMatches(on.consentId), 'with the feature on again').toBe(true);
  });

  it('keeps whether manipulationPrevention guarded the banner, and shows it in the log, the CSV and the proof', async () => {
    const embedding = await service.rest('POST', `${domain.base}/embedding`, embeddingPayload());
    expect(embedding.status, embedding.text).toBe(201);
    const theme = await service.rest('POST', `${domain.base}/theme`, themePayload({ default: true, manipulationPrevention: true }));
    expect(theme.status, theme.text).toBe(201);
    const revision = await newestRevision();

    // (What the banner sends is proven in the browser: test/features/banner/loose-ends.test.ts.)
    const on = record(revision, { url: 'https://www.example.org/', manipulationPrevention: true });
    const off = record(revision, { url: 'https://www.example.org/' });
    expect((await post(on)).status).toBe(201);
    expect((await post(off)).status).toBe(201);
    // Validated like every field.
    const bad = await post(record(revision, { manipulationPrevention: 'yes' }));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('/manipulationPrevention');

    const logOn = await service.rest('GET', `${domain.base}/consent/${on.consentId}`);
    expect(logOn.body[0]).toMatchObject({ manipulationPrevention: true });
    const logOff = await service.rest('GET', `${domain.base}/consent/${off.consentId}`);
    expect(logOff.body[0]).toMatchObject({ manipulationPrevention: false });
    const gql = await service.graphql(`query($c: ID!, $d: ID!, $id: String!) { domain(clientId: $c, id: $d) { consent(consentId: $id) { manipulationPrevention } } }`, {
      c: domain.clientId,
      d: domain.domainId,
      id: on.consentId,
    });
    expect(gql.data?.domain.consent, JSON.stringify(gql.errors)).toEqual([{ manipulationPrevention: true }]);

    const day = new Date().toISOString().slice(0, 10);
    const csv = await service.raw({ method: 'GET', path: `${domain.base}/consent/export?from=${day}` });
    const lines = csv.text.trim().split(/\r?\n/);
    const header = lines[0]!.split(',');
    const column = header.indexOf('manipulation_prevention');
    expect(column).toBeGreaterThan(-1);
    const cell = (consentId: string) => lines.find((line) => line.includes(consentId))!.split(',')[column];
    expect([cell(on.consentId), cell(off.consentId)]).toEqual(['true', 'false']);

    const proof = await service.rest('GET', `${domain.base}/consent/${on.consentId}/evidence`);
    expect(proof.status, proof.text).toBe(200);
    expect(proof.body.record).toMatchObject({ manipulationPrevention: true });
    const html = await service.raw({ method: 'GET', path: `${domain.base}/consent/${on.consentId}/evidence.html` });
    expect(html.text).toContain('<dt>Manipulation prevention</dt><dd>on:');
    const htmlOff = await service.raw({ method: 'GET', path: `${domain.base}/consent/${off.consentId}/evidence.html` });
    expect(htmlOff.text).toContain('<dt>Manipulation prevention</dt><dd>off');
  });
});
