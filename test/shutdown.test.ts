import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess } from './support/service-process.ts';

/**
 * Graceful shutdown of the real service process on SIGTERM: it stops accepting, lets the
 * request in flight finish (a scan of a slow page), closes the browser and the database, exits 0.
 */

const ADMIN = 'shutdown-test-admin-key-0123456789';
let workDir: string;
let slowSite: Server;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'shutdown-'));
  // A page that takes 1.5 s to answer.
  slowSite = createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Slow but fine</h1></body></html>'), 1_500);
  });
  await new Promise<void>((resolve) => slowSite.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  slowSite.close();
  await rm(workDir, { recursive: true, force: true });
});

describe('shutdown', () => {
  it('on SIGTERM finishes the request in flight, refuses new ones, closes everything and exits 0', { timeout: 90_000 }, async () => {
    const service = await startServiceProcess({
      env: {
        DATABASE_URL: '',
        DATA_DIR: join(workDir, 'data'),
        ADMIN_API_KEY: ADMIN,
        LOG_FORMAT: 'json',
        SCAN_ALLOW_PRIVATE_ADDRESSES: '1',
        SCAN_GRACE_MS: '0',
      },
    });
    expect(service.ready, service.output().stderr).toBe(true);
    const base = service.base;
    const api = (method: string, path: string, body?: unknown) => service.request(method, `/hosting/api${path}`, { body });
    const client = (await api('POST', '/client', { username: 'shutdown', emailAddress: 'ops@example.org' })).body as { id: string };
    const site = `http://127.0.0.1:${(slowSite.address() as AddressInfo).port}/`;
    const domain = (await api('POST', `/client/${client.id}/domain`, { name: site })).body as { id: string };

    const inFlight = api('GET', `/client/${client.id}/domain/${domain.id}/onboarding/scan`);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the scan is waiting for the slow page
    const exited = service.stop('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await fetch(`${base}/healthz`).then(
      () => 'answered',
      () => 'refused',
    );

    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect((answer.body as { pages: { status: number }[] }).pages[0]!.status).toBe(200);
    expect(refused).toBe('refused');
    expect(await exited).toBe(0);
    const { stdout } = service.output();
    expect(stdout).toMatch(/"signal":"SIGTERM".*"msg":"shutting down"/);
    expect(stdout).toMatch(/"msg":"stopped"/);
  });
});
