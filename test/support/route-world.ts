import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { RestRoute } from '../../src/features/feature.ts';
import { API, createApiKey, createDomain, type DomainPath, domainState, embeddingPayload, themePayload } from './fixtures.ts';
import type { TestService } from './service.ts';
import { finishScanJob, insertScanJob } from '../../src/features/scan-jobs/scan-job.store.ts';
import { newId } from '../../src/kernel/ids.ts';
import { finishComplianceScan, insertComplianceScan } from '../../src/features/compliance/compliance-scan.store.ts';

/**
 * For suites driven by the REST route table: one seeded object of every kind, the route's path
 * with real ids, and a valid body per body route. A new path parameter or body route needs an
 * entry here, and the suites say so.
 */

export const routeLabel = (route: RestRoute) => `${route.method} ${route.path}`;

export type World = { domain: DomainPath; ids: Record<string, string> };

/** The seeded domain is the fixture shop, so a scanning service can scan it. */
export async function seedWorld(service: TestService): Promise<World> {
  const domain = await createDomain(service, 'http://www.shop.test/');
  const embedding = await service.rest('POST', `${domain.base}/embedding`, embeddingPayload());
  expect(embedding.status, embedding.text).toBe(201);
  const theme = await service.rest('POST', `${domain.base}/theme`, themePayload());
  expect(theme.status, theme.text).toBe(201);
  const placeholder = await service.rest('POST', `${domain.base}/placeholder`, { name: 'seeded', value: 'v' });
  expect(placeholder.status, placeholder.text).toBe(201);
  const key = await createApiKey(service, domain.clientId, 'seeded');
  const client = await service.rest('GET', `${API}/${domain.clientId}`);
  // A visitor's choice against the configuration as it now is (its newest revision).
  const revisions = await service.rest('GET', `${domain.base}/revision?limit=1`);
  expect(revisions.status, revisions.text).toBe(200);
  const consentId = randomUUID();
  const consent = await fetch(`${service.baseUrl}/consent`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({
      domain: domain.domainId,
      consentId,
      choice: 'all',
      categories: ['necessary', 'social_media'],
      services: [embedding.body.id],
      revision: revisions.body.revisions[0].hash,
      locale: 'de_DE',
      url: 'http://www.shop.test/',
    }),
  });
  expect(consent.status, await consent.clone().text()).toBe(201);
  // Two scans that have ended, so that the newer compares with the older. Recorded through the
  // scan store rather than crawled: a world is seeded for every route, and scans have suites of their own.
  const scanIds: string[] = [];
  for (let i = 0; i < 2; i++) scanIds.push(await recordSucceededScan(service, domain.domainId, i === 0 ? [] : ['seeded_cookie']));
  // A finding, as the permanent scan would record one (its sweep runs on a daily schedule in the tests).
  const findingId = randomUUID();
  await service.database.orm.em.fork().execute(
    `insert into "scan_finding" ("id", "domain_id", "kind", "key", "name", "detail", "first_scan_id", "last_scan_id") values (?, ?, 'storage', ?, ?, ?, ?, ?)`,
    [findingId, domain.domainId, 'localStorage seeded_key', 'seeded_key', JSON.stringify({ storageType: 'localStorage', name: 'seeded_key', origin: 'http://www.shop.test' }), scanIds[1], scanIds[1]],
  );
  const complianceScanId = await recordCleanComplianceScan(service, domain.domainId, revisions.body.revisions[0].hash);
  const webhook = await service.rest('PUT', `${API}/${domain.clientId}/webhook`, { url: 'https://hooks.example.org/consent' });
  expect(webhook.status, webhook.text).toBe(200);
  return {
    domain,
    ids: {
      clientId: domain.clientId,
      domainId: domain.domainId,
      embeddingId: embedding.body.id,
      assetId: embedding.body.assets[0].id,
      themeId: theme.body.id,
      placeholderName: 'seeded',
      // Every new domain has the locales de_DE and en_US.
      localeName: 'de_DE',
      keyId: key.id,
      // The client search finds the seeded client by its username.
      searchTerm: client.body.username,
      // Revision 1 is the new domain's; each seeded write above made one more.
      revisionId: '2',
      consentId,
      scanId: scanIds[1]!,
      findingId,
      complianceScanId,
    },
  };
}

/** A scan of the domain that has succeeded, finding these first-party cookies and nothing else. */
async function recordSucceededScan(service: TestService, domainId: string, cookies: string[]): Promise<string> {
  const em = service.database.orm.em.fork();
  const url = 'http://www.shop.test/';
  const job = await insertScanJob(em, { id: newId(), domainId, trigger: 'job', url, pageLimit: 10 });
  await finishScanJob(em, job.id, {
    result: {
      address: { company: null, street: null, zipCode: null, city: null },
      imprintUrl: null,
      privacyPolicyUrl: null,
      availablePresets: [],
      storage: {
        cookies: cookies.map((name) => ({ name, domain: 'www.shop.test', path: '/', expires: null, httpOnly: false, secure: false, sameSite: 'Lax', party: 'first' as const, phase: 'before-consent' as const, setBy: null })),
        localStorage: [],
        sessionStorage: [],
        indexedDB: [],
        cacheStorage: [],
      },
      advice: [],
      url,
      pages: [{ url, status: 200, landedUrl: url }],
      durationMs: 1000,
    },
  });
  return job.id;
}

