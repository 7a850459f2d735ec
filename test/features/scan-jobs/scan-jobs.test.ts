import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareScanResults } from '../../../src/features/scan-jobs/scan-comparison.ts';
import type { OnboardingScanResult } from '../../../src/features/onboarding/onboarding.contract.ts';
import { createDomain, type DomainPath, unknownId } from '../../support/fixtures.ts';
import { startScanningTestService } from '../../support/scanning-service.ts';
import type { TestService } from '../../support/service.ts';

/** Scans kept as jobs: started without waiting, watched page by page, read back and compared, over REST and GraphQL. */

let service: TestService;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ service, close } = await startScanningTestService());
}, 120_000);
afterAll(() => close());

type Job = { id: string; status: string; pagesVisited: number; pages: { url: string }[]; result: OnboardingScanResult | null; error: unknown };

/** Reads the job until it has ended, noting every `pagesVisited` seen on the way. */
async function untilEnded(domain: DomainPath, id: string, seen: number[] = []): Promise<Job> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const answer = await service.rest('GET', `${domain.base}/scan/${id}`);
    expect(answer.status, answer.text).toBe(200);
    seen.push(answer.body.pagesVisited);
    if (answer.body.status === 'succeeded' || answer.body.status === 'failed') return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`scan ${id} did not end within a minute`);
}

describe('starting a scan', () => {
  it('answers 201 at once with the queued job and its address; a worker runs it to its result, page by page', async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    const started = await service.rest('POST', `${domain.base}/scan`);
    expect(started.status, started.text).toBe(201);
    expect(started.body).toMatchObject({ domainId: domain.domainId, trigger: 'job', status: 'queued', url: 'http://www.shop.test/', pagesVisited: 0, pages: [], result: null, error: null });
    expect(started.headers.get('location')).toBe(`${domain.base}/scan/${started.body.id}`);

    const seen: number[] = [];
    const done = await untilEnded(domain, started.body.id, seen);
    expect(done.status).toBe('succeeded');
    expect(done.error).toBeNull();
    // The progress only grows, and ends at the pages the result lists.
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(done.pagesVisited).toBe(done.result!.pages.length);
    expect(done.pages.map((page) => page.url).sort()).toEqual(done.result!.pages.map((page) => page.url).sort());
    expect(done.result!.storage.cookies.map((cookie) => cookie.name)).toEqual(expect.arrayContaining(['shop_session', '_ga', 'YSC']));
    expect(done.result!.availablePresets.map((preset) => preset.name)).toEqual(expect.arrayContaining(['YouTube']));
  });

  it('refuses a second scan of the domain while one is queued or running (409), and accepts one after it ended', async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    const first = await service.rest('POST', `${domain.base}/scan`);
    expect(first.status).toBe(201);
    const second = await service.rest('POST', `${domain.base}/scan`);
    expect(second.status, second.text).toBe(409);
    expect(second.body.detail).toContain(first.body.id);
    await untilEnded(domain, first.body.id);
    const third = await service.rest('POST', `${domain.base}/scan`);
    expect(third.status).toBe(201);
    await untilEnded(domain, third.body.id);
  });

  it('records a failed scan with why it failed', async () => {
    const domain = await createDomain(service, 'http://error404.test/');
    const started = await service.rest('POST', `${domain.base}/scan`);
    const done = await untilEnded(domain, started.body.id);
    expect(done).toMatchObject({ status: 'failed', result: null, error: { kind: 'site' } });
    expect((done.error as { message: string }).message).toContain('404');
  });

  it('answers 404 for an unknown domain and an unknown scan', async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    expect((await service.rest('POST', `${domain.base.replace(domain.domainId, unknownId())}/scan`)).status).toBe(404);
    expect((await service.rest('GET', `${domain.base}/scan/${unknownId()}`)).status).toBe(404);
    expect((await service.rest('GET', `${domain.base}/scan/not-an-id`)).status).toBe(404);
  });
});

