import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTestDatabase } from '../support/database.ts';
import { type OtlpReceiver, type ReceivedSpan, SPAN_KIND, startOtlpReceiver } from '../support/otlp-receiver.ts';
import { type ServiceProcess, startServiceProcess } from '../support/service-process.ts';
import { until } from '../support/until.ts';

/**
 * Traces of the real service process (settings from its environment, as in production): with
 * OTEL_EXPORTER_OTLP_ENDPOINT set, its spans reach an OTLP receiver, continue the `traceparent` a
 * request brings, nest statements under requests and GraphQL operations, and name the trace in
 * the request's log line. Without it, no OpenTelemetry SDK is loaded at all.
 */

const ADMIN = 'tracing-admin-key-0123456789abcdef';
const API = '/hosting/api/client';
const HOOKS = ['--import', './test/support/opentelemetry-loads.ts', 'src/main.ts'];
/** How that hook names a package the process loaded (importing it here would hook this process too). */
const LOADED_MARK = 'opentelemetry package loaded: ';
const VERSION = (JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const CLIENT = { username: `operator-${randomBytes(4).toString('hex')}`, emailAddress: 'ops@example.org', password: 'operator-password', active: true };

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const traceparent = (traceId: string, parentId: string) => `00-${traceId}-${parentId}-01`;

let workDir: string;
let receiver: OtlpReceiver;
let dropDatabases: (() => Promise<void>)[] = [];

/** A database of its own: a DATA_DIR, or a fresh database on the PostgreSQL server. */
async function newDatabase(name: string): Promise<Record<string, string>> {
  const { databaseUrl, drop } = await freshTestDatabase();
  dropDatabases.push(drop);
  return databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '', DATA_DIR: join(workDir, name) };
}

const loadedPackages = (service: ServiceProcess) =>
  service
    .output()
    .stderr.split('\n')
    .filter((line) => line.startsWith(LOADED_MARK))
    .map((line) => line.slice(LOADED_MARK.length))
    .sort();

/** Log lines of the process (JSON). */
const logLines = (service: ServiceProcess) =>
  service
    .output()
    .stdout.split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'tracing-'));
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  await receiver?.close();
  for (const drop of dropDatabases) await drop();
  dropDatabases = [];
  await rm(workDir, { recursive: true, force: true });
});

