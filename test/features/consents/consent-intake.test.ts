import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { maintainConsentPartitions } from '../../../src/features/consents/consent-records.ts';
import { originBelongs } from '../../../src/features/consents/page-origin.ts';
import { truncatedAddress } from '../../../src/features/consents/visitor-address.ts';
import { createDomain, type DomainPath, embeddingPayload, unknownId } from '../../support/fixtures.ts';
import type { TestService } from '../../support/service.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

/** The hash of the domain's newest revision: what its banner names as `contentRevision`. */
async function newestRevision(service: TestService, domain: DomainPath): Promise<string> {
  const answer = await service.rest('GET', `${domain.base}/revision?limit=1`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.revisions[0].hash;
}

/** Adds a service (embedding) to the domain; its id. */
async function addService(service: TestService, domain: DomainPath, overrides: Record<string, unknown> = {}): Promise<string> {
  const answer = await service.rest('POST', `${domain.base}/embedding`, embeddingPayload(overrides));
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id;
}

/**
 * POST /consent: the record the banner sends for each choice. Stored before it is acknowledged,
 * with the page's origin and path, whether that page is the domain's, and the visitor's network
 * (not address); bad input stores nothing. A record names a revision the domain published, and of
 * it only services and categories that revision offered.
 */
describe('consent records from the banner', () => {
  const { service, domain, client } = useServiceWithDomain({ service: { consentsPerMinutePerAddress: 1_000 } });

  /** What the domain's banner offers now: an analytics service and a social media one, in its newest revision. */
  let shown: { revision: string; analytics: string; youtube: string };
  beforeEach(async () => {
    const analytics = await addService(service, domain, { name: 'Matomo', purpose: 'a717ff5' });
    const youtube = await addService(service, domain);
    shown = { revision: await newestRevision(service, domain), analytics, youtube };
  });

  const record = (overrides: Record<string, unknown> = {}) => ({
    domain: domain.domainId,
    consentId: randomUUID(),
    choice: 'custom',
    categories: ['necessary', 'analytics'],
    services: [shown.analytics],
    revision: shown.revision,
    locale: 'de_DE',
    url: 'https://www.example.org/shop/cart?session=secret#top',
    ...overrides,
  });
  const post = (body: unknown, headers: Record<string, string> = { 'content-type': 'text/plain;charset=UTF-8' }) =>
    fetch(`${service.baseUrl}/consent`, { method: 'POST', headers: { origin: 'https://www.example.org', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const stored = () =>
    service.database.orm.em
      .fork()
      .getConnection()
      .execute<Record<string, unknown>[]>(`select * from "consent_record" where "domain_id" = ? order by "received_at"`, [domain.domainId]);

  it('stores a record and answers 201 with its receipt, for a page of any site, without a preflight', async () => {
    const sent = record();
    const answer = await post(sent);
    const receipt = await answer.json();
    expect(answer.status, JSON.stringify(receipt)).toBe(201);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(receipt).toEqual({ consentId: sent.consentId, receivedAt: expect.any(String) });
    const [row] = await stored();
    expect(row).toMatchObject({
      consent_id: sent.consentId,
      client_id: client.id,
      choice: 'custom',
      categories: ['necessary', 'analytics'],
      services: sent.services,
      revision: shown.revision,
      locale: 'de_DE',
      origin: 'https://www.example.org',
      path: '/shop/cart',
      origin_matches: true,
      // The test's requests come from 127.0.0.1: kept as its /24.
      address: '127.0.0.0',
    });
    expect(new Date(row!.received_at as string).toISOString()).toBe(receipt.receivedAt);
  });

  it('keeps every record of one consent, even many at the same moment', async () => {
    const consentId = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(record({ consentId }))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(await stored()).toHaveLength(20);
  });

  it('takes JSON too, and a later change of the same consent is a record of its own', async () => {
    const consentId = randomUUID();
    expect((await post(record({ consentId, choice: 'all' }), { 'content-type': 'application/json' })).status).toBe(201);
    expect((await post(record({ consentId, choice: 'necessary', categories: ['necessary'], services: [] }))).status).toBe(201);
    expect((await stored()).map((row) => row.choice)).toEqual(['all', 'necessary']);
  });

  it('answers a CORS preflight, and refuses other methods with 405', async () => {
    const preflight = await fetch(`${service.baseUrl}/consent`, {
      method: 'OPTIONS',
      headers: { origin: 'https://www.example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type');
    const get = await fetch(`${service.baseUrl}/consent`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('answers 404 for a domain that does not exist, 413 for a body over the limit, and stores nothing', async () => {
    expect((await post(record({ domain: unknownId() }))).status).toBe(404);
    expect((await post(record({ services: Array.from({ length: 2_000 }, () => randomUUID()) }))).status).toBe(413);
    expect(await stored()).toEqual([]);
  });

  /** Posts the record; its status and the pointers of its problems. */
  const refusal = async (body: unknown) => {
    const answer = await post(body);
    const problem = await answer.json();
    return { status: answer.status, paths: (problem.errors ?? []).map((error: { path: string }) => error.path) };
  };

  it('refuses (400, nothing stored) a revision the domain never published: made up, or another domain’s', async () => {
    const other = await createDomain(service, 'www.other.example');
    await addService(service, other);
    for (const revision of ['a'.repeat(64), await newestRevision(service, other)]) {
      expect(await refusal(record({ revision }))).toEqual({ status: 400, paths: ['/revision'] });
    }
    expect(await stored()).toEqual([]);
  });

  it('refuses (400, nothing stored) services the revision did not offer: random ids, another domain’s, one added after it', async () => {
    const other = await createDomain(service, 'www.other.example');
    const foreign = await addService(service, other);
    const older = shown.revision;
    const later = await addService(service, domain, { name: 'Hotjar', purpose: 'a717ff5' });
    for (const id of [randomUUID(), foreign, later]) {
      expect(await refusal(record({ revision: older, services: [shown.analytics, id] }))).toEqual({ status: 400, paths: ['/services/1'] });
    }
    expect(await stored()).toEqual([]);
    // The revision made with it offers it.
    expect((await post(record({ revision: await newestRevision(service, domain), services: [shown.analytics, later] }))).status).toBe(201);
  });

  it('refuses (400, nothing stored) categories the revision did not offer; necessary is always allowed', async () => {
    expect(await refusal(record({ categories: ['necessary', 'marketing', 'analytics', 'other'] }))).toEqual({
      status: 400,
      paths: ['/categories/1', '/categories/3'],
    });
    expect(await stored()).toEqual([]);
    // The domain has no necessary service; every choice accepts the category all the same.
    expect((await post(record({ choice: 'necessary', categories: ['necessary'], services: [] }))).status).toBe(201);
  });

  it('takes exactly the records whose services are some of the revision’s, never more than it has (generated)', async () => {
    let expected = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([shown.analytics, shown.youtube]),
        fc.array(fc.uuid(), { maxLength: 3 }),
        async (offered, made) => {
          const services = [...offered, ...made.filter((id) => !offered.includes(id))];
          const answer = await post(record({ categories: ['necessary', 'analytics', 'social_media'], services }));
          expect(answer.status).toBe(made.length === 0 ? 201 : 400);
          if (answer.status === 201) expected++;
        },
      ),
      { numRuns: 40 },
    );
    expect(await stored()).toHaveLength(expected);
  });

  it("keeps whether the page is the domain's: its host, a subdomain, a consent-sharing domain; a foreign page is stored, flagged", async () => {
    const pages = ['https://www.example.org/a', 'http://shop.example.org:8080/b', 'https://attacker.example/forged', 'https://www.partner.example/c'];
    for (const url of pages) expect((await post(record({ url }))).status, url).toBe(201);
    // Once the domain shares its consent with partner.example, the records of its newer revision from there match.
    const shared = await service.rest('PUT', domain.base, { consentSharingDomains: ['partner.example'] });
    expect(shared.status, shared.text).toBe(200);
    const sharing = await newestRevision(service, domain);
    expect(sharing).not.toBe(shown.revision);
    expect((await post(record({ revision: sharing, url: 'https://www.partner.example/d' }))).status).toBe(201);
    expect((await post(record({ revision: sharing, url: 'https://attacker.example/e' }))).status).toBe(201);
    expect((await stored()).map((row) => [row.origin, row.path, row.origin_matches])).toEqual([
      ['https://www.example.org', '/a', true],
      ['http://shop.example.org:8080', '/b', true],
      ['https://attacker.example', '/forged', false],
      ['https://www.partner.example', '/c', false],
      ['https://www.partner.example', '/d', true],
      ['https://attacker.example', '/e', false],
    ]);
  });

  it('checks a warm record without a statement of its own: the revision is read once, then kept', async () => {
    // The announcements of the writes above have all been heard (on PostgreSQL the listening
    // connection hears them once more, later): each makes the intake read the domain's revision again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await post(record())).status).toBe(201);
    const before = service.database.statements.total;
    expect((await post(record({ choice: 'all', categories: ['necessary', 'analytics', 'social_media'], services: [shown.youtube] }))).status).toBe(201);
    // The insert, and nothing else.
    expect(service.database.statements.total - before).toBe(1);
  });

  it('answers 400 naming the field for bad input, and stores nothing (generated bodies)', async () => {
    const bad = fc.oneof(
      fc.record({ field: fc.constantFrom('domain', 'consentId'), value: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) }),
      fc.record({ field: fc.constant('choice'), value: fc.string().filter((text) => !['all', 'necessary', 'custom'].includes(text)) }),
      fc.record({ field: fc.constant('categories'), value: fc.oneof(fc.constant(['analytics', 'analytics']), fc.constant(['ads']), fc.string()) }),
      fc.record({ field: fc.constant('revision'), value: fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 63 }), fc.constant('A'.repeat(64)), fc.integer()) }),
      fc.record({ field: fc.constant('url'), value: fc.oneof(fc.constant('javascript:alert(1)'), fc.constant('ftp://x.example/'), fc.string({ maxLength: 20 })) }),
      // (undefined would vanish from the JSON, leaving a valid body)
      fc.record({ field: fc.constant('extra'), value: fc.anything().filter((value) => value !== undefined) }),
    );
    await fc.assert(
      fc.asyncProperty(bad, async ({ field, value }) => {
        const answer = await post(record({ [field]: value }));
        const body = await answer.json();
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(JSON.stringify(body.errors)).toContain(field === 'extra' ? '' : `/${field}`);
      }),
      { numRuns: 60 },
    );
    expect((await post('{not json')).status).toBe(400);
    expect(await stored()).toEqual([]);
  });

  it('removes the records of a deleted domain', async () => {
    expect((await post(record())).status).toBe(201);
    expect((await service.rest('DELETE', domain.base)).status).toBe(204);
    expect(await stored()).toEqual([]);
  });

  it('keeps records CONSENT_RETENTION_DAYS: older months are dropped whole, the rest of the limit month row by row', async () => {
    const orm = service.database.orm;
    const connection = orm.em.fork().getConnection();
    const now = new Date();
    // Months back to 14 months ago, as a service running for over a year would have made them.
    const past = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 14, 15));
    await maintainConsentPartitions(orm, { retentionDays: 3650, now: past, monthsAhead: 15 });
    const insertAt = (at: Date) =>
      connection.execute(
        `insert into "consent_record" select ?, ?, gen_random_uuid(), gen_random_uuid(), ?, 'all', '[]', '[]', ?, 'de_DE', 'https://www.example.org', '/', '' `,
        [domain.domainId, at, client.id, shown.revision],
      );
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    for (const days of [420, 400, 396, 394, 30, 0]) await insertAt(daysAgo(days));

    const result = await maintainConsentPartitions(orm, { retentionDays: 395, now });
    expect(result.dropped.length).toBeGreaterThan(0);
    const left = (await stored()).map((row) => Math.round((now.getTime() - new Date(row.received_at as string).getTime()) / 86_400_000));
    expect(left).toEqual([394, 30, 0]);
    expect(result.created).toEqual([]);
  });
});

describe("whether a page belongs to the domain's site", () => {
  const site = { host: 'www.shop.example', sharingDomains: ['partner.example', 'https://brand.example/de/', 'not a host'] };

  it('is the host, a subdomain of it without its www, or a consent-sharing domain or its subdomain; scheme and port do not count', () => {
    for (const origin of ['https://www.shop.example', 'https://shop.example', 'http://static.shop.example:8080', 'https://partner.example', 'https://eu.brand.example']) {
      expect(originBelongs(origin, site), origin).toBe(true);
    }
    for (const origin of ['https://attacker.example', 'https://evilshop.example', 'https://shop.example.attacker.example', 'https://example', 'null']) {
      expect(originBelongs(origin, site), origin).toBe(false);
    }
  });
});

describe('the visitor address a record keeps', () => {
  it('is the network: IPv4 /24, IPv6 /48', () => {
    expect(truncatedAddress('203.0.113.77')).toBe('203.0.113.0');
    expect(truncatedAddress('::ffff:198.51.100.9')).toBe('198.51.100.0');
    expect(truncatedAddress('2001:db8:abcd:12:1:2:3:4')).toBe('2001:db8:abcd::');
    expect(truncatedAddress('2001:db8::1')).toBe('2001:db8:0::');
    expect(truncatedAddress('::1')).toBe('0:0:0::');
    expect(truncatedAddress('fe80::1%eth0')).toBe('fe80:0:0::');
    expect(truncatedAddress(undefined)).toBe('');
    expect(truncatedAddress('not an address')).toBe('');
  });

  it('never keeps more than the network, whatever the address (generated)', () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        const kept = truncatedAddress(address);
        expect(kept.endsWith('.0')).toBe(true);
        expect(kept.split('.').slice(0, 3)).toEqual(address.split('.').slice(0, 3));
      }),
    );
    fc.assert(
      fc.property(fc.ipV6().filter((address) => !/^::ffff:\d/i.test(address)), (address) => {
        const kept = truncatedAddress(address);
        expect(kept).toMatch(/^[0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}::$/);
      }),
    );
  });
});

describe('the rate limit of the consent intake', () => {
  const { service, domain } = useServiceWithDomain({ service: { consentsPerMinutePerAddress: 3 } });

  it('answers 429 with Retry-After past the records a minute one address may send, and stores nothing more', async () => {
    const revision = await newestRevision(service, domain);
    const post = () =>
      fetch(`${service.baseUrl}/consent`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({
          domain: domain.domainId,
          consentId: randomUUID(),
          choice: 'all',
          categories: ['necessary'],
          services: [],
          revision,
          locale: 'de_DE',
          url: 'https://www.example.org/',
        }),
      });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await post()).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const refused = await post();
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    const [row] = await service.database.orm.em
      .fork()
      .getConnection()
      .execute<{ count: string }[]>(`select count(*) as "count" from "consent_record" where "domain_id" = ?`, [domain.domainId]);
    expect(Number(row?.count)).toBe(3);
  });
});