describe('a scan job stored before the scan recorded advice', () => {
  it('still reads over REST and GraphQL: what it never recorded is absent (null in GraphQL), not made up', async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    const started = await service.rest('POST', `${domain.base}/scan`);
    const done = await untilEnded(domain, started.body.id);
    expect(done.status).toBe('succeeded');
    // As an older version of the service stored it: no advice, no blockable on the presets.
    const older = { ...done.result!, advice: undefined, availablePresets: done.result!.availablePresets.map(({ blockable: _blockable, ...preset }) => preset) };
    await service.database.orm.em.fork().getConnection().execute(`update "scan_job" set "result" = ? where "id" = ?`, [JSON.stringify(older), done.id]);

    const read = await service.rest('GET', `${domain.base}/scan/${done.id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.result.advice).toBeUndefined();
    expect(read.body.result.availablePresets.length).toBeGreaterThan(0);
    const viaGraphql = await service.graphql(
      'query($clientId: ID!, $id: ID!, $scan: ID!) { domain(clientId: $clientId, id: $id) { scan(id: $scan) { result { advice { kind } availablePresets { id blockable } } } } }',
      { clientId: domain.clientId, id: domain.domainId, scan: done.id },
    );
    expect(viaGraphql.errors).toBeUndefined();
    expect(viaGraphql.data.domain.scan.result.advice).toBeNull();
    expect(viaGraphql.data.domain.scan.result.availablePresets.every((preset: { blockable: unknown }) => preset.blockable === null)).toBe(true);
  });
});

describe('advice in a scan job', () => {
  it("carries in its result, over REST and GraphQL, what the site loads that the banner cannot hold back, with the fix", async () => {
    const domain = await createDomain(service, 'http://www.einbettung.test/');
    const started = await service.rest('POST', `${domain.base}/scan`);
    expect(started.status, started.text).toBe(201);
    const done = await untilEnded(domain, started.body.id);
    expect(done.status).toBe('succeeded');
    const advice = done.result!.advice!;
    expect(advice.map(({ kind, host }) => `${kind} ${host}`)).toEqual([
      'iframe-src www.youtube.com',
      'third-party-stylesheet fonts.googleapis.com',
      'third-party-stylesheet use.typekit.net',
      'third-party-font fonts.gstatic.com',
      'third-party-font use.typekit.net',
    ]);
    expect(advice[0]).toMatchObject({
      pages: ['http://www.einbettung.test/', 'http://www.einbettung.test/videos'],
      sources: ['https://www.youtube.com/embed/im-html', 'https://www.youtube.com/embed/zweites-video'],
      fix: expect.stringContaining('data-src instead of src'),
    });

    const read = await service.graphql(
      `query($clientId: ID!, $domainId: ID!, $id: ID!) { domain(clientId: $clientId, id: $domainId) {
        scan(id: $id) { result { advice { kind host presetId pages sources fix } } } } }`,
      { clientId: domain.clientId, domainId: domain.domainId, id: started.body.id },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data.domain.scan.result.advice).toEqual(advice);
  });
});

describe('the synchronous onboarding scan', () => {
  it('is kept as a job too, with the same result it answered', async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    const answer = await service.rest('GET', `${domain.base}/onboarding/scan`);
    expect(answer.status, answer.text).toBe(200);
    const list = await service.rest('GET', `${domain.base}/scan`);
    expect(list.status).toBe(200);
    expect(list.body.scans).toHaveLength(1);
    expect(list.body.scans[0]).toMatchObject({ trigger: 'request', status: 'succeeded', pagesVisited: answer.body.pages.length });
    const job = await service.rest('GET', `${domain.base}/scan/${list.body.scans[0].id}`);
    expect(job.body.result).toEqual(answer.body);
  });
});

describe('reading past scans', () => {
  it('lists them newest first, in pages', async () => {
    const domain = await createDomain(service, 'http://www.bistro.test/');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const started = await service.rest('POST', `${domain.base}/scan`);
      ids.push(started.body.id);
      await untilEnded(domain, started.body.id);
    }
    const first = await service.rest('GET', `${domain.base}/scan?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.scans.map((scan: { id: string }) => scan.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.scans[0]).not.toHaveProperty('result');
    const second = await service.rest('GET', `${domain.base}/scan?limit=2&before=${first.body.nextCursor}`);
    expect(second.body.scans.map((scan: { id: string }) => scan.id)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeNull();
    expect((await service.rest('GET', `${domain.base}/scan?limit=0`)).status).toBe(400);
    expect((await service.rest('GET', `${domain.base}/scan?before=${unknownId()}`)).status).toBe(400);
  });
});

describe('comparing two scans', () => {
  it('tells the cookies, storage and services that are new and gone when the site changed', async () => {
    const domain = await createDomain(service, 'http://www.shop.test/');
    const before = await service.rest('POST', `${domain.base}/scan`);
    await untilEnded(domain, before.body.id);
    // The domain moves to another site: what the shop had is gone, what the bistro has is new.
    expect((await service.rest('PUT', domain.base, { name: 'http://www.bistro.test/' })).status).toBeLessThan(300);
    const after = await service.rest('POST', `${domain.base}/scan`);
    const afterJob = await untilEnded(domain, after.body.id);
    const beforeJob = (await service.rest('GET', `${domain.base}/scan/${before.body.id}`)).body as Job;

    const answer = await service.rest('GET', `${domain.base}/scan/${after.body.id}/comparison`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.scanId).toBe(after.body.id);
    expect(answer.body.againstId).toBe(before.body.id);
    expect(answer.body).toEqual({
      scanId: after.body.id,
      againstId: before.body.id,
      ...compareScanResults(afterJob.result!, beforeJob.result!),
    });
    const removedCookies = answer.body.cookies.removed.map((cookie: { name: string }) => cookie.name);
    expect(removedCookies).toEqual(expect.arrayContaining(['shop_session']));
    expect(answer.body.services.removed.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['YouTube']));

    // The other way round, named explicitly: added and removed swap.
    const reverse = await service.rest('GET', `${domain.base}/scan/${before.body.id}/comparison?against=${after.body.id}`);
    expect(reverse.body.cookies).toEqual({ added: answer.body.cookies.removed, removed: answer.body.cookies.added });
    expect(reverse.body.services).toEqual({ added: answer.body.services.removed, removed: answer.body.services.added });
  });

  it('answers 404 when there is no earlier succeeded scan, and 409 for a scan that has not succeeded', async () => {
    const domain = await createDomain(service, 'http://error404.test/');
    const failed = await service.rest('POST', `${domain.base}/scan`);
    await untilEnded(domain, failed.body.id);
    expect((await service.rest('GET', `${domain.base}/scan/${failed.body.id}/comparison`)).status).toBe(409);
    const other = await createDomain(service, 'http://www.bistro.test/');
    const only = await service.rest('POST', `${other.base}/scan`);
    await untilEnded(other, only.body.id);
    expect((await service.rest('GET', `${other.base}/scan/${only.body.id}/comparison`)).status).toBe(404);
    expect((await service.rest('GET', `${other.base}/scan/${only.body.id}/comparison?against=nope`)).status).toBe(400);
  });
});

