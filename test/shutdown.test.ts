import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTestDatabase } from './support/database.ts';
import { startServiceProcess } from './support/service-process.ts';

/**
 * Graceful shutdown of the real service process on SIGTERM: it stops accepting, lets the
 * request in flight finish (a scan of a slow page), closes the browser and the database, exits 0.
 * Also under keep-alive load (it lets the clients go and exits as soon as the requests in flight
 * are done, not at SHUTDOWN_TIMEOUT_MS), and when the reader of its stdout has gone (EPIPE).
 */

const ADMIN = 'shutdown-test-admin-key-0123456789';
const ROOT = new URL('../', import.meta.url).pathname;
let workDir: string;
let slowSite: Server;
/**
 * The database of the tests below the first: embedded (in DATA_DIR under the work directory, or
 * in memory), or a fresh one on DATABASE_URL's server.
 */
let database: { env(dataDir: string): Record<string, string>; drop(): Promise<void> };

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'shutdown-'));
  const { databaseUrl, drop } = await freshTestDatabase();
  database = {
    env: (dataDir): Record<string, string> =>
      databaseUrl
        ? { DATABASE_URL: databaseUrl }
        : { DATABASE_URL: '', DATA_DIR: dataDir.startsWith('memory://') ? dataDir : join(workDir, dataDir) },
    drop,
  };
  // A page that takes 1.5 s to answer.
  slowSite = createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Slow but fine</h1></body></html>'), 1_500);
  });
  await new Promise<void>((resolve) => slowSite.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  slowSite.close();
  await database?.drop();
  await rm(workDir, { recursive: true, force: true });
});

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: string };

/** One request through `agent` (so over its kept-alive connection when it has one). */
function send(
  agent: Agent,
  method: string,
  url: string,
  { headers = {}, body, onSocket }: { headers?: Record<string, string>; body?: string; onSocket?: (socket: Socket) => void } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
      response.on('error', reject);
    });
    req.on('socket', (socket) => onSocket?.(socket));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A client that keeps one connection alive and sends `next` on it, request after request, until
 * one fails (after a shutdown: the server no longer accepts connections).
 */
function keepAliveClient(next: (agent: Agent, onSocket: (socket: Socket) => void) => Promise<RawAnswer>) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<Socket>();
  const state = {
    statuses: [] as number[],
    /** Responses with `Connection: close`. */
    closing: 0,
    /** Connections the server ended (FIN). */
    endedByServer: 0,
    error: undefined as string | undefined,
    endedAt: 0,
  };
  const track = (socket: Socket) => {
    if (sockets.has(socket)) return;
    sockets.add(socket);
    socket.once('end', () => state.endedByServer++);
  };
  const done = (async () => {
    for (const until = Date.now() + 60_000; Date.now() < until; ) {
      try {
        const answer = await next(agent, track);
        state.statuses.push(answer.status);
        if (answer.headers.connection === 'close') state.closing++;
      } catch (error) {
        state.error = (error as NodeJS.ErrnoException).code ?? String(error);
        break;
      }
    }
    state.endedAt = Date.now();
    agent.destroy();
  })();
  return { state, done };
}

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
    const client = (await api('POST', '/client', { username: 'shutdown', emailAddress: 'ops@example.org', password: 'ops-password' })).body as { id: string };
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

