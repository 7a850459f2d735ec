import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../support/fixtures.ts';
import { startTestService, type TestService } from '../../support/service.ts';

/**
 * Scans run by worker processes apart from the API: the service queues, two `consent-config
 * scan-worker` processes on the same database share the queue, and each scan is run by exactly
 * one of them.
 */

const CLI = new URL('../../../bin/consent-config.ts', import.meta.url).pathname;
const ROOT = new URL('../../../', import.meta.url).pathname;
const SITES = 6;

let service: TestService;
let site: Server;
let siteBase: string;
const workers: { process: ChildProcess; output: string }[] = [];

/** Starts a worker process and waits until it says it takes scans. */
async function startWorker(): Promise<void> {
  const child = spawn(process.execPath, [CLI, 'scan-worker', '--concurrency', '1'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: service.database.url,
      SCAN_ALLOW_PRIVATE_ADDRESSES: '1',
      SCAN_PAGE_LIMIT: '2',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      ADMIN_API_KEY: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker = { process: child, output: '' };
  workers.push(worker);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not start:\n${worker.output}`)), 60_000);
    const read = (chunk: Buffer) => {
      worker.output += chunk.toString();
      if (worker.output.includes('scan worker running')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the worker exited with ${code}:\n${worker.output}`)));
  });
}

beforeAll(async () => {
  // Six one-page sites on loopback, each answering slowly enough that one worker cannot take them all.
  site = createServer((req, res) => {
    const name = /^\/site-(\d+)\//.exec(req.url ?? '')?.[1];
    setTimeout(() => {
      res.writeHead(name ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', ...(name && { 'set-cookie': `site_${name}=1; Path=/` }) });
      res.end(`<!doctype html><html lang="en"><head><title>Site ${name}</title></head><body><h1>Site ${name}</h1></body></html>`);
    }, 600);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteBase = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // The API process queues scans but runs none itself.
  service = await startTestService({ scanWorker: false });
  await Promise.all([startWorker(), startWorker()]);
}, 180_000);

afterAll(async () => {
  for (const worker of workers) worker.process.kill('SIGKILL');
  await service?.close();
  await new Promise((resolve) => site?.close(resolve));
});

describe('two worker processes', () => {
  it('share the queue: every scan is run once, by one of them, and the API process runs none', async () => {
    const client = await createClient(service);
    const jobs: { base: string; id: string; name: string }[] = [];
    for (let n = 1; n <= SITES; n++) {
      const domain = await service.rest('POST', `/hosting/api/client/${client.id}/domain`, { name: `${siteBase}/site-${n}/` });
      expect(domain.status, domain.text).toBe(201);
      const base = `/hosting/api/client/${client.id}/domain/${domain.body.id}`;
      const started = await service.rest('POST', `${base}/scan`);
      expect(started.status, started.text).toBe(201);
      jobs.push({ base, id: started.body.id, name: `site_${n}` });
    }

    const ended = [];
    const deadline = Date.now() + 120_000;
    for (const job of jobs) {
      for (;;) {
        const answer = await service.rest('GET', `${job.base}/scan/${job.id}`);
        if (answer.body.status === 'succeeded' || answer.body.status === 'failed') {
          ended.push({ ...answer.body, expected: job.name });
          break;
        }
        if (Date.now() > deadline) throw new Error(`scan ${job.id} did not end:\n${workers.map((w) => w.output).join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }

    for (const job of ended) {
      expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
      expect(job.attempts).toBe(1);
      expect(job.result.storage.cookies.map((cookie: { name: string }) => cookie.name)).toEqual([job.expected]);
    }
    const pids = new Set(ended.map((job) => Number(job.worker.split(':').at(-1))));
    expect([...pids].sort()).toEqual(workers.map((worker) => worker.process.pid).sort());
    expect(pids.has(process.pid)).toBe(false);
  }, 180_000);

  it('stop on SIGTERM, saying so, with exit code 0', async () => {
    const exits = workers.map((worker) => new Promise<number | null>((resolve) => worker.process.once('exit', resolve)));
    for (const worker of workers) worker.process.kill('SIGTERM');
    expect(await Promise.all(exits)).toEqual([0, 0]);
    for (const worker of workers) expect(worker.output).toContain('scan worker stopped');
  }, 60_000);
});
