import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBannerDelivery } from '../../../src/features/banner/banner-delivery.ts';
import { type PublishedConfiguration, readPublishedConfiguration } from '../../../src/features/banner/published-configuration.ts';
import type { SentStatement } from '../../../src/db/statements.ts';
import { embeddingPayload } from '../../support/fixtures.ts';
import { type PrivatePostgres, privatePostgresUnavailable, startPrivatePostgres } from '../../support/private-postgres.ts';
import { type ServiceProcess, startServiceProcess } from '../../support/service-process.ts';
import { ADMIN_KEY } from '../../support/service.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';
import { until } from '../../support/until.ts';

/** `id` with every other letter in upper case: the same UUID to PostgreSQL, another string to a cache. */
const shouting = (id: string, variant = 0) =>
  [...id].map((char, i) => ((i + variant) % 2 === 0 ? char.toUpperCase() : char)).join('');

/** The key-less banner addresses under abuse: any spelling of an id, made-up ids, conditional requests. */
describe('app.js under made-up input', () => {
  const { service, domain } = useServiceWithDomain({ service: { displayCountFlushMs: 3_600_000 } });
  const appJs = (query: string, headers: Record<string, string> = {}) =>
    fetch(`${service.baseUrl}/app.js?${query}`, { headers: { 'accept-encoding': 'identity', ...headers } });

  it('keeps one banner per domain whatever the spelling of its id: a write and a deletion reach every spelling', async () => {
    await service.rest('POST', `${domain.base}/embedding`, embeddingPayload());
    const upper = shouting(domain.domainId);
    // The upper-case spelling is asked for first, so that it is the one that would be kept.
    expect(await (await appJs(`domain=${upper}&lang=de_DE`)).text()).toContain('Wir nutzen auf dieser Website Cookies');

    // The service's timers (revision sweep, consent maintenance, the permanent scan's sweep) may send
    // statements meanwhile; a banner's statements name its domain's id.
    const sent: SentStatement[] = [];
    service.database.statements.watch = (statement) => sent.push(statement);
    try {
      for (let variant = 0; variant < 20; variant++) expect((await appJs(`domain=${shouting(domain.domainId, variant)}&lang=de_DE`)).status).toBe(200);
      expect((await appJs(`domain=${domain.domainId.toUpperCase()}&lang=de_DE`)).status).toBe(200);
    } finally {
      service.database.statements.watch = undefined;
    }
    const forTheDomain = sent.filter((statement) => statement.params.some((value) => String(value).toLowerCase() === domain.domainId));
    expect(forTheDomain.map((statement) => statement.query), 'spellings of a built banner cost no statement').toEqual([]);

    const write = await service.rest('PUT', `${domain.base}/locale/de_DE`, { widgetTitle: 'Ein neuer Titel' });
    expect(write.status, write.text).toBe(200);
    expect(await (await appJs(`domain=${upper}&lang=de_DE`)).text()).toContain('Ein neuer Titel');

    expect((await service.rest('DELETE', domain.base)).status).toBe(204);
    const gone = await appJs(`domain=${upper}&lang=de_DE`);
    expect(gone.status, await gone.text()).toBe(404);
  });

  it('answers 304 to If-None-Match: *, as to its own validator', async () => {
    await service.rest('POST', `${domain.base}/embedding`, embeddingPayload());
    const first = await appJs(`domain=${domain.domainId}`);
    expect(first.status).toBe(200);
    const any = await appJs(`domain=${domain.domainId}`, { 'if-none-match': '*' });
    expect(any.status).toBe(304);
    expect(any.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await appJs(`domain=${domain.domainId}`, { 'if-none-match': '"other", W/' + first.headers.get('etag') })).status).toBe(304);
    expect((await appJs(`domain=${domain.domainId}`, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('reads the query as URLSearchParams does, escapes and repetitions included', async () => {
    await service.rest('POST', `${domain.base}/embedding`, embeddingPayload());
    await service.rest('PUT', `${domain.base}/locale/de_DE`, { widgetTitle: 'Deutscher Titel' });
    const escaped = await appJs(`v=3&domain=${encodeURIComponent(domain.domainId).replace('-', '%2D')}&lang=de%5FDE`);
    expect(await escaped.text()).toContain('Deutscher Titel');
    expect(await (await appJs(`lang=de-DE&domain=${domain.domainId}&v=3`)).text()).toContain('Deutscher Titel');
    expect((await appJs(`domain=${domain.domainId}&lang=de_DE&lang=en_US`)).status).toBe(400);
    expect((await appJs(`domain=${domain.domainId}&domain=${randomUUID()}`)).status).toBe(400);
  });
});

describe('app.js loads that miss the memory, from one address', () => {
  const { service, domain } = useServiceWithDomain({ service: { displayCountFlushMs: 3_600_000, bannerMissesPerMinutePerAddress: 5 } });

  it('are limited per address (made-up ids cost the database), while built banners are not', async () => {
    await service.rest('POST', `${domain.base}/embedding`, embeddingPayload());
    const known = `${service.baseUrl}/app.js?domain=${domain.domainId}`;
    // The first load builds the banner (in front of the router, as every known domain's); every later one is answered from memory.
    expect((await fetch(known)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await fetch(`${service.baseUrl}/app.js?domain=${randomUUID()}`)).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429, 429, 429]);
    const refused = await fetch(`${service.baseUrl}/app.js?domain=${randomUUID()}`);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    for (let i = 0; i < 20; i++) expect((await fetch(known)).status).toBe(200);
  });
});

const noPrivatePostgres = privatePostgresUnavailable();

/**
 * A database outage, for real: a PostgreSQL cluster of the test's own, stopped and started under
 * a running service process.
 */
describe.skipIf(noPrivatePostgres)(`the banner while its database is down${noPrivatePostgres ? ` (skipped: ${noPrivatePostgres})` : ''}`, () => {
  let postgres: PrivatePostgres;
  let service: ServiceProcess;
  let domainBase = '';
  let domainId = '';

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    service = await startServiceProcess({
      env: { DATABASE_URL: postgres.url, ADMIN_API_KEY: ADMIN_KEY, NODE_ENV: 'production', LOG_LEVEL: 'error', LISTEN_HEARTBEAT_MS: '500' },
    });
    expect(service.ready, service.output().stderr).toBe(true);
    const client = await service.request('POST', '/hosting/api/client', {
      body: { username: `outage-${randomUUID()}`, emailAddress: 'ops@example.org', password: 'operator-password', active: true },
    });
    expect(client.status, client.text).toBe(201);
    const clientId = (client.body as { id: string }).id;
    const domain = await service.request('POST', `/hosting/api/client/${clientId}/domain`, { body: { name: 'www.outage.example' } });
    expect(domain.status, domain.text).toBe(201);
    domainId = (domain.body as { id: string }).id;
    domainBase = `/hosting/api/client/${clientId}/domain/${domainId}`;
    expect((await service.request('POST', `${domainBase}/embedding`, { body: embeddingPayload() })).status).toBe(201);
    expect((await service.request('PUT', `${domainBase}/locale/de_DE`, { body: { widgetTitle: 'Vor dem Ausfall' } })).status).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    await postgres?.destroy();
  });

  const load = async () => {
    const answer = await fetch(`${service.base}/app.js?domain=${domainId}&lang=de_DE`);
    return { status: answer.status, stale: answer.headers.get('x-banner-stale'), cacheControl: answer.headers.get('cache-control'), text: await answer.text() };
  };

  it('serves the last built banner, marked stale and not cacheable, and the current one again once the database is back', async () => {
    const before = await load();
    expect(before.status).toBe(200);
    expect(before.text).toContain('Vor dem Ausfall');
    expect(before.stale).toBeNull();

    await postgres.stop('fast');
    // The listener notices the loss (at once or by its heartbeat) and the copies are no longer trusted.
    const during: Awaited<ReturnType<typeof load>>[] = [];
    for (const started = Date.now(); Date.now() - started < 3_000; ) during.push(await load());
    expect(during.filter((answer) => answer.status !== 200).slice(0, 2), 'no load fails while the database is down').toEqual([]);
    expect(during.every((answer) => answer.text === before.text)).toBe(true);
    expect(during.at(-1)!.stale, 'the copy is marked stale once the loss is noticed').toMatch(/database unreachable/);
    expect(during.at(-1)!.cacheControl).toBe('no-cache');

    await postgres.start();
    // A write as soon as the database answers again, before the listener may be back.
    await until('a write accepted once the database is back', async () =>
      (await service.request('PUT', `${domainBase}/locale/de_DE`, { body: { widgetTitle: 'Nach dem Ausfall' } })).status === 200 ? true : undefined,
    );
    const written = Date.now();
    await until('the banner showing the write made after the outage', async () => ((await load()).text.includes('Nach dem Ausfall') ? true : undefined));
    expect(Date.now() - written, 'the write reaches visitors within seconds').toBeLessThan(5_000);
    const after = await load();
    expect(after.stale).toBeNull();
    expect(after.cacheControl).toMatch(/^public, max-age=60/);
  }, 60_000);
});

/**
 * The banner cache's own guards, with the database and the change feed played by the test: a
 * change the feed never announced shows after the maximum age; a read that fails serves the copy.
 */
describe('the built banners kept in memory', () => {
  const { service, domain } = useServiceWithDomain({ service: { displayCountFlushMs: 3_600_000 } });

  /** A delivery whose reads answer what the test says, on a feed the test drives, at a clock the test moves. */
  async function deliveryOverTestDatabase() {
    await service.rest('POST', `${domain.base}/embedding`, embeddingPayload());
    const real = (await readPublishedConfiguration(service.database.orm, service.services, domain.domainId))!;
    const titled = (title: string): PublishedConfiguration => ({
      ...real,
      locales: real.locales.map((locale) => ({ ...locale, widgetTitle: title })),
    });
    let answer: () => Promise<PublishedConfiguration | null> = async () => titled('Erste Fassung');
    let reads = 0;
    let clock = 0;
    let round: Promise<void> | undefined;
    const subscribers: { changed(id: string): void; resync(): void }[] = [];
    const delivery = createBannerDelivery({
      orm: service.database.orm,
      services: () => service.services,
      changes: { subscribe: (subscriber) => (subscribers.push(subscriber), () => {}) },
      read: () => (reads++, answer()),
      recording: () => round,
      counter: { count: () => {}, flush: async () => {}, close: async () => {} },
      publicBaseUrl: 'https://consent.example.test',
      maxAgeMs: 60_000,
      retryReadMs: 1_000,
      now: () => clock,
    });
    const text = async () => {
      const script = await delivery.script(domain.domainId, 'de_DE');
      return script && { text: script.body.toString(), stale: 'stale' in script };
    };
    return {
      delivery,
      text,
      titled,
      reads: () => reads,
      answerWith: (next: () => Promise<PublishedConfiguration | null>) => (answer = next),
      advance: (ms: number) => (clock += ms),
      roundRunning: (running: Promise<void> | undefined) => (round = running),
      resync: () => subscribers.forEach((subscriber) => subscriber.resync()),
      changed: () => subscribers.forEach((subscriber) => subscriber.changed(domain.domainId)),
      settled: () => new Promise((resolve) => setTimeout(resolve, 20)),
    };
  }

  it('reads a banner again once it is older than the maximum age, so a change the feed lost shows', async () => {
    const test = await deliveryOverTestDatabase();
    expect((await test.text())!.text).toContain('Erste Fassung');
    test.answerWith(async () => test.titled('Zweite Fassung'));
    test.advance(59_000);
    expect(test.delivery.cached(domain.domainId, 'de_DE')!.body.toString()).toContain('Erste Fassung');
    expect(test.reads()).toBe(1);
    test.advance(2_000);
    // Past the age the copy is still served while it is read again in the background.
    expect(test.delivery.cached(domain.domainId, 'de_DE')!.body.toString()).toContain('Erste Fassung');
    await test.settled();
    expect(test.reads()).toBe(2);
    expect(test.delivery.cached(domain.domainId, 'de_DE')).toBeUndefined();
    expect((await test.text())!.text).toContain('Zweite Fassung');
    // Read again and unchanged, it keeps what it built: no rebuild, the same bytes.
    const built = test.delivery.cached(domain.domainId, 'de_DE')!;
    test.advance(61_000);
    test.delivery.cached(domain.domainId, 'de_DE');
    await test.settled();
    expect(test.reads()).toBe(3);
    expect(test.delivery.cached(domain.domainId, 'de_DE')).toBe(built);
  });

  it('serves the copy, marked stale, while reads fail after a resync or a change, and tries again at most once a second', async () => {
    const test = await deliveryOverTestDatabase();
    const first = (await test.text())!.text;
    test.answerWith(async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    });
    test.resync();
    expect(test.delivery.cached(domain.domainId, 'de_DE')).toBeUndefined();
    expect(await test.text()).toEqual({ text: first, stale: true });
    const tried = test.reads();
    for (let i = 0; i < 10; i++) expect(await test.text()).toEqual({ text: first, stale: true });
    await test.settled();
    expect(test.reads(), 'no read per load while the database is away').toBe(tried);
    test.advance(1_000);
    await test.text();
    await test.settled();
    expect(test.reads()).toBe(tried + 1);

    test.answerWith(async () => test.titled('Wieder da'));
    test.advance(1_000);
    await test.text();
    await test.settled();
    expect(await test.text()).toEqual({ text: expect.stringContaining('Wieder da'), stale: false });

    // A change announced while the database cannot be read: the copy is served, marked.
    test.answerWith(async () => {
      throw new Error('Connection terminated unexpectedly');
    });
    test.changed();
    expect(await test.text()).toEqual({ text: expect.stringContaining('Wieder da'), stale: true });

    // A revision round of the domain that fails as the database goes away: the banner does not fail with it.
    test.resync();
    test.roundRunning(Promise.reject(new Error('Connection terminated unexpectedly')));
    expect(await test.text()).toEqual({ text: expect.stringContaining('Wieder da'), stale: true });
  });

  it('forgets a deleted domain, even one whose copy it kept', async () => {
    const test = await deliveryOverTestDatabase();
    expect((await test.text())!.stale).toBe(false);
    test.answerWith(async () => null);
    test.changed();
    expect(await test.text()).toBeNull();
    expect(test.delivery.cached(domain.domainId, 'de_DE')).toBeUndefined();
    test.answerWith(async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    });
    // Nothing kept to fall back on: the failure shows.
    test.resync();
    await expect(test.text()).rejects.toThrow(/ECONNREFUSED/);
  });
});