describe('shutdown under keep-alive load', () => {
  it(
    'lets kept-alive clients go (Connection: close), finishes the requests in flight and exits far below SHUTDOWN_TIMEOUT_MS',
    { timeout: 120_000 },
    async () => {
      const shutdownTimeoutMs = 20_000;
      // A page that answers only when released: the scan of it is a request in flight for as long as the test wants.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let requested!: () => void;
      const pageRequested = new Promise<void>((resolve) => (requested = resolve));
      const heldSite = createServer((req, res) => {
        if (req.url !== '/') return void res.writeHead(404).end();
        requested();
        void released.then(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Held, then fine</h1></body></html>'));
      });
      await new Promise<void>((resolve) => heldSite.listen(0, '127.0.0.1', resolve));
      const service = await startServiceProcess({
        env: {
          ...database.env('keep-alive'),
          ADMIN_API_KEY: ADMIN,
          LOG_FORMAT: 'json',
          SCAN_ALLOW_PRIVATE_ADDRESSES: '1',
          SCAN_GRACE_MS: '0',
          SCAN_PAGE_LIMIT: '1',
          // The page is held as long as the test needs (at most about 10 s): no time limit of the scan's may end it first.
          SCAN_NAVIGATION_TIMEOUT_MS: '60000',
          SCAN_TIMEOUT_MS: '120000',
          SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
        },
      });
      try {
        expect(service.ready, service.output().stderr).toBe(true);
        const api = (method: string, path: string, body?: unknown) => service.request(method, `/hosting/api${path}`, { body });
        const client = (await api('POST', '/client', { username: 'keep-alive', emailAddress: 'ops@example.org', password: 'ops-password' })).body as { id: string };
        const site = `http://127.0.0.1:${(heldSite.address() as AddressInfo).port}/`;
        const scanned = (await api('POST', `/client/${client.id}/domain`, { name: site })).body as { id: string };
        const authorization = `Bearer ${ADMIN}`;

        // Busy keep-alive clients: each replaces the 1,000 placeholders of a domain of its own, again and again.
        const clients = await Promise.all(
          Array.from({ length: 4 }, async (_, n) => {
            const domain = (await api('POST', `/client/${client.id}/domain`, { name: `keep-alive-${n}.example` })).body as { id: string };
            const url = `${service.base}/hosting/api/client/${client.id}/domain/${domain.id}/placeholder`;
            const placeholders = JSON.stringify(Array.from({ length: 1_000 }, (_, i) => ({ name: `p${i}`, value: `value ${i} of client ${n}` })));
            return keepAliveClient((agent, onSocket) =>
              send(agent, 'PUT', url, { headers: { authorization, 'content-type': 'application/json' }, body: placeholders, onSocket }),
            );
          }),
        );
        for (const started = Date.now(); clients.some((c) => c.state.statuses.length < 3) && Date.now() - started < 60_000; ) await delay(20);
        expect(clients.map((c) => c.state.error)).toEqual([undefined, undefined, undefined, undefined]);
        // The slow request, on a kept-alive connection of its own.
        const slowAgent = new Agent({ keepAlive: true, maxSockets: 1 });
        const slow = send(slowAgent, 'GET', `${service.base}/hosting/api/client/${client.id}/domain/${scanned.id}/onboarding/scan`, {
          headers: { authorization },
        });
        await pageRequested;

        const signalled = Date.now();
        const exited = service.stop('SIGTERM');
        // While the scan still waits for its page, the clients must be let go.
        const clientsDone = await Promise.race([Promise.all(clients.map((c) => c.done)).then(() => true), delay(10_000).then(() => false)]);
        release();
        const answer = await slow;
        const code = await exited;
        const exitMs = Date.now() - signalled;
        slowAgent.destroy();
        const states = JSON.stringify(clients.map(({ state }) => ({ ...state, endedMs: state.endedAt - signalled })));

        expect(answer.status, answer.body).toBe(200);
        expect((JSON.parse(answer.body) as { pages: { status: number }[] }).pages[0]!.status).toBe(200);
        expect(code, service.output().stderr).toBe(0);
        // Far below the timeout: the service waited for the requests in flight, not for the kept-alive connections.
        expect(exitMs, states).toBeLessThan(shutdownTimeoutMs / 2);
        expect(clientsDone, states).toBe(true);
        // Answered after the shutdown began: the connection closes after it.
        expect(answer.headers.connection).toBe('close');
        for (const { state } of clients) {
          // Every request answered was answered in full; none was cut.
          expect(state.statuses.every((status) => status === 201), states).toBe(true);
          // Let go: told to close (its request was in flight: Connection: close), or its idle
          // connection closed by the server (ended; or reset, when its next request was on the way
          // as it closed). Then a new connection is refused.
          expect(state.closing > 0 || state.endedByServer > 0 || state.error === 'ECONNRESET', states).toBe(true);
          expect(['ECONNREFUSED', 'ECONNRESET'], states).toContain(state.error);
        }
        expect(service.output().stdout).toMatch(/"msg":"stopped"/);
      } finally {
        release();
        await service.stop('SIGKILL');
        heldSite.close();
      }
    },
  );
});

describe('shutdown when the reader of stdout has gone', () => {
  // `npm start | head -1`: the pipe's reading end closes, the next log line meets EPIPE. (In
  // memory, the embedded database stops at once: the process exits right after its last lines.)
  it.each(['json', 'pretty'])('exits 0 promptly on SIGTERM with %s logs', { timeout: 90_000 }, async (format) => {
    const service = await startServiceProcess({ env: { ...database.env('memory://'), ADMIN_API_KEY: ADMIN, LOG_FORMAT: format } });
    try {
      expect(service.ready, service.output().stderr).toBe(true);
      service.child.stdout!.destroy();
      await delay(300);
      const signalled = Date.now();
      const code = await Promise.race([service.stop('SIGTERM'), delay(20_000).then(() => 'still running 20 s after SIGTERM')]);
      expect(code, service.output().stderr).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      expect(service.output().stderr).not.toMatch(/^\s+at /m);
    } finally {
      await service.stop('SIGKILL');
    }
  });

  it.each(['json', 'pretty'])('lets a process exit at once whose last %s log lines meet EPIPE', { timeout: 30_000 }, async (format) => {
    // The race of the service's shutdown, made certain: lines still being written when the process exits.
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '--eval',
        `import { createLogger } from './src/logger.ts';
         const logger = createLogger('info', process.argv[1]);
         process.stdin.once('data', () => {
           for (let i = 0; i < 100; i++) logger.info({ i }, 'a line for a reader that has gone');
           process.exit(0);
         });`,
        format,
      ],
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdout.destroy();
    await delay(300);
    child.stdin.write('go\n');
    const code = await Promise.race([exited, delay(10_000).then(() => 'still running 10 s after its last line')]);
    child.kill('SIGKILL');
    expect(code, stderr).toBe(0);
    expect(stderr).toBe('');
  });

  it('keeps serving when a request is logged after the reader has gone, then exits 0 on SIGTERM', { timeout: 90_000 }, async () => {
    const service = await startServiceProcess({ env: { ...database.env('memory://'), ADMIN_API_KEY: ADMIN, LOG_FORMAT: 'json' } });
    try {
      expect(service.ready, service.output().stderr).toBe(true);
      service.child.stdout!.destroy();
      await delay(300);
      for (let i = 0; i < 5; i++) expect((await service.request('GET', '/healthz')).status).toBe(200);
      await delay(300);
      expect((await service.request('GET', '/healthz')).status).toBe(200);
      const signalled = Date.now();
      const code = await Promise.race([service.stop('SIGTERM'), delay(20_000).then(() => 'still running 20 s after SIGTERM')]);
      expect(code, service.output().stderr).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      expect(service.output().stderr).not.toMatch(/^\s+at /m);
    } finally {
      await service.stop('SIGKILL');
    }
  });
});
