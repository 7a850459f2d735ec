import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComplianceFinding, ComplianceScan } from '../../../src/features/compliance/compliance-scan.contract.ts';
import { dnsEgressPolicy } from '../../../src/scanner/address-policy.ts';
import { createSharedBrowser } from '../../../src/scanner/browser.ts';
import { createScanner, DEFAULT_SCAN_LIMITS } from '../../../src/scanner/scan.ts';
import { API, createDomain, type DomainPath, unknownId } from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';
import { until } from '../../support/until.ts';
import { type ConsentSites, SITES, type SiteName, startConsentSites, VENDOR_HOST } from './consent-sites.ts';

/**
 * The compliance scan: a site visited as three fresh visitors — no choice, "reject all", "accept
 * all" clicked in the real banner the service serves — through REST and GraphQL, against a
 * domain configured as an operator would (a necessary embedding, an analytics embedding with a
 * marker on its tracker and its `_ga` declared). One service, one browser, short waits.
 */

let service: TestService;
let sites: ConsentSites;
let receiver: Server;
let receiverUrl: string;
type Delivery = { headers: IncomingHttpHeaders; body: string };
const deliveries: Delivery[] = [];

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

beforeAll(async () => {
  sites = await startConsentSites();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  receiverUrl = `${await listen(receiver)}/hooks/consent`;
  const scanner = createScanner({
    browser: createSharedBrowser(),
    policy: sites.policy,
    limits: { ...DEFAULT_SCAN_LIMITS, pageLimit: 2, navigationTimeoutMs: 4_000, loadTimeoutMs: 1_500, pageWaitMs: 300, startPageWaitMs: 600, graceMs: 300, totalTimeoutMs: 20_000 },
  });
  service = await startTestService({
    scanner,
    // The banner comes from this service, which the scanner's browser reaches on loopback.
    publicBaseUrl: 'self',
    permanentScan: { intervalMs: 60_000, sweepEveryMs: 300 },
    webhookPolicy: dnsEgressPolicy({ allowPrivate: true }),
  });
  sites.allowService(Number(new URL(service.baseUrl).port));
}, 120_000);

