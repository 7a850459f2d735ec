import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FINDINGS_PER_DOMAIN } from '../../../src/features/script-findings/script-finding.contract.ts';
import { hostileValue, jsonOf, oddPathSegment } from '../../support/arbitraries.ts';
import type { TestService } from '../../support/service.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';
import type { DomainPath } from '../../support/fixtures.ts';

/** The domain's site (createDomain's default name): pages of it may report. */
const PAGE = 'https://www.example.org/shop/cart?session=secret#top';

type Finding = { scriptUrl: string; pagePath: string; firstSeenAt: string; lastSeenAt: string; timesSeen: number };

const reportTo = (service: TestService) => (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${service.baseUrl}/script-report`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://www.example.org', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function findings(service: TestService, domain: DomainPath): Promise<Finding[]> {
  const answer = await service.rest('GET', `${domain.base}/script-findings`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

const storedRows = async (service: TestService, domainId: string) =>
  (await service.database.orm.em.fork().getConnection().execute<{ n: string | number }[]>(`select count(*) as "n" from "script_finding" where "domain_id" = ?`, [domainId]))[0]!.n;

/**
 * POST /script-report: the banner's report of scripts no embedding knows (recordScriptsOnWebsite),
 * and the findings the operators read (REST and GraphQL). The same abuse handling as POST /consent:
 * body limits, a rate limit per address, canonical ids; and only pages of the domain's site may report.
 */
describe('script findings from the banner', () => {
  // The visitor is its address: X-Forwarded-For lets one test be several visitors.
  const { service, domain, client } = useServiceWithDomain({ service: { trustProxy: true } });
  const report = (body: unknown, headers: Record<string, string> = {}) => reportTo(service)(body, headers);
  const sent = (overrides: Record<string, unknown> = {}) => ({
    domain: domain.domainId,
    url: PAGE,
    scripts: ['https://cdn.unknown-widgets.test/w.js?user=42#x', 'https://www.example.org/assets/app.js'],
    ...overrides,
  });

  it('stores the scripts without query, with the page path only, and shows them through REST and GraphQL', async () => {
    const answer = await report(sent());
    expect(answer.status, await answer.text()).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');

    const listed = await findings(service, domain);
    expect(listed.map((finding) => finding.scriptUrl).sort()).toEqual(['https://cdn.unknown-widgets.test/w.js', 'https://www.example.org/assets/app.js']);
    for (const finding of listed) {
      expect(finding).toMatchObject({ pagePath: '/shop/cart', timesSeen: 1 });
      expect(finding.firstSeenAt).toBe(finding.lastSeenAt);
    }
    expect(JSON.stringify(listed)).not.toMatch(/session|secret|user=42/);

    const graphql = await service.graphql<{ client: { domain: { scriptFindings: Finding[] } } }>(
      `query($clientId: ID!, $id: ID!) { client(id: $clientId) { domain(id: $id) { scriptFindings { scriptUrl pagePath firstSeenAt lastSeenAt timesSeen } } } }`,
      { clientId: client.id, id: domain.domainId },
    );
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data?.client.domain.scriptFindings).toEqual(listed);
  });

  it('counts a visitor once per session and a script once whatever its query; keeps the first page', async () => {
    const first = sent({ scripts: ['https://cdn.unknown-widgets.test/w.js?a=1', 'https://cdn.unknown-widgets.test/w.js?a=2'] });
    expect((await report(first, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(204);
    expect((await report(sent({ url: 'https://www.example.org/other', scripts: ['https://cdn.unknown-widgets.test/w.js'] }), { 'x-forwarded-for': '198.51.100.7' })).status).toBe(204);
    let [finding] = await findings(service, domain);
    expect(finding).toMatchObject({ scriptUrl: 'https://cdn.unknown-widgets.test/w.js', timesSeen: 1, pagePath: '/shop/cart' });

    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await report(sent({ url: 'https://www.example.org/other', scripts: ['https://cdn.unknown-widgets.test/w.js'] }), { 'x-forwarded-for': '203.0.113.9' })).status).toBe(204);
    const before = finding!;
    [finding] = await findings(service, domain);
    expect(finding).toMatchObject({ timesSeen: 2, pagePath: '/shop/cart', firstSeenAt: before.firstSeenAt });
    expect(Date.parse(finding!.lastSeenAt)).toBeGreaterThan(Date.parse(before.lastSeenAt));
  });

  it('takes the domain id in any case, as one domain (a visitor still counts once)', async () => {
    expect((await report(sent({ domain: domain.domainId.toUpperCase() }))).status).toBe(204);
    expect((await report(sent({ domain: domain.domainId.toLowerCase() }))).status).toBe(204);
    const listed = await findings(service, domain);
    expect(listed).toHaveLength(2);
    expect(listed.map((finding) => finding.timesSeen)).toEqual([1, 1]);
  });

  it('refuses pages and origins not on the domain’s site, and takes its subdomains and consent-sharing domains', async () => {
    const foreignPage = await report(sent({ url: 'https://evil.test/shop' }));
    expect(foreignPage.status).toBe(403);
    expect(foreignPage.headers.get('content-type')).toMatch(/problem\+json/);
    expect((await report(sent(), { origin: 'https://evil.test' })).status).toBe(403);
    expect((await report(sent(), { origin: 'null' })).status).toBe(403);
    expect((await report(sent({ url: 'https://www.example.org.evil.test/' }))).status).toBe(403);
    expect(await storedRows(service, domain.domainId)).toEqual(expect.toSatisfy((n) => Number(n) === 0));

    expect((await report(sent({ url: 'https://shop.example.org/a' }), { origin: 'https://shop.example.org' })).status).toBe(204);
    expect((await service.rest('PUT', domain.base, { consentSharingDomains: ['partner.test'] })).status).toBe(200);
    expect((await report(sent({ url: 'https://partner.test/x', scripts: ['https://a.test/b.js'] }), { origin: 'https://partner.test' })).status).toBe(204);
    expect(await findings(service, domain)).toHaveLength(3);
  });

  it('refuses every report while the domain does not record scripts, and reads an unknown domain as 404', async () => {
    expect((await service.rest('PUT', domain.base, { recordScriptsOnWebsite: false })).status).toBe(200);
    const refused = await report(sent());
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/recordScriptsOnWebsite/);
    expect(await findings(service, domain)).toEqual([]);
    expect((await service.rest('PUT', domain.base, { recordScriptsOnWebsite: true })).status).toBe(200);
    expect((await report(sent())).status).toBe(204);

    expect((await report(sent({ domain: '01900000-0000-7000-8000-000000000000' }))).status).toBe(404);
    expect((await service.rest('GET', `/hosting/api/client/${client.id}/domain/01900000-0000-7000-8000-000000000000/script-findings`)).status).toBe(404);
  });

  it('holds a report to its limits: 25 scripts of at most 1024 characters, 32 KiB, http(s) only', async () => {
    const many = Array.from({ length: 26 }, (_, index) => `https://cdn.test/${index}.js`);
    const tooMany = await report(sent({ scripts: many }));
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).errors).toEqual([expect.objectContaining({ path: '/scripts' })]);
    expect((await report(sent({ scripts: [`https://cdn.test/${'a'.repeat(1_020)}.js`] }))).status).toBe(400);
    expect((await report(sent({ scripts: ['javascript:alert(1)'] }))).status).toBe(400);
    expect((await report(sent({ scripts: [] }))).status).toBe(400);
    expect((await report(sent({ url: 'ftp://www.example.org/' }))).status).toBe(400);
    expect((await report(sent({ extra: true }))).status).toBe(400);
    expect((await report(`${JSON.stringify(sent()).slice(0, -1)}, "pad": "${'x'.repeat(33 * 1024)}"}`)).status).toBe(413);
    expect((await report('{"domain":')).status).toBe(400);
    expect((await fetch(`${service.baseUrl}/script-report`)).status).toBe(405);
    expect(Number(await storedRows(service, domain.domainId))).toBe(0);
  });

  it(`keeps at most ${MAX_FINDINGS_PER_DOMAIN} findings a domain, dropping those seen longest ago`, async () => {
    const reports = Math.ceil((MAX_FINDINGS_PER_DOMAIN + 20) / 25);
    for (let batch = 0; batch < reports; batch++) {
      const scripts = Array.from({ length: 25 }, (_, index) => `https://cdn.test/${batch}/${index}.js`);
      expect((await report(sent({ scripts }))).status).toBe(204);
    }
    const listed = await findings(service, domain);
    expect(listed).toHaveLength(MAX_FINDINGS_PER_DOMAIN);
    expect(listed.some((finding) => finding.scriptUrl.startsWith('https://cdn.test/0/'))).toBe(false);
    expect(listed[0]!.scriptUrl.startsWith(`https://cdn.test/${reports - 1}/`)).toBe(true);
  });

  it('answers any malformed report with a 4xx and stores nothing (property)', async () => {
    const valid = sent();
    /** The report as JSON text with one field's value replaced by raw JSON (deeply nested values stay text). */
    const withField = (name: string, json: string) =>
      `{${(['domain', 'url', 'scripts'] as const).map((key) => `${JSON.stringify(key)}: ${key === name ? json : JSON.stringify(valid[key])}`).join(', ')}}`;
    const field = fc.constantFrom('domain', 'url', 'scripts');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          hostileValue.map((tree) => jsonOf(tree)),
          fc.tuple(field, hostileValue).map(([name, tree]) => withField(name, jsonOf(tree))),
          fc.array(hostileValue, { minLength: 1, maxLength: 3 }).map((trees) => withField('scripts', `[${trees.map(jsonOf).join(', ')}]`)),
          fc.tuple(field, hostileValue).map(([name, tree]) => `${withField('', '').slice(0, -1)}, ${JSON.stringify(name)}: ${jsonOf(tree)}}`),
        ),
        async (body) => {
          const answer = await report(body);
          await answer.arrayBuffer();
          expect([400, 403, 404, 413]).toContain(answer.status);
        },
      ),
      { numRuns: 60 },
    );
    expect(Number(await storedRows(service, domain.domainId))).toBe(0);
  });

  it('answers odd domain ids in the findings path with 400 or 404 (property)', async () => {
    await fc.assert(
      fc.asyncProperty(oddPathSegment, async (segment) => {
        const answer = await service.raw({ method: 'GET', path: `/hosting/api/client/${client.id}/domain/${segment}/script-findings` });
        expect([400, 404]).toContain(answer.status);
      }),
      { numRuns: 30 },
    );
  });
});

describe('the script reports of one address', () => {
  const { service, domain } = useServiceWithDomain({ service: { scriptReportsPerMinutePerAddress: 3 } });

  it('are limited per minute (429 with Retry-After)', async () => {
    const report = reportTo(service);
    const body = { domain: domain.domainId, url: PAGE, scripts: ['https://cdn.test/a.js'] };
    for (let sent = 0; sent < 3; sent++) expect((await report(body)).status).toBe(204);
    const limited = await report(body);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