describe('over GraphQL', () => {
  it('starts a scan, reads its progress and result, lists and compares scans', async () => {
    const domain = await createDomain(service, 'http://www.bistro.test/');
    const scope = { clientId: domain.clientId, domainId: domain.domainId };
    const started = await service.graphql(
      `mutation($clientId: ID!, $domainId: ID!) { startScan(clientId: $clientId, domainId: $domainId) { id status trigger pagesVisited } }`,
      scope,
    );
    expect(started.errors).toBeUndefined();
    expect(started.data.startScan).toMatchObject({ status: 'queued', trigger: 'job', pagesVisited: 0 });
    const id = started.data.startScan.id;
    await untilEnded(domain, id);
    const read = await service.graphql(
      `query($clientId: ID!, $domainId: ID!, $id: ID!) { domain(clientId: $clientId, id: $domainId) {
        scan(id: $id) { status pagesVisited pages { url status landedUrl slow } result { storage { cookies { name } } availablePresets { id name } } }
        scans { scans { id status } nextCursor } } }`,
      { ...scope, id },
    );
    expect(read.errors).toBeUndefined();
    const rest = (await service.rest('GET', `${domain.base}/scan/${id}`)).body as Job;
    expect(read.data.domain.scan.status).toBe('succeeded');
    expect(read.data.domain.scan.pagesVisited).toBe(rest.pagesVisited);
    expect(read.data.domain.scan.result.storage.cookies.map((c: { name: string }) => c.name)).toEqual(rest.result!.storage.cookies.map((c) => c.name));
    expect(read.data.domain.scans).toEqual({ scans: [{ id, status: 'succeeded' }], nextCursor: null });

    const second = await service.graphql(`mutation($clientId: ID!, $domainId: ID!) { startScan(clientId: $clientId, domainId: $domainId) { id } }`, scope);
    await untilEnded(domain, second.data.startScan.id);
    const compared = await service.graphql(
      `query($clientId: ID!, $domainId: ID!, $id: ID!) { domain(clientId: $clientId, id: $domainId) {
        scanComparison(id: $id) { scanId againstId cookies { added { name } removed { name } } services { added { id } removed { id } } } } }`,
      { ...scope, id: second.data.startScan.id },
    );
    expect(compared.errors).toBeUndefined();
    // The same site twice: nothing new, nothing gone.
    expect(compared.data.domain.scanComparison).toEqual({
      scanId: second.data.startScan.id,
      againstId: id,
      cookies: { added: [], removed: [] },
      services: { added: [], removed: [] },
    });
  });
});