afterAll(async () => {
  await service?.close();
  await sites?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

type Configured = DomainPath & { necessaryId: string; analyticsId: string };

/** A domain for the site, configured as an operator would, and the snippet its pages carry (if any). */
async function configuredDomain(site: SiteName, { snippet = true } = {}): Promise<Configured> {
  const domain = await createDomain(service, `http://${SITES[site]}/`);
  const created = async (body: unknown) => {
    const answer = await service.rest('POST', `${domain.base}/embedding`, body);
    expect(answer.status, answer.text).toBe(201);
    return answer.body.id as string;
  };
  const necessaryId = await created({ name: 'Shop session', purpose: '41ba25c', assets: [{ name: 'site_session', lifetime: 'session' }] });
  const analyticsId = await created({
    name: 'Tracker Analytics',
    purpose: 'a717ff5',
    vendor: 'Tracker Inc.',
    scriptMarkers: [`${VENDOR_HOST}/t.js`],
    iframeMarkers: [`${VENDOR_HOST}/frame`],
    assets: [{ name: '_ga', lifetime: '2 years' }],
  });
  const embed = await service.rest('GET', `${domain.base}/onboarding/embed`);
  expect(embed.status, embed.text).toBe(200);
  sites.snippets[site] = snippet ? embed.body.default : '';
  return { ...domain, necessaryId, analyticsId };
}

/** The domain's newest configuration revision. */
async function newestRevision(domain: DomainPath): Promise<{ number: number; hash: string }> {
  const answer = await service.rest('GET', `${domain.base}/revision?limit=1`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.revisions[0];
}

async function untilEnded(domain: DomainPath, id: string): Promise<ComplianceScan> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const answer = await service.rest('GET', `${domain.base}/complianceScan/${id}`);
    expect(answer.status, answer.text).toBe(200);
    if (answer.body.status === 'succeeded' || answer.body.status === 'failed') return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`compliance scan ${id} did not end within a minute`);
}

const namesOf = (items: { name: string }[]) => items.map((item) => item.name);
const short = (finding: ComplianceFinding) => [finding.state, finding.kind, finding.name ?? finding.host, finding.embeddingName];

describe('a compliance scan', () => {
  it('of a site whose tracker the banner holds: clean, the tracker held back before consent and after "reject all", running after "accept all" (REST)', async () => {
    const domain = await configuredDomain('held');
    const started = await service.rest('POST', `${domain.base}/complianceScan`);
    expect(started.status, started.text).toBe(201);
    expect(started.headers.get('location')).toBe(`${domain.base}/complianceScan/${started.body.id}`);
    expect(started.body).toMatchObject({ domainId: domain.domainId, trigger: 'job', status: 'queued', url: `http://${SITES.held}/`, verdict: null, findings: [], states: null });
    // One at a time per domain.
    const again = await service.rest('POST', `${domain.base}/complianceScan`);
    expect(again.status, again.text).toBe(409);
    expect(again.body.detail).toContain(started.body.id);

    const scan = await untilEnded(domain, started.body.id);
    expect(scan.status, JSON.stringify(scan.error)).toBe('succeeded');
    expect(scan.findings).toEqual([]);
    expect(scan).toMatchObject({ verdict: 'clean', findingCount: 0, site: 'held.test', bannerOrigin: service.baseUrl });
    // Tied to the revision the banner showed, which is the domain's newest.
    const revision = await newestRevision(domain);
    expect(scan.revision).toBe(revision.hash);
    expect(scan.revisionNumber).toBe(revision.number);
    const { beforeConsent, afterReject, afterAcceptAll } = scan.states!;
    for (const state of [beforeConsent, afterReject, afterAcceptAll]) expect(state.revision).toBe(revision.hash);

    // Before consent: asked on both pages, the tracker held back (never requested), only the necessary cookie.
    expect(beforeConsent).toMatchObject({ choice: null, clicked: false, bannerShown: true });
    expect(beforeConsent.pages.map((page) => [new URL(page.url).pathname, page.status, page.bannerShown])).toEqual([
      ['/', 200, true],
      ['/about', 200, true],
    ]);
    expect(namesOf(beforeConsent.cookies)).toEqual(['site_session']);
    expect(beforeConsent.cookies[0]).toMatchObject({ party: 'first', owner: 'embedding', embeddingName: 'Shop session', declared: true, needsConsent: false });
    expect(beforeConsent.heldBack).toContainEqual(
      expect.objectContaining({ element: 'script', src: `http://${VENDOR_HOST}/t.js`, owner: 'embedding', embeddingId: domain.analyticsId, needsConsent: true }),
    );
    expect(beforeConsent.requests.filter((request) => request.host === VENDOR_HOST)).toEqual([]);
    expect(beforeConsent.services).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ embeddingId: domain.analyticsId, status: 'held-back', needsConsent: true }),
        expect.objectContaining({ embeddingId: domain.necessaryId, status: 'ran', needsConsent: false }),
      ]),
    );

    // After "reject all": not asked again on the next page, the tracker still held back; where the
    // banner keeps the choice (the domain's default: localStorage) is the banner's.
    expect(afterReject).toMatchObject({ choice: 'necessary', clicked: true, bannerShown: true });
    expect(afterReject.pages.map((page) => page.bannerShown)).toEqual([true, false]);
    expect(namesOf(afterReject.cookies)).toEqual(['site_session']);
    expect(afterReject.storage).toEqual([expect.objectContaining({ storageType: 'localStorage', origin: `http://${SITES.held}`, owner: 'banner', needsConsent: false })]);
    expect(beforeConsent.storage).toEqual([]);
    expect(afterReject.services.find((service) => service.embeddingId === domain.analyticsId)?.status).toBe('held-back');

    // After "accept all": the tracker runs and sets its cookie; nothing of it is a finding.
    expect(afterAcceptAll).toMatchObject({ choice: 'all', clicked: true });
    expect(afterAcceptAll.cookies).toContainEqual(
      expect.objectContaining({ name: '_ga', owner: 'embedding', embeddingId: domain.analyticsId, embeddingName: 'Tracker Analytics', purpose: 'a717ff5', declared: true, needsConsent: true }),
    );
    expect(afterAcceptAll.requests).toContainEqual(
      expect.objectContaining({ host: VENDOR_HOST, path: '/t.js', resourceType: 'script', heldBack: false, embeddingId: domain.analyticsId }),
    );
    expect(afterAcceptAll.services.find((service) => service.embeddingId === domain.analyticsId)?.status).toBe('ran');
    expect(afterAcceptAll.heldBack.filter((held) => held.embeddingId === domain.analyticsId)).toEqual([]);

    // Listed, newest first, without what it saw.
    const list = await service.rest('GET', `${domain.base}/complianceScan`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.scans).toEqual([expect.objectContaining({ id: scan.id, status: 'succeeded', verdict: 'clean', findingCount: 0 })]);
    expect(list.body.scans[0]).not.toHaveProperty('states');
    expect(list.body.nextCursor).toBeNull();
  });

  it('of a site that sets a declared tracker cookie itself and writes the tracker’s frame with src: violations before consent and after "reject all", named (GraphQL)', async () => {
    const domain = await configuredDomain('leaky');
    const started = await service.graphql<{ startComplianceScan: { id: string; status: string; trigger: string } }>(
      'mutation($c: ID!, $d: ID!) { startComplianceScan(clientId: $c, domainId: $d) { id status trigger } }',
      { c: domain.clientId, d: domain.domainId },
    );
    expect(started.errors).toBeUndefined();
    expect(started.data!.startComplianceScan).toMatchObject({ status: 'queued', trigger: 'job' });
    const id = started.data!.startComplianceScan.id;
    await untilEnded(domain, id);

    const read = await service.graphql(
      `query($c: ID!, $d: ID!, $id: ID!) { domain(clientId: $c, id: $d) {
        complianceScan(id: $id) { status verdict findingCount revision
          findings { state kind name host path resourceType page heldBack owner embeddingId embeddingName purpose declared needsConsent detail }
          states { afterAcceptAll { cookies { name needsConsent } } beforeConsent { bannerShown heldBack { element src embeddingName } } } }
        complianceScans { scans { id verdict } } } }`,
      { c: domain.clientId, d: domain.domainId, id },
    );
    expect(read.errors).toBeUndefined();
    const scan = read.data.domain.complianceScan;
    expect(scan).toMatchObject({ status: 'succeeded', verdict: 'violations', revision: (await newestRevision(domain)).hash });
    expect(read.data.domain.complianceScans.scans).toEqual([{ id, verdict: 'violations' }]);
    const findings: ComplianceFinding[] = scan.findings;
    expect(scan.findingCount).toBe(findings.length);
    const ga = (state: string) => findings.find((finding) => finding.state === state && finding.kind === 'cookie' && finding.name === '_ga');
    // Declared, and a violation all the same: it was set before any choice, and again after "reject all".
    for (const state of ['beforeConsent', 'afterReject']) {
      expect(ga(state), `_ga ${state}: ${JSON.stringify(findings.map(short))}`).toMatchObject({
        owner: 'embedding',
        embeddingId: domain.analyticsId,
        embeddingName: 'Tracker Analytics',
        purpose: 'a717ff5',
        declared: true,
        needsConsent: true,
        host: SITES.leaky,
      });
    }
    expect(ga('beforeConsent')!.page).toBe(`http://${SITES.leaky}/`);
    expect(ga('beforeConsent')!.detail).toContain('_ga');
    // The frame written with src was requested before the banner could hold it: a request finding, held back (its document never loaded).
    expect(findings).toContainEqual(
      expect.objectContaining({ state: 'beforeConsent', kind: 'request', host: VENDOR_HOST, path: '/frame.html', resourceType: 'document', heldBack: true, embeddingId: domain.analyticsId }),
    );
    expect(scan.states.beforeConsent.heldBack).toContainEqual({ element: 'iframe', src: `http://${VENDOR_HOST}/frame.html`, embeddingName: 'Tracker Analytics' });
    // The banner showed; nothing of the necessary embedding, and nothing after "accept all", is a finding.
    expect(scan.states.beforeConsent.bannerShown).toBe(true);
    expect(findings.filter((finding) => finding.kind === 'no-banner' || finding.name === 'site_session')).toEqual([]);
    expect(findings.every((finding) => finding.state !== ('afterAcceptAll' as string))).toBe(true);
  });

  it('of a site without the snippet: "no banner" on every page, and its tracker’s cookie and request before consent and after "reject all"', async () => {
    const domain = await configuredDomain('bare', { snippet: false });
    const started = await service.rest('POST', `${domain.base}/complianceScan`);
    expect(started.status, started.text).toBe(201);
    const scan = await untilEnded(domain, started.body.id);
    expect(scan.status, JSON.stringify(scan.error)).toBe('succeeded');
    expect(scan).toMatchObject({ verdict: 'violations', bannerOrigin: null });
    // No banner to report a revision: the domain's newest is the one tested.
    const revision = await newestRevision(domain);
    expect(scan).toMatchObject({ revision: revision.hash, revisionNumber: revision.number });
    expect(scan.states!.beforeConsent.revision).toBeNull();
    expect(scan.states!.afterReject).toMatchObject({ choice: 'necessary', clicked: false, bannerShown: false });

    const noBanner = scan.findings.filter((finding) => finding.kind === 'no-banner');
    expect(noBanner.map((finding) => [finding.state, new URL(finding.page).pathname])).toEqual([
      ['beforeConsent', '/'],
      ['beforeConsent', '/about'],
      ['afterReject', '/'],
    ]);
    for (const state of ['beforeConsent', 'afterReject'] as const) {
      expect(scan.findings).toContainEqual(expect.objectContaining({ state, kind: 'cookie', name: '_ga', embeddingId: domain.analyticsId, declared: true }));
      expect(scan.findings).toContainEqual(
        expect.objectContaining({ state, kind: 'request', host: VENDOR_HOST, path: '/t.js', resourceType: 'script', heldBack: false, embeddingName: 'Tracker Analytics' }),
      );
    }
    expect(sites.vendorHits.get('/t.js')).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown domain or compliance scan, and 400 for a cursor that is none of the domain’s', async () => {
    const domain = await createDomain(service, `http://${SITES.held}/`);
    expect((await service.rest('POST', `${domain.base.replace(domain.domainId, unknownId())}/complianceScan`)).status).toBe(404);
    expect((await service.rest('GET', `${domain.base}/complianceScan/${unknownId()}`)).status).toBe(404);
    expect((await service.rest('GET', `${domain.base}/complianceScan/not-an-id`)).status).toBe(404);
    expect((await service.rest('GET', `${domain.base}/complianceScan?before=${unknownId()}`)).status).toBe(400);
    expect((await service.rest('GET', `${domain.base}/complianceScan?limit=0`)).status).toBe(400);
    const missing = await service.graphql('query($c: ID!, $d: ID!, $id: ID!) { domain(clientId: $c, id: $d) { complianceScan(id: $id) { id } } }', {
      c: domain.clientId,
      d: domain.domainId,
      id: unknownId(),
    });
    expect(missing.errors?.map((error) => error.extensions?.code)).toEqual(['NOT_FOUND']);
  });

  it('runs with the permanent scan: each scheduled scan of a watched domain is followed by a compliance pass, whose new violations the webhook hears of', async () => {
    const domain = await configuredDomain('leaky');
    const hook = await service.rest('PUT', `${API}/${domain.clientId}/webhook`, { url: receiverUrl });
    expect(hook.status, hook.text).toBe(200);
    expect((await service.rest('PUT', domain.base, { permanentScanEnabled: true })).status).toBe(200);
    try {
      const scheduled = await until('a scheduled compliance scan that ended', async () => {
        const list = await service.rest('GET', `${domain.base}/complianceScan`);
        return list.body.scans.find((scan: ComplianceScan) => scan.trigger === 'schedule' && (scan.status === 'succeeded' || scan.status === 'failed'));
      });
      expect(scheduled).toMatchObject({ status: 'succeeded', verdict: 'violations' });
      // After the domain's scheduled (crawl) scan.
      const scans = await service.rest('GET', `${domain.base}/scan`);
      expect(scans.body.scans.some((scan: { trigger: string; status: string }) => scan.trigger === 'schedule' && scan.status === 'succeeded')).toBe(true);

      const delivery = await until('a compliance.violations delivery', async () =>
        deliveries.find((candidate) => JSON.parse(candidate.body).type === 'compliance.violations'),
      );
      const event = new StandardWebhook(hook.body.secret).verify(delivery.body, delivery.headers as Record<string, string>) as {
        data: { domainId: string; complianceScanId: string; verdict: string; revision: string; findings: ComplianceFinding[] };
      };
      expect(event.data).toMatchObject({ domainId: domain.domainId, complianceScanId: scheduled.id, verdict: 'violations', revision: (await newestRevision(domain)).hash });
      expect(event.data.findings).toContainEqual(expect.objectContaining({ state: 'beforeConsent', kind: 'cookie', name: '_ga', embeddingName: 'Tracker Analytics' }));
    } finally {
      expect((await service.rest('PUT', domain.base, { permanentScanEnabled: false })).status).toBe(200);
    }
  });
});
