import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

describe('shutdown', () => {
  it('on SIGTERM finishes the request in flight, refuses new ones, closes everything and exits 0', { timeout: 90_000 }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [new URL('../src/main.ts', import.meta.url).pathname], {
      env: {
        ...process.env,
        DATABASE_URL: '',
        DATA_DIR: join(workDir, 'data'),
        ADMIN_API_KEY: ADMIN,
        PORT: String(port),
        LOG_FORMAT: 'json',
        SCAN_ALLOW_PRIVATE_ADDRESSES: '1',
        SCAN_GRACE_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let logs = '';
    child.stdout!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    for (let attempt = 0; attempt < 200; attempt++) {
      if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${base}/hosting/api${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const client = (await (await api('POST', '/client', { username: 'shutdown', emailAddress: 'ops@example.org' })).json()) as { id: string };
    const site = `http://127.0.0.1:${(slowSite.address() as AddressInfo).port}/`;
    const domain = (await (await api('POST', `/client/${client.id}/domain`, { name: site })).json()) as { id: string };

    const inFlight = api('GET', `/client/${client.id}/domain/${domain.id}/onboarding/scan`);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the scan is waiting for the slow page
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await fetch(`${base}/healthz`).then(
      () => 'answered',
      () => 'refused',
    );

    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { pages: { status: number }[] }).pages[0]!.status).toBe(200);
    expect(refused).toBe('refused');
    expect(await exited).toBe(0);
    expect(logs).toMatch(/"signal":"SIGTERM".*"msg":"shutting down"/);
    expect(logs).toMatch(/"msg":"stopped"/);
  });
});
