import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Agent, createServer, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDisplayCounter } from '../../../src/features/banner/display-counter.ts';
import { CHUNK_NAMES, loadBannerBundles } from '../../../src/features/banner/runtime-bundle.ts';
import { createDomain, embeddingPayload, unknownId } from '../../support/fixtures.ts';
import { startServiceProcess } from '../../support/service-process.ts';
import { ADMIN_KEY } from '../../support/service.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

/** What the snippet loads: the public banner script of a domain, and the runtime it brings. */
describe('the public banner script (app.js)', () => {
  const { service, domain, client } = useServiceWithDomain({ service: { displayCountFlushMs: 3_600_000 } });

  const appJs = (query: string, headers: Record<string, string> = {}) =>
    fetch(`${service.baseUrl}/app.js?${query}`, { headers: { 'accept-encoding': 'identity', ...headers } });
  const withEmbedding = async (overrides: Record<string, unknown> = {}) => {
    const answer = await service.rest('POST', `${domain.base}/embedding`, embeddingPayload(overrides));
    expect(answer.status, answer.text).toBe(201);
    return answer.body as { id: string };
  };

  it('answers the banner without a key, for any origin, cacheable by a CDN, with a strong validator', async () => {
    await withEmbedding();
    const answer = await appJs(`domain=${domain.domainId}`, { origin: 'https://www.example.org' });
    const body = await answer.text();
    expect(answer.status, body).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=86400, stale-if-error=86400');
    expect(answer.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(body).toContain('Wir nutzen auf dieser Website Cookies');
    // Answered before Express, yet measured like every request.
    const metrics = await service.rest('GET', '/metrics');
    expect(metrics.text).toMatch(/consent_config_http_request_duration_seconds_count\{method="GET",route="\/app\.js",status="200"\} [1-9]/);
  });

  it('answers 304 to a current copy, and the same bytes gzipped to a browser that takes them', async () => {
    await withEmbedding();
    const first = await appJs(`domain=${domain.domainId}`);
    const plain = Buffer.from(await first.arrayBuffer());
    const etag = first.headers.get('etag')!;
    const again = await appJs(`domain=${domain.domainId}`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const zipped = await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`, { headers: { 'accept-encoding': 'gzip' } });
    // fetch unpacks it; the header says it travelled gzipped.
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(Buffer.from(await zipped.arrayBuffer()).equals(plain)).toBe(true);
    expect(zipped.headers.get('etag')).toBe(etag);
  });

  /**
   * Waits until the change feed has delivered every announcement committed so far: they come a
   * moment after their commits (on PostgreSQL over a connection of their own), and the write's
   * announcements (its tables', then its revision's) arriving after a load would drop what it built.
   */
  const announcementsDelivered = async () => {
    const marker = randomUUID();
    let unsubscribe = () => {};
    const delivered = new Promise<void>((resolve) => {
      unsubscribe = service.database.changes.subscribe({ changed: (id) => id === marker && resolve(), resync: resolve });
    });
    await service.database.orm.em.fork().execute(`select pg_notify('published_configuration', ?)`, [marker]);
    await delivered;
    unsubscribe();
  };

  it('sends no SQL statement for a warm load, and is rebuilt at once after a write that changes it', async () => {
    const embedding = await withEmbedding({ name: 'Erster Name' });
    await announcementsDelivered();
    const first = await appJs(`domain=${domain.domainId}&lang=de_DE`);
    expect(await first.text()).toContain('Erster Name');
    const before = service.database.statements.total;
    for (let i = 0; i < 20; i++) expect((await appJs(`domain=${domain.domainId}&lang=de_DE`)).status).toBe(200);
    expect(service.database.statements.total - before).toBe(0);

    const update = await service.rest('PUT', `${domain.base}/embedding/${embedding.id}`, { name: 'Zweiter Name' });
    expect(update.status, update.text).toBe(200);
    const after = await appJs(`domain=${domain.domainId}&lang=de_DE`);
    const text = await after.text();
    expect(text).toContain('Zweiter Name');
    expect(text).not.toContain('Erster Name');
    expect(after.headers.get('etag')).not.toBe(first.headers.get('etag'));
  });

  it('is rebuilt after writes of placeholders, themes, locales, assets and the domain, and after a deletion', async () => {
    const embedding = await withEmbedding();
    const changes: [string, string, unknown, string][] = [
      ['PUT', `${domain.base}/locale/de_DE`, { widgetTitle: 'Titel {FIRMA}' }, 'Titel {FIRMA}'],
      ['PUT', `${domain.base}/placeholder`, [{ name: 'FIRMA', value: 'Beispiel GmbH' }], 'Titel Beispiel GmbH'],
      ['POST', `${domain.base}/embedding/${embedding.id}/asset`, { name: 'neues_cookie' }, 'neues_cookie'],
      ['PUT', domain.base, { consentCookieLifetime: 42 }, '42'],
    ];
    for (const [method, path, body, expected] of changes) {
      const write = await service.rest(method, path, body);
      expect(write.status, write.text).toBeLessThan(300);
      expect(await (await appJs(`domain=${domain.domainId}&lang=de_DE`)).text()).toContain(expected);
    }
    const removed = await service.rest('DELETE', `${domain.base}/embedding/${embedding.id}`);
    expect(removed.status).toBe(204);
    // Nothing left to ask: the script does nothing.
    expect(await (await appJs(`domain=${domain.domainId}`)).text()).toMatch(/^\/\* The consent banner is switched off/);
  });

  it('does nothing on a domain whose banner is switched off, and honours a domain that turned caching off', async () => {
    await withEmbedding();
    await service.rest('PUT', domain.base, { frontendWidgetEnabled: false });
    const off = await appJs(`domain=${domain.domainId}`);
    expect(off.status).toBe(200);
    expect(await off.text()).toMatch(/^\/\* The consent banner is switched off/);
    await service.rest('PUT', domain.base, { frontendWidgetEnabled: true, frontendWidgetCache: false });
    expect((await appJs(`domain=${domain.domainId}`)).headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404 for an unknown domain (asking the database once), 400 for a malformed or missing one', async () => {
    const unknown = await appJs(`domain=${unknownId()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const before = service.database.statements.total;
    for (let i = 0; i < 5; i++) expect((await appJs(`domain=${unknownId()}`)).status).toBe(404);
    expect(service.database.statements.total - before).toBe(0);
    expect((await appJs(`domain=${randomUUID()}`)).status).toBe(404);
    expect((await appJs(`domain=${domain.domainId}&domain=${domain.domainId}`)).status).toBe(400);
    const post = await fetch(`${service.baseUrl}/app.js?domain=${domain.domainId}`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await appJs('domain=nope')).status).toBe(400);
    expect((await appJs('')).status).toBe(400);
  });

  it('serves a domain that was unknown when first asked for, once it exists', async () => {
    const id = randomUUID();
    expect((await appJs(`domain=${id}`)).status).toBe(404);
    // A domain with exactly that id (the service picks ids itself: a copy of this one, made in SQL).
    await service.database.orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into "domain" select (jsonb_populate_record(null::"domain", to_jsonb(d) || jsonb_build_object('id', ?::uuid))).* from "domain" d where d."id" = ?`,
        [id, domain.domainId],
      );
    expect((await appJs(`domain=${id}`)).status).toBe(200);
  });

  it('brings its runtime from a content-hashed address that never changes', async () => {
    await withEmbedding();
    const body = await (await appJs(`domain=${domain.domainId}`)).text();
    const runtimePath = body.match(/\/banner\/runtime-[0-9a-f]+\.js/)?.[0];
    expect(runtimePath, 'the runtime address in app.js').toBeDefined();
    const runtime = await fetch(`${service.baseUrl}${runtimePath}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(runtime.status).toBe(200);
    expect(runtime.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(runtime.headers.get('access-control-allow-origin')).toBe('*');
    expect((await runtime.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    expect((await fetch(`${service.baseUrl}/banner/runtime-0000.js`)).status).toBe(404);
  });

  it('serves the on-demand bundles (TCF, GPP) at their content-hashed addresses, and names them only in the banners that use them', async () => {
    await withEmbedding();
    const bundles = await loadBannerBundles();
    const appText = await (await appJs(`domain=${domain.domainId}`)).text();
    for (const name of CHUNK_NAMES) {
      const path = `/banner/${name}-${bundles.chunks[name].hash}.js`;
      expect(appText, `a banner without ${name} does not name its bundle`).not.toContain(`/banner/${name}-`);
      for (const fastPath of [true, false]) {
        // The Express route answers what the fast path leaves to it (a query string).
        const answer = await fetch(`${service.baseUrl}${path}${fastPath ? '' : '?x=1'}`, { headers: { 'accept-encoding': 'gzip' } });
        expect(answer.status, `${path} ${fastPath}`).toBe(200);
        expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(answer.headers.get('content-type')).toMatch(/^text\/javascript/);
        expect(await answer.text()).toBe(bundles.chunks[name].text);
      }
      expect((await fetch(`${service.baseUrl}/banner/${name}-${'0'.repeat(64)}.js`)).status).toBe(404);
      expect((await fetch(`${service.baseUrl}${path}`, { method: 'POST' })).status).toBe(405);
    }
  });

  it("counts a banner shown towards the client's month, once a visitor, written in batches", async () => {
    await withEmbedding();
    const other = await createDomain(service, 'shop.example.org', { clientId: client.id });
    await service.rest('POST', `${other.base}/embedding`, embeddingPayload());
    // No proxy is trusted here: the addresses a load claims are not believed, the connection's is.
    for (let i = 0; i < 5; i++) await appJs(`domain=${domain.domainId}`, { 'x-forwarded-for': `203.0.113.${i + 1}` });
    for (let i = 0; i < 2; i++) await appJs(`domain=${other.domainId}`, { 'if-none-match': '"whatever"' });
    const unwritten = await service.rest('GET', `/hosting/api/client/${client.id}`);
    expect(unwritten.body.widgetDisplayCount).toBe(0);
    await service.services.banner.counter.flush();
    const read = await service.rest('GET', `/hosting/api/client/${client.id}`);
    expect(read.body.widgetDisplayCount).toBe(2);
    const list = await service.rest('GET', '/hosting/api/client');
    const listed = list.body.find((item: { id: string }) => item.id === client.id);
    expect(listed.actualCallCount).toBe(2);
    expect(listed.domainCountData).toEqual(expect.arrayContaining([{ domName: 'www.example.org', count: 1 }, { domName: 'shop.example.org', count: 1 }]));
    const graphql = await service.graphql(`query($id: ID!) { client(id: $id) { widgetDisplayCount } }`, { id: client.id });
    expect(graphql.data?.client.widgetDisplayCount).toBe(2);
  });
});

const DAY_MS = 86_400_000;

/** Noon (UTC) of two days in a row within the current month: the figure read is this month's. */
function twoDaysThisMonth(): [number, number] {
  const today = Math.floor(Date.now() / DAY_MS);
  const sameMonth = new Date((today + 1) * DAY_MS).getUTCMonth() === new Date(today * DAY_MS).getUTCMonth();
  const first = sameMonth ? today : today - 1;
  return [first * DAY_MS + DAY_MS / 2, (first + 1) * DAY_MS + DAY_MS / 2];
}

/**
 * What a client is billed by (`widgetDisplayCount`, `actualCallCount`): banners shown. A domain's
 * banner counts once per visitor and UTC day — a visitor being an IPv4 address or an IPv6 /64,
 * read behind the proxies TRUST_PROXY trusts — so no loop of loads inflates it.
 */
describe('banner loads that bill', () => {
  let time = Date.now();
  const { service, domain, client } = useServiceWithDomain({
    service: { displayCountFlushMs: 3_600_000, trustProxy: 'loopback', displayCountClock: () => time },
  });

  /** A load from `address`, through the fast path or (the path in other letters) through the Express route. */
  const loadFrom = async (address: string, { viaExpress = false } = {}) => {
    const path = viaExpress ? '/App.js' : '/app.js';
    const answer = await fetch(`${service.baseUrl}${path}?domain=${domain.domainId}&lang=de_DE`, { headers: { 'x-forwarded-for': address } });
    expect(answer.status, await answer.text()).toBe(200);
  };
  const figure = async () => {
    await service.services.banner.counter.flush();
    const read = await service.rest('GET', `/hosting/api/client/${client.id}`);
    const list = await service.rest('GET', '/hosting/api/client');
    const listed = list.body.find((item: { id: string }) => item.id === client.id);
    expect(listed.actualCallCount).toBe(read.body.widgetDisplayCount);
    return read.body.widgetDisplayCount as number;
  };
  const withEmbedding = async () => {
    expect((await service.rest('POST', `${domain.base}/embedding`, embeddingPayload())).status).toBe(201);
  };

  it('a loop of 200 loads from one address moves the figure by one', async () => {
    time = twoDaysThisMonth()[0];
    await withEmbedding();
    expect(await figure()).toBe(0);
    for (let i = 0; i < 200; i++) await loadFrom('203.0.113.7', { viaExpress: i % 2 === 1 });
    expect(await figure()).toBe(1);
    const graphql = await service.graphql(`query($id: ID!) { client(id: $id) { widgetDisplayCount } }`, { id: client.id });
    expect(graphql.data?.client.widgetDisplayCount).toBe(1);
  });

  it('two addresses count two; addresses of one IPv6 /64 count as one visitor', async () => {
    time = twoDaysThisMonth()[0];
    await withEmbedding();
    for (let i = 0; i < 20; i++) {
      await loadFrom('203.0.113.7');
      await loadFrom('198.51.100.9', { viaExpress: true });
    }
    expect(await figure()).toBe(2);
    for (let host = 1; host <= 20; host++) await loadFrom(`2001:db8:5:6::${host.toString(16)}`);
    await loadFrom('2001:0db8:0005:0006:ffff::1');
    expect(await figure()).toBe(3);
  });

  it('the next UTC day counts each visitor again', async () => {
    const [first, second] = twoDaysThisMonth();
    time = first;
    await withEmbedding();
    for (let i = 0; i < 50; i++) await loadFrom('203.0.113.7');
    expect(await figure()).toBe(1);
    time = first + DAY_MS / 2 - 1;
    await loadFrom('203.0.113.7');
    expect(await figure()).toBe(1);
    time = second;
    for (let i = 0; i < 50; i++) await loadFrom('203.0.113.7', { viaExpress: i % 2 === 0 });
    expect(await figure()).toBe(2);
  });

  it('counts a visitor once however many processes serve the loads', async () => {
    time = twoDaysThisMonth()[0];
    await withEmbedding();
    // A second process's counter on the same database, fed by real requests.
    const other = createDisplayCounter(service.database.orm, { trustProxy: 'loopback', now: () => time, flushEveryMs: 3_600_000 });
    const server = createServer((req, res) => {
      other.count(client.id, domain.domainId, req);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const otherUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      for (let i = 0; i < 10; i++) {
        await loadFrom('203.0.113.7');
        await (await fetch(otherUrl, { headers: { 'x-forwarded-for': '203.0.113.7' } })).text();
      }
      await other.flush();
      expect(await figure()).toBe(1);
      await (await fetch(otherUrl, { headers: { 'x-forwarded-for': '198.51.100.9' } })).text();
      await other.flush();
      expect(await figure()).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await other.close();
    }
  });

  it('without trusted proxies, a kept-alive connection counts once per banner and day, and again the next day', async () => {
    const [first, second] = twoDaysThisMonth();
    time = first;
    await withEmbedding();
    const other = await createDomain(service, 'second.example.org', { clientId: client.id });
    const counter = createDisplayCounter(service.database.orm, { now: () => time, flushEveryMs: 3_600_000 });
    const server = createServer((req, res) => {
      counter.count(client.id, req.url === '/other' ? other.domainId : domain.domainId, req);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const load = (path: string) => new Promise<void>((resolve, reject) => {
      httpGet(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
    });
    try {
      for (let i = 0; i < 30; i++) await load(i % 3 === 2 ? '/other' : '/');
      await counter.flush();
      expect(await figure()).toBe(2);
      time = second;
      for (let i = 0; i < 10; i++) await load('/');
      await counter.flush();
      expect(await figure()).toBe(3);
    } finally {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await counter.close();
    }
  });
});

describe.runIf(onPostgres)('several service processes on one PostgreSQL database', () => {
  const { service, domain } = useServiceWithDomain({ domainPer: 'suite' });
  let second: Awaited<ReturnType<typeof startServiceProcess>>;

  beforeAll(async () => {
    second = await startServiceProcess({
      env: { DATABASE_URL: service.databaseUrl!, ADMIN_API_KEY: ADMIN_KEY, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    });
  }, 60_000);
  afterAll(() => second?.stop());

  it('serve the new banner within a second of a write through another one', async () => {
    expect(second.ready, second.output().stderr).toBe(true);
    const embedding = (await service.rest('POST', `${domain.base}/embedding`, embeddingPayload({ name: 'Alt' }))).body as { id: string };
    const load = async () => (await fetch(`${second.base}/app.js?domain=${domain.domainId}&lang=de_DE`)).text();
    // The set-up: a write is answered before its revision is stored, so the second process may show
    // the revision before it for a moment; the test times the next write, from a settled start.
    for (const started = Date.now(); !(await load()).includes('Alt') && Date.now() - started < 10_000; ) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await load()).toContain('Alt');
    await service.rest('PUT', `${domain.base}/embedding/${embedding.id}`, { name: 'Neu' });
    const written = Date.now();
    let seen = false;
    while (!seen && Date.now() - written < 1_000) {
      seen = (await load()).includes('Neu');
      if (!seen) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen, 'the second process serves the change within a second').toBe(true);
  });
});

describe('banner loads across a restart', () => {
  it('are written when the service stops, so a restart loses none', async () => {
    const workDir = await mkdtemp(join(tmpdir(), 'banner-loads-'));
    const env = { DATABASE_URL: '', DATA_DIR: join(workDir, 'data'), ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'warn', TRUST_PROXY: 'loopback' };
    try {
      const first = await startServiceProcess({ env });
      expect(first.ready, first.output().stderr).toBe(true);
      const client = (await first.request('POST', '/hosting/api/client', { body: { username: 'loads', emailAddress: 'loads@example.org', password: 'a-password', domainMaxCount: 1 } })).body as { id: string };
      const domain = (await first.request('POST', `/hosting/api/client/${client.id}/domain`, { body: { name: 'www.example.org' } })).body as { id: string };
      await first.request('POST', `/hosting/api/client/${client.id}/domain/${domain.id}/embedding`, { body: embeddingPayload() });
      // Nine visitors: each counts once.
      for (let i = 0; i < 9; i++) {
        const load = await fetch(`${first.base}/app.js?domain=${domain.id}`, { headers: { 'x-forwarded-for': `203.0.113.${i + 1}` } });
        expect(load.status).toBe(200);
      }
      // Stopped at once: well within the two seconds after which the counts would be written anyway.
      expect(await first.stop('SIGTERM')).toBe(0);

      const second = await startServiceProcess({ env });
      try {
        const read = await second.request('GET', `/hosting/api/client/${client.id}`);
        expect((read.body as { widgetDisplayCount: number }).widgetDisplayCount).toBe(9);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }, 60_000);
});
