import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/service.ts';
import { freePort } from '../../support/service-process.ts';
import { until } from '../../support/until.ts';

/** A `consent-config scan-worker` with SCAN_WORKER_PORT: probes and metrics for an orchestrator, without a key. */

const CLI = new URL('../../../bin/consent-config.ts', import.meta.url).pathname;
const ROOT = new URL('../../../', import.meta.url).pathname;

let service: TestService;
let worker: ChildProcess;
let base: string;
let output = '';

beforeAll(async () => {
  service = await startTestService({ scanWorker: false });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  worker = spawn(process.execPath, [CLI, 'scan-worker', '--concurrency', '1'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: service.database.url, HOST: '127.0.0.1', SCAN_WORKER_PORT: String(port), LOG_LEVEL: 'info', LOG_FORMAT: 'json', ADMIN_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  worker.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until('the worker to take scans', async () => (output.includes('scan worker running') ? true : undefined));
}, 120_000);

afterAll(async () => {
  if (worker?.exitCode === null) worker.kill('SIGKILL');
  await service?.close();
});

describe('scan worker health port', () => {
  it('answers /healthz, /readyz with its checks, and /metrics in the Prometheus format', async () => {
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', worker: 'ok' } });

    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await metrics.text();
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^consent_config_db_pool_total_connections \d+/m);
    expect((await fetch(`${base}/other`)).status).toBe(404);
    expect(JSON.parse(output.split('\n').find((line) => line.includes('scan worker running'))!)).toMatchObject({ healthPort: Number(new URL(base).port) });
  });

  it('stops serving when the worker stops on SIGTERM, exiting 0', { timeout: 60_000 }, async () => {
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});