describe('the comparison itself', () => {
  const result = (cookies: [string, string][], services: [number, string][], local: string[] = []): OnboardingScanResult => ({
    address: { company: null, street: null, zipCode: null, city: null },
    imprintUrl: null,
    privacyPolicyUrl: null,
    availablePresets: services.map(([id, name]) => ({ id, name, purpose: '41ba25c' as const, vendor: '', translations: {}, evidence: [], blockable: true })),
    storage: {
      cookies: cookies.map(([name, domain]) => ({ name, domain, path: '/', expires: null, httpOnly: false, secure: false, sameSite: null, party: 'first' as const, phase: 'before-consent' as const, setBy: null })),
      localStorage: local.map((name) => ({ name, origin: 'https://a.test', phase: 'before-consent' as const, setBy: null })),
      sessionStorage: [],
      indexedDB: [],
      cacheStorage: [],
    },
    advice: [],
    url: 'https://a.test/',
    pages: [],
    durationMs: 1,
  });

  it('keys cookies by name and domain, storage by kind, name and origin, services by id', () => {
    const older = result([['a', 'a.test'], ['b', 'a.test'], ['b', 'b.test']], [[1, 'One'], [2, 'Two']], ['x']);
    const newer = result([['a', 'a.test'], ['b', 'b.test'], ['c', 'a.test'], ['c', 'a.test']], [[2, 'Two'], [3, 'Three']], ['y']);
    const diff = compareScanResults(newer, older);
    expect(diff.cookies.added.map((c) => [c.name, c.domain])).toEqual([['c', 'a.test']]);
    expect(diff.cookies.removed.map((c) => [c.name, c.domain])).toEqual([['b', 'a.test']]);
    expect(diff.services).toEqual({ added: [{ id: 3, name: 'Three' }], removed: [{ id: 1, name: 'One' }] });
    expect(diff.storage).toEqual({
      added: [{ storageType: 'localStorage', name: 'y', origin: 'https://a.test' }],
      removed: [{ storageType: 'localStorage', name: 'x', origin: 'https://a.test' }],
    });
  });
});
