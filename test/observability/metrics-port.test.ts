import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTestDatabase } from '../support/database.ts';
import { API, createClient, createDomain } from '../support/fixtures.ts';
import { freePort, type ServiceProcess, startServiceProcess } from '../support/service-process.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { until } from '../support/until.ts';

/**
 * Metrics for a Prometheus without the administrator key: METRICS_PORT serves GET /metrics alone;
 * the application's metrics carry the `consent_config_` prefix and count consent records, banner
 * builds and loads, webhook deliveries and the job queue's depth. A scan worker's port shows its
 * scans and the queue too.
 */

const ADMIN = 'metrics-admin-key-0123456789abcdef';

/** The value of one series (`name{labels}` exactly as printed), or undefined. */
const valueOf = (text: string, series: string) => {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('METRICS_PORT of the API process', () => {
  let workDir: string;
  let drop = async () => {};
  let service: ServiceProcess;
  let metricsPort: number;
  const scrape = () => fetch(`http://127.0.0.1:${metricsPort}/metrics`);

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'metrics-port-'));
    const database = await freshTestDatabase();
    drop = database.drop;
    metricsPort = await freePort();
    service = await startServiceProcess({
      env: {
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : { DATABASE_URL: '', DATA_DIR: join(workDir, 'data') }),
        ADMIN_API_KEY: ADMIN,
        METRICS_PORT: String(metricsPort),
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
      },
      timeoutMs: 60_000,
    });
    expect(service.ready, JSON.stringify(service.output())).toBe(true);
  }, 90_000);

  afterAll(async () => {
    expect(await service?.stop()).toBe(0);
    await drop();
    await rm(workDir, { recursive: true, force: true });
  });

  it('serves GET /metrics without a key, and nothing else; the main port still wants the administrator key', async () => {
    const answer = await scrape();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await answer.text();
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^consent_config_db_statements_total [1-9]\d*$/m);
    expect(text).toMatch(/^consent_config_db_pool_total_connections \d+$/m);
    // No metric of the application's own without the prefix.
    const own = [...text.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1]!).filter((name) => !/^(process|nodejs)_/.test(name));
    expect(own.length).toBeGreaterThan(8);
    expect(own.filter((name) => !name.startsWith('consent_config_'))).toEqual([]);
    expect(JSON.parse(service.output().stdout.split('\n').find((line) => line.includes('"listening on'))!)).toMatchObject({ metricsPort });

    expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/hosting/api/client`, { headers: { authorization: `Bearer ${ADMIN}` } })).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${service.base}/metrics`)).status).toBe(401);
    expect((await fetch(`${service.base}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).status).toBe(200);
  });

  it('count banner builds and loads, consent records, webhook deliveries by outcome, and the job queue by queue', async () => {
    const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
    const client = await fetch(`${service.base}${API}`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ username: `operator-${randomUUID()}`, emailAddress: 'ops@example.org', password: 'operator-password', active: true }),
    });
    const clientId = ((await client.json()) as { id: string }).id;
    const domain = await fetch(`${service.base}${API}/${clientId}/domain`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'www.example.org' }) });
    const domainId = ((await domain.json()) as { id: string }).id;
    const before = await (await scrape()).text();

    for (let load = 0; load < 3; load++) expect((await fetch(`${service.base}/app.js?domain=${domainId}`)).status).toBe(200);
    const revisions = await fetch(`${service.base}${API}/${clientId}/domain/${domainId}/revision?limit=1`, { headers: admin });
    const revision = ((await revisions.json()) as { revisions: { hash: string }[] }).revisions[0]!.hash;
    const record = await fetch(`${service.base}/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ domain: domainId, consentId: randomUUID(), choice: 'custom', categories: ['necessary'], services: [], revision, locale: 'en_GB', url: 'https://www.example.org/' }),
    });
    expect(record.status, await record.clone().text()).toBe(201);

    const after = await (await scrape()).text();
    const grew = (series: string) => (valueOf(after, series) ?? 0) - (valueOf(before, series) ?? 0);
    expect(grew('consent_config_banner_loads_total')).toBe(3);
    expect(grew('consent_config_banner_builds_total')).toBe(1);
    expect(grew('consent_config_consent_records_total')).toBe(1);
    for (const outcome of ['delivered', 'failed', 'refused', 'no_webhook']) {
      expect(valueOf(after, `consent_config_webhook_deliveries_total{outcome="${outcome}"}`)).toBe(0);
    }
    // The queues this process declares once it listens, read from the job table (at most every 5 s).
    const queues = await until('the job queues in the metrics', async () => {
      const text = await (await scrape()).text();
      return text.includes('consent_config_job_queue_running{queue="webhook-delivery"}') ? text : undefined;
    });
    expect(valueOf(queues, 'consent_config_job_queue_depth{queue="scan"}')).toBe(0);
    expect(valueOf(queues, 'consent_config_job_queue_running{queue="webhook-delivery"}')).toBe(0);
  });
});

describe('a scan worker', () => {
  let service: TestService;
  let worker: ChildProcess;
  let output = '';
  let base: string;

  beforeAll(async () => {
    service = await startTestService({ scanWorker: false });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    worker = spawn(process.execPath, [new URL('../../bin/consent-config.ts', import.meta.url).pathname, 'scan-worker', '--concurrency', '1'], {
      cwd: new URL('../../', import.meta.url).pathname,
      env: { ...process.env, DATABASE_URL: service.database.url, HOST: '127.0.0.1', SCAN_WORKER_PORT: String(port), LOG_LEVEL: 'info', LOG_FORMAT: 'json', ADMIN_API_KEY: '', SCAN_ALLOW_PRIVATE_ADDRESSES: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    worker.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until('the worker to take scans', async () => (output.includes('scan worker running') ? true : undefined));
  }, 120_000);

  afterAll(async () => {
    if (worker?.exitCode === null) {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
    }
    await service?.close();
  });

  it('shows the scans it ran, by outcome, and the job queue, on its health port', { timeout: 90_000 }, async () => {
    const client = await createClient(service);
    // A loopback address, which the worker (SCAN_ALLOW_PRIVATE_ADDRESSES unset) refuses to visit.
    const domain = await createDomain(service, 'http://127.0.0.1:9/', { clientId: client.id });
    const started = await service.rest('POST', `${domain.base}/scan`);
    expect(started.status, started.text).toBe(201);
    const text = await until('the worker to count the scan', async () => {
      const scraped = await (await fetch(`${base}/metrics`)).text();
      return valueOf(scraped, 'consent_config_scan_duration_seconds_count{outcome="refused"}') === 1 ? scraped : undefined;
    });
    expect(valueOf(text, 'consent_config_webhook_deliveries_total{outcome="delivered"}')).toBe(0);
    // The depth is read at most every 5 s: the scan's job is gone from it by a later reading.
    expect(valueOf(text, 'consent_config_job_queue_depth{queue="scan"}')).toBeGreaterThanOrEqual(0);
    await until('the scan queue to read empty', async () =>
      valueOf(await (await fetch(`${base}/metrics`)).text(), 'consent_config_job_queue_depth{queue="scan"}') === 0 ? true : undefined,
    );
  });
});