describe('with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  let service: ServiceProcess;
  beforeAll(async () => {
    service = await startServiceProcess({
      args: HOOKS,
      env: {
        ...(await newDatabase('traced')),
        ADMIN_API_KEY: ADMIN,
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_SERVICE_NAME: 'consent-config-under-test',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
      timeoutMs: 60_000,
    });
    expect(service.ready, JSON.stringify(service.output())).toBe(true);
  }, 90_000);
  afterAll(async () => {
    expect(await service?.stop()).toBe(0);
  });

  const spansOf = (traceId: string) => receiver.spans.filter((span) => span.traceId === traceId);
  /** Waits for the trace's spans until `ready` holds for them. */
  const trace = (traceId: string, ready: (spans: ReceivedSpan[]) => boolean) =>
    until(`the spans of trace ${traceId}`, async () => (ready(spansOf(traceId)) ? spansOf(traceId) : undefined));
  const call = (path: string, traceId: string, init: RequestInit = {}) =>
    fetch(`${service.base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${ADMIN}`, traceparent: traceparent(traceId, hex(8)), ...(init.headers as Record<string, string>) },
    });

  it('loads the OpenTelemetry SDK', () => {
    expect(loadedPackages(service)).toEqual(
      expect.arrayContaining(['@opentelemetry/api', '@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/context-async-hooks']),
    );
  });

  it("continues a REST request's traceparent; its span is the parent of the request's statements; its log line names the trace", async () => {
    const traceId = hex(16);
    const callerSpan = hex(8);
    const answer = await fetch(`${service.base}${API}`, { headers: { authorization: `Bearer ${ADMIN}`, traceparent: traceparent(traceId, callerSpan) } });
    expect(answer.status).toBe(200);

    const spans = await trace(traceId, (found) => found.some((span) => span.kind === SPAN_KIND.server) && found.some((span) => span.attributes['db.system.name']));
    const request = spans.find((span) => span.kind === SPAN_KIND.server)!;
    expect(request).toMatchObject({
      parentSpanId: callerSpan,
      name: `GET ${API}`,
      attributes: { 'http.request.method': 'GET', 'http.route': API, 'url.path': API, 'http.response.status_code': 200 },
      resource: { 'service.name': 'consent-config-under-test', 'service.version': VERSION, 'process.pid': service.child.pid },
    });
    const statements = spans.filter((span) => span.attributes['db.system.name'] === 'postgresql');
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(statement).toMatchObject({ kind: SPAN_KIND.client, parentSpanId: request.spanId, attributes: { 'db.query.text': expect.any(String) } });
    }
    expect(statements.map((statement) => statement.name)).toContainEqual(expect.stringMatching(/^SELECT /));

    const line = await until('the request log line', async () =>
      logLines(service).find((entry) => (entry.req as { url?: string } | undefined)?.url === API && entry.trace_id === traceId),
    );
    expect(line).toMatchObject({ span_id: request.spanId, pid: service.child.pid, hostname: expect.any(String), version: VERSION, res: { status: 200 } });
    // OTLP/HTTP in its JSON encoding, at <endpoint>/v1/traces.
    expect(receiver.exports.length).toBeGreaterThan(0);
    expect(receiver.exports.every((request) => request.path === '/v1/traces' && request.contentType === 'application/json')).toBe(true);
  });

  it('traces a GraphQL operation as a child of the request, named by the operation, with its statements under it', async () => {
    const traceId = hex(16);
    const answer = await call('/graphql', traceId, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query TracedClients { clients { id username } }', operationName: 'TracedClients' }),
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { errors?: unknown }).errors).toBeUndefined();

    const spans = await trace(traceId, (found) => found.some((span) => span.name === 'query TracedClients') && found.some((span) => span.kind === SPAN_KIND.server));
    const request = spans.find((span) => span.kind === SPAN_KIND.server)!;
    const operation = spans.find((span) => span.name === 'query TracedClients')!;
    expect(request).toMatchObject({ name: 'POST /graphql', attributes: { 'http.route': '/graphql', 'http.response.status_code': 200 } });
    expect(operation).toMatchObject({
      parentSpanId: request.spanId,
      kind: SPAN_KIND.internal,
      attributes: { 'graphql.operation.type': 'query', 'graphql.operation.name': 'TracedClients' },
    });
    const statements = spans.filter((span) => span.attributes['db.system.name'] === 'postgresql');
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((statement) => statement.parentSpanId === operation.spanId).length).toBeGreaterThan(0);
    for (const statement of statements) expect([request.spanId, operation.spanId]).toContain(statement.parentSpanId);
  });

  it('traces a banner load that reads the database, but not a warm one answered from memory', async () => {
    const client = (await (await call(API, hex(16), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CLIENT) })).json()) as { id: string };
    const created = await call(`${API}/${client.id}/domain`, hex(16), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'www.example.org' }) });
    expect(created.status).toBe(201);
    const domainId = ((await created.json()) as { id: string }).id;

    const cold = hex(16);
    expect((await fetch(`${service.base}/app.js?domain=${domainId}`, { headers: { traceparent: traceparent(cold, hex(8)) } })).status).toBe(200);
    const spans = await trace(cold, (found) => found.some((span) => span.kind === SPAN_KIND.server) && found.some((span) => span.attributes['db.system.name']));
    const load = spans.find((span) => span.kind === SPAN_KIND.server)!;
    expect(load).toMatchObject({ name: 'GET /app.js', attributes: { 'http.route': '/app.js', 'url.path': '/app.js', 'http.response.status_code': 200 } });
    expect(spans.filter((span) => span.attributes['db.system.name']).every((span) => span.parentSpanId === load.spanId)).toBe(true);

    /** Loads the banner; the names of the spans the load made. */
    const loadBanner = async () => {
      const traceId = hex(16);
      expect((await fetch(`${service.base}/app.js?domain=${domainId}`, { headers: { traceparent: traceparent(traceId, hex(8)) } })).status).toBe(200);
      // Spans are exported in the order they end: once a later request's span is here, a span of this load would be too.
      const later = hex(16);
      expect((await call('/healthz', later)).status).toBe(200);
      await trace(later, (found) => found.length > 0);
      return spansOf(traceId).map((span) => span.name);
    };
    // The domain's revision, stored after its creation, is announced; on a PostgreSQL server the
    // announcement may arrive after the first load and have the next one read the domain again.
    const traced: string[][] = [];
    while (traced.length < 5 && (traced.length === 0 || traced.at(-1)!.length > 0)) traced.push(await loadBanner());
    expect(traced.at(-1), JSON.stringify(traced)).toEqual([]);
    for (const spans of traced.filter((names) => names.length > 0)) expect(spans).toContain('GET /app.js');
    // Warm from now on: no span for any load.
    expect([await loadBanner(), await loadBanner(), await loadBanner()]).toEqual([[], [], []]);
  });
});

describe('without an endpoint', () => {
  it('loads no OpenTelemetry SDK package (only the API, which pg-boss imports), and its log lines carry no trace ids', { timeout: 90_000 }, async () => {
    const service = await startServiceProcess({
      args: HOOKS,
      env: { ...(await newDatabase('untraced')), ADMIN_API_KEY: ADMIN, LOG_FORMAT: 'json', LOG_LEVEL: 'info' },
      timeoutMs: 60_000,
    });
    try {
      expect(service.ready, JSON.stringify(service.output())).toBe(true);
      const traceId = hex(16);
      const headers = { authorization: `Bearer ${ADMIN}`, traceparent: traceparent(traceId, hex(8)) };
      expect((await fetch(`${service.base}${API}`, { headers })).status).toBe(200);
      const graphql = await fetch(`${service.base}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ clients { id } }' }) });
      expect(graphql.status).toBe(200);
      const line = await until('the request log line', async () => logLines(service).find((entry) => (entry.req as { url?: string } | undefined)?.url === API));
      expect(line).toMatchObject({ pid: service.child.pid, hostname: expect.any(String), version: VERSION });
      expect(logLines(service).some((entry) => 'trace_id' in entry || 'span_id' in entry)).toBe(false);
      expect(loadedPackages(service)).toEqual(['@opentelemetry/api']);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});

describe('a bad tracing setting', () => {
  it('stops the start like any setting, naming the variable', { timeout: 60_000 }, async () => {
    const service = await startServiceProcess({
      env: { ...(await newDatabase('bad')), ADMIN_API_KEY: ADMIN, OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318', OTEL_TRACES_SAMPLER: 'sometimes' },
      timeoutMs: 20_000,
    });
    expect(service.ready).toBe(false);
    expect(await service.exited).toBe(1);
    expect(service.output().stderr).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(service.output().stderr).toMatch(/OTEL_TRACES_SAMPLER/);
  });
});
