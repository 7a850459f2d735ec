import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedBrowser } from '../src/scanner/browser.ts';
import { createScanner } from '../src/scanner/scan.ts';
import { API, createApiKey, createClient, createDomain } from './support/fixtures.ts';
import { startTestService, type TestService } from './support/service.ts';

/** Health, readiness, metrics and request logs: what operators watch. */

const lines: Record<string, unknown>[] = [];
let service: TestService;
beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  service = await startTestService({ logger: pino({ level: 'info' }, sink) });
}, 60_000);
afterAll(() => service.close());

describe('health and readiness', () => {
  it('/healthz answers without a key', async () => {
    const answer = await service.as(null).rest('GET', '/healthz');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok' });
  });

  it('/readyz checks the database and the migrations, and the browser as an optional part, without a key', { timeout: 60_000 }, async () => {
    const answer = await service.as(null).rest('GET', '/readyz');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok' }, optional: { browser: 'ok' } });
  });
});

describe('readiness of a service whose browser cannot start', () => {
  it('is ready, names the browser as an optional part that does not start (the cause only in the log), and its scans answer 503', { timeout: 60_000 }, async () => {
    const logged: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logged.push(JSON.parse(line));
        done();
      },
    });
    const broken = await startTestService({
      logger: pino({ level: 'info' }, sink),
      // Every address is allowed (nothing listens there): the scan gets as far as launching the browser.
      scanner: createScanner({ browser: createSharedBrowser({ chromePath: '/nonexistent/chromium' }), policy: async () => ({ address: '127.0.0.1', port: 1 }) }),
    });
    try {
      const answer = await broken.as(null).rest('GET', '/readyz');
      expect(answer.status, answer.text).toBe(200);
      // A public answer: fixed words, no path or driver message of the server.
      expect(answer.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok' }, optional: { browser: 'does not start' } });
      const warning = logged.find((line) => line.check === 'browser');
      expect(warning).toMatchObject({ level: 40, msg: 'readiness: browser does not start' });
      expect(JSON.stringify(warning)).toMatch(/CHROME_PATH \/nonexistent\/chromium/);
      expect((await broken.as(null).rest('GET', '/healthz')).status).toBe(200);

      const domain = await createDomain(broken);
      const scan = await broken.rest('GET', `${domain.base}/onboarding/scan`);
      expect(scan.status, scan.text).toBe(503);
      expect(scan.headers.get('retry-after')).toBe('60');
      expect(scan.body).toMatchObject({ status: 503, detail: expect.stringMatching(/^the browser does not start/) });
      // The rest of the API answers as usual.
      expect((await broken.rest('GET', `${domain.base}/placeholder`)).status).toBe(200);
    } finally {
      await broken.close();
    }
  });
});

describe('request logs', () => {
  it('write one JSON line per request: id (taken from X-Request-Id), method, path, status, duration, client', async () => {
    const client = await createClient(service);
    const { key } = await createApiKey(service, client.id, 'logs');
    await service.as(key).raw({ method: 'GET', path: `${API}/${client.id}`, headers: { 'x-request-id': 'trace-4711' } });
    const line = lines.find((entry) => (entry.req as { id?: string } | undefined)?.id === 'trace-4711');
    expect(line).toMatchObject({
      level: 30,
      req: { id: 'trace-4711', method: 'GET', url: `${API}/${client.id}` },
      route: '/hosting/api/client/:clientId',
      res: { status: 200 },
      clientId: client.id,
      responseTime: expect.any(Number),
    });
    expect(JSON.stringify(lines)).not.toContain(key);
  });

  it('name the route and the URL as requested for GraphQL and the mounted pages too', async () => {
    await service.raw({ method: 'POST', path: '/graphql', headers: { 'x-request-id': 'trace-graphql', 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ clients { id } }' }) });
    await service.as(null).raw({ method: 'GET', path: '/docs', headers: { 'x-request-id': 'trace-docs' } });
    const byId = (id: string) => lines.find((entry) => (entry.req as { id?: string } | undefined)?.id === id);
    expect(byId('trace-graphql')).toMatchObject({ req: { url: '/graphql' }, route: '/graphql', msg: 'POST /graphql 200' });
    expect(byId('trace-docs')).toMatchObject({ req: { url: '/docs' }, route: '/docs', msg: 'GET /docs 200' });
  });

  it('make a request id when none (or a strange one) is given, and answer with it', async () => {
    const answer = await service.raw({ method: 'GET', path: API, headers: { 'x-request-id': 'spaces are not allowed' } });
    const id = answer.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines.some((entry) => (entry.req as { id?: string } | undefined)?.id === id)).toBe(true);
  });
});

describe('metrics', () => {
  it('are for the administrator only', async () => {
    expect((await service.as(null).raw({ method: 'GET', path: '/metrics' })).status).toBe(401);
    const client = await createClient(service);
    const { key } = await createApiKey(service, client.id, 'metrics');
    expect((await service.as(key).raw({ method: 'GET', path: '/metrics' })).status).toBe(404);
  });

  it('count HTTP requests by route, GraphQL operations, scans, SQL statements and the pool', { timeout: 60_000 }, async () => {
    const domain = await createDomain(service);
    await service.rest('GET', `${domain.base}/placeholder`);
    await service.graphql('query ListClients { clients { id } }');
    await service.rest('GET', `${domain.base}/onboarding/scan`); // offline here: a crawl failure
    await service.graphql('{ clients { id ');
    await service.graphql('{ noSuchField }');
    await service.as(null).raw({ method: 'GET', path: '/docs' });
    const text = (await service.raw({ method: 'GET', path: '/metrics' })).text;
    expect(text).toMatch(/consent_config_graphql_rejected_total\{stage="parse"\} [1-9]/);
    expect(text).toMatch(/consent_config_graphql_rejected_total\{stage="validate"\} [1-9]/);
    expect(text).toMatch(/consent_config_http_request_duration_seconds_count\{method="POST",route="\/graphql",status="200"\} [1-9]/);
    expect(text).toMatch(/consent_config_http_request_duration_seconds_count\{method="GET",route="\/docs",status="200"\} [1-9]/);
    expect(text).toMatch(/consent_config_http_request_duration_seconds_count\{method="GET",route="\/hosting\/api\/client\/:clientId\/domain\/:domainId\/placeholder",status="200"\} [1-9]/);
    expect(text).toMatch(/consent_config_graphql_operation_duration_seconds_count\{type="query",name="ListClients",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/consent_config_scan_duration_seconds_count\{outcome="crawl"\} [1-9]/);
    expect(text).toMatch(/^consent_config_db_statements_total [1-9]\d*$/m);
    expect(text).toMatch(/^consent_config_db_pool_total_connections \d+$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });
});