/** A compliance scan of the domain that has succeeded and found nothing (recorded through its store, not run). */
async function recordCleanComplianceScan(service: TestService, domainId: string, revision: string): Promise<string> {
  const em = service.database.orm.em.fork();
  const url = 'http://www.shop.test/';
  const scan = await insertComplianceScan(em, { id: newId(), domainId, trigger: 'job', url });
  const state = (choice: 'necessary' | 'all' | null) => ({
    choice,
    clicked: choice !== null,
    bannerShown: true,
    revision,
    pages: [{ url, status: 200, landedUrl: url, error: null, bannerShown: choice === null }],
    cookies: [],
    storage: [],
    requests: [],
    heldBack: [],
    services: [],
  });
  await finishComplianceScan(em, scan.id, {
    result: { site: 'shop.test', bannerOrigin: null, states: { beforeConsent: state(null), afterReject: state('necessary'), afterAcceptAll: state('all') }, findings: [], durationMs: 1000 },
    revision,
    revisionNumber: null,
  });
  return scan.id;
}

/** The route's path with every `:param` replaced by the world's id; `odd` puts a verbatim segment in place of one. */
export function pathOf(route: { path: string }, world: World, odd?: { param: string; segment: string }): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (odd?.param === name) return odd.segment;
    const id = world.ids[name];
    if (id === undefined) throw new Error(`no seeded id for :${name} (${route.path}); add one to seedWorld`);
    return encodeURIComponent(id);
  });
}

/** Everything a refused request must leave alone: the seeded domain, the client's domains and keys, the client list. */
export async function stateOf(service: TestService, world: World) {
  const client = `${API}/${world.ids.clientId}`;
  const [domain, domains, apiKeys, clients] = await Promise.all([
    domainState(service, world.domain),
    service.rest('GET', `${client}/domain`),
    service.rest('GET', `${client}/apikey`),
    service.rest('GET', API),
  ]);
  return { domain, domains: domains.body, apiKeys: apiKeys.body, clients: clients.body };
}

/** A well-formed locale name of three letters and a region, made from `tag` (so no new domain has it yet). */
export function localeNameOf(tag: string): string {
  const letters = createHash('sha256').update(tag).digest().subarray(0, 5);
  const letter = (byte: number, base: number) => String.fromCharCode(base + (byte % 26));
  return `${[...letters.subarray(0, 3)].map((b) => letter(b, 97)).join('')}_${[...letters.subarray(3)].map((b) => letter(b, 65)).join('')}`;
}

/** A valid body per body route, made unique by `tag` where a name must be unique. */
const samples: Record<string, (tag: string) => unknown> = {
  'POST /hosting/api/client': (tag) => ({ username: `op-${tag}`, emailAddress: 'op@example.org', password: 'op-password' }),
  'PUT /hosting/api/client/:clientId': () => ({ company: 'ACME' }),
  'POST /hosting/api/client/:clientId/apikey': (tag) => ({ name: `key ${tag}`.slice(0, 100) }),
  'POST /hosting/api/client/:clientId/domain': () => ({ name: 'shop.example.org' }),
  'PUT /hosting/api/client/:clientId/domain/:domainId': () => ({ country: 'DE' }),
  'POST /hosting/api/client/:clientId/domain/:domainId/placeholder': (tag) => ({ name: `p-${tag}`, value: 'x' }),
  'PUT /hosting/api/client/:clientId/domain/:domainId/placeholder': (tag) => [{ name: `p-${tag}`, value: 'b' }],
  'PUT /hosting/api/client/:clientId/domain/:domainId/placeholder/:placeholderName': () => ({ value: 'changed' }),
  'POST /hosting/api/client/:clientId/domain/:domainId/locale': (tag) => ({ name: localeNameOf(tag), widgetTitle: 'Hello' }),
  'PUT /hosting/api/client/:clientId/domain/:domainId/locale/:localeName': () => ({ widgetTitle: 'Changed', purposeNames: { cdcbd7c: 'Ads' } }),
  'POST /hosting/api/client/:clientId/domain/:domainId/embedding/:embeddingId/asset': () => ({ name: '_ga' }),
  'PUT /hosting/api/client/:clientId/domain/:domainId/embedding/:embeddingId/asset/:assetId': () => ({ lifetime: '1 day' }),
  'POST /hosting/api/client/:clientId/domain/:domainId/embedding': () => embeddingPayload({ name: 'Vimeo' }),
  'PUT /hosting/api/client/:clientId/domain/:domainId/embedding/:embeddingId': () => ({ vendor: 'Someone' }),
  'POST /hosting/api/client/:clientId/domain/:domainId/theme': () => themePayload({ name: 'Second' }),
  'PUT /hosting/api/client/:clientId/domain/:domainId/theme/:themeId': () => ({ customCss: 'a { color: red }' }),
  'POST /hosting/api/client/:clientId/domain/:domainId/onboarding/presets': () => [{ id: 200, active: true }],
  'PUT /hosting/api/client/:clientId/domain/:domainId/onboarding/legalFindings': () => ({
    address: { company: 'ACME GmbH', street: 'Hauptstraße 1', zipCode: '53111', city: 'Bonn' },
    imprintUrl: 'https://shop.example.org/imprint',
    privacyPolicyUrl: 'https://shop.example.org/privacy',
  }),
  'PUT /hosting/api/client/:clientId/webhook': () => ({ url: 'https://hooks.example.org/changed' }),
  'POST /hosting/api/client/:clientId/domain/:domainId/onboarding/embeddingsFromCookies': (tag) => [
    { name: '_ga', storageType: 'cookie' },
    { name: `unknown-${tag}`, storageType: 'localStorage' },
  ],
};

export function samplePayload(route: RestRoute, tag: string = randomUUID()): unknown {
  const sample = samples[routeLabel(route)];
  if (!sample) throw new Error(`no sample payload for ${routeLabel(route)}; add one to test/support/route-world.ts`);
  return sample(tag);
}
