import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../src/config.ts';
import { freshTestDatabase } from './support/database.ts';
import { type Finished, runToEnd } from './support/run-to-end.ts';
import { freePort } from './support/service-process.ts';

/**
 * Start-up failures of the real service (`node src/main.ts`, and `consent-config serve`, which
 * `npm start` runs through bin/consent-config.js): a setting the operator can fix is reported as
 * one line on stderr naming it, with exit code 1, no stack, in seconds. And the settings that are checked before anything starts: CORS_ORIGINS, TRUST_PROXY.
 */

const MAIN = ['src/main.ts'];
const SERVE = ['bin/consent-config.js', 'serve'];
const PASSWORD = 'hunter2-startup-secret';

type Run = Finished;

let database: { env: Record<string, string>; drop(): Promise<void> };

beforeAll(async () => {
  const { databaseUrl, drop } = await freshTestDatabase();
  database = { env: databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '', DATA_DIR: 'memory://' }, drop };
});
afterAll(async () => {
  await database?.drop();
});

/** Runs the service (or the CLI) to its end, killed after `deadlineMs` if it is still running then. */
const run = (args: string[], env: Record<string, string>, deadlineMs = 25_000): Promise<Run> =>
  runToEnd(args, { HOST: '127.0.0.1', LOG_FORMAT: 'json', ADMIN_API_KEY: 'startup-test-admin-key-0123456789', DEBUG: '', ...env }, { deadlineMs });

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

/** One line on stderr naming the setting, exit code 1, no stack, within `withinMs`. */
function expectOneLine(result: Run, setting: RegExp, withinMs = 20_000): string {
  const described = JSON.stringify(result);
  expect(result.code, described).toBe(1);
  expect(lines(result.stderr), described).toHaveLength(1);
  expect(result.stderr, described).not.toMatch(/^ {4}at /m);
  const [line] = lines(result.stderr) as [string];
  expect(line, described).toMatch(setting);
  expect(line).not.toContain(PASSWORD);
  expect(result.ms, described).toBeLessThan(withinMs);
  return line;
}

/** A TCP server that takes connections and never says a word, like a hung database server. */
async function silentServer(): Promise<{ port: number; close(): void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe.each([
  { name: 'node src/main.ts', args: MAIN, prefix: /^cannot start: / },
  { name: 'npm start (consent-config serve)', args: SERVE, prefix: /^error: cannot start: / },
])('$name fails to start in one line naming the setting', ({ args, prefix }) => {
  it('when nothing listens at DATABASE_URL; the password in it is not shown', async () => {
    const port = await freePort();
    const line = expectOneLine(await run(args, { DATABASE_URL: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/nowhere` }), /DATABASE_URL/);
    expect(line).toMatch(prefix);
    expect(line).toContain(`127.0.0.1:${port}`);
    expect(line).toMatch(/ECONNREFUSED/);
  });

  it('when the server at DATABASE_URL takes the connection but never answers: in seconds', async () => {
    const silent = await silentServer();
    try {
      const line = expectOneLine(await run(args, { DATABASE_URL: `postgres://postgres:${PASSWORD}@127.0.0.1:${silent.port}/hung` }), /DATABASE_URL/);
      expect(line).toMatch(prefix);
      expect(line).toContain(`127.0.0.1:${silent.port}`);
    } finally {
      silent.close();
    }
  });

  it('when PORT is taken, before the database starts (no administrator key is generated and printed)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const line = expectOneLine(await run(args, { ...database.env, PORT: String(port), ADMIN_API_KEY: '' }), /PORT/);
      expect(line).toMatch(prefix);
      expect(line).toContain(String(port));
      expect(line).toMatch(/EADDRINUSE/);
    } finally {
      taken.close();
    }
  });

  it('when DATA_DIR is a file (embedded database)', async () => {
    const port = await freePort();
    const file = join(await mkdtemp(join(tmpdir(), 'startup-')), 'not-a-directory');
    await writeFile(file, 'a file, not a directory\n');
    const line = expectOneLine(await run(args, { DATABASE_URL: '', DATA_DIR: file, PORT: String(port) }), /DATA_DIR/);
    expect(line).toMatch(prefix);
    expect(line).toContain(file);
    await rm(dirname(file), { recursive: true, force: true });
  });

  it('in production without ADMIN_API_KEY', async () => {
    const port = await freePort();
    const line = expectOneLine(await run(args, { ...database.env, PORT: String(port), NODE_ENV: 'production', ADMIN_API_KEY: '' }), /ADMIN_API_KEY/);
    expect(line).toMatch(prefix);
    expect(line).toMatch(/production/);
  });

  it('when a setting is invalid (CORS_ORIGINS, TRUST_PROXY, PORT)', { timeout: 90_000 }, async () => {
    const port = await freePort();
    for (const [setting, value] of [
      ['CORS_ORIGINS', 'https://*.example.com'],
      ['TRUST_PROXY', 'the-load-balancer'],
      ['PORT', 'eighty'],
    ] as const) {
      const line = expectOneLine(await run(args, { ...database.env, PORT: String(port), [setting]: value }), new RegExp(`invalid settings: ${setting}`));
      expect(line).toMatch(prefix);
    }
  });
});

const settings = (env: Record<string, string>) => loadSettings({ ...env });
const settingsProblem = (env: Record<string, string>) => {
  try {
    settings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe('CORS_ORIGINS', () => {
  it('takes origins and `*`; unset or empty: no cross-origin access', () => {
    expect(settings({ CORS_ORIGINS: 'https://admin.example.com,http://localhost:3000' }).corsOrigins).toEqual([
      'https://admin.example.com',
      'http://localhost:3000',
    ]);
    expect(settings({ CORS_ORIGINS: ' https://admin.example.com , http://[::1]:8080 ' }).corsOrigins).toEqual([
      'https://admin.example.com',
      'http://[::1]:8080',
    ]);
    expect(settings({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(settings({}).corsOrigins).toEqual([]);
    expect(settings({ CORS_ORIGINS: '' }).corsOrigins).toEqual([]);
  });

  it('compares origins as browsers send them: host in lower case, without the default port', () => {
    expect(settings({ CORS_ORIGINS: 'https://Admin.Example.COM:443,http://localhost:80' }).corsOrigins).toEqual([
      'https://admin.example.com',
      'http://localhost',
    ]);
  });

  it.each([
    ['admin.example.com', /scheme/],
    ['https://a.example.com/path', /path/],
    ['https://a.example.com/', /path/],
    ['https://a.example.com?x=1', /path/],
    ['*,https://a.example.com', /\*/],
    ['https://*.example.com', /wildcard/],
    ['ftp://x.example', /http/],
    ['https://user:secret@a.example.com', /user/],
  ])('refuses %s, naming CORS_ORIGINS', (value, reason) => {
    const message = settingsProblem({ CORS_ORIGINS: value });
    expect(message).toMatch(/^invalid settings: CORS_ORIGINS: /);
    expect(message).toMatch(reason);
    expect(message).not.toMatch(/\n/);
  });

  it('names every bad setting at once', () => {
    const message = settingsProblem({ CORS_ORIGINS: 'ftp://x.example', TRUST_PROXY: 'nope', PORT: 'eighty' });
    for (const setting of ['CORS_ORIGINS', 'TRUST_PROXY', 'PORT']) expect(message).toContain(`${setting}: `);
  });
});

describe('ADMIN_API_KEY', () => {
  it('is 16 to 512 characters: a longer key could never be presented (longer keys are refused unread)', () => {
    expect(settingsProblem({ ADMIN_API_KEY: 'k'.repeat(15) })).toMatch(/^invalid settings: ADMIN_API_KEY: must be at least 16/);
    expect(settingsProblem({ ADMIN_API_KEY: 'k'.repeat(513) })).toMatch(/^invalid settings: ADMIN_API_KEY: must be at most 512/);
    expect(loadSettings({ ADMIN_API_KEY: 'k'.repeat(512) }).adminApiKey).toHaveLength(512);
  });
});

describe('TRUST_PROXY', () => {
  it('is false unless set', () => {
    expect(settings({}).trustProxy).toBe(false);
    expect(settings({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(settings({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(settings({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('`true` trusts every proxy; a whole number, that many hops', () => {
    expect(settings({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(settings({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(settings({ TRUST_PROXY: '3' }).trustProxy).toBe(3);
  });

  it('takes addresses, CIDR ranges and the names Express knows, comma-separated', () => {
    expect(settings({ TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback');
    expect(settings({ TRUST_PROXY: 'loopback, linklocal,uniquelocal' }).trustProxy).toBe('loopback, linklocal, uniquelocal');
    expect(settings({ TRUST_PROXY: '10.0.0.1' }).trustProxy).toBe('10.0.0.1');
    expect(settings({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.0/255.255.255.0, fd00::/8, ::1' }).trustProxy).toBe(
      '10.0.0.0/8, 192.168.1.0/255.255.255.0, fd00::/8, ::1',
    );
    expect(settings({ TRUST_PROXY: '127.0.0.1/32,::ffff:10.0.0.1' }).trustProxy).toBe('127.0.0.1/32, ::ffff:10.0.0.1');
    // Empty entries are ignored, as in CORS_ORIGINS.
    expect(settings({ TRUST_PROXY: 'loopback,,10.0.0.1,' }).trustProxy).toBe('loopback, 10.0.0.1');
  });

  it.each([
    'yes',
    'the-load-balancer',
    '10.0.0.300',
    '10.0.0.0/33',
    'fd00::/129',
    '10.0.0.0/255.0.255.0',
    '10.0.0.0/',
    'loopback,10.0.0.0/8/8',
    '-1',
    '1.5',
    'Loopback',
  ])('refuses %s, naming TRUST_PROXY', (value) => {
    const message = settingsProblem({ TRUST_PROXY: value });
    expect(message).toMatch(/^invalid settings: TRUST_PROXY: /);
  });
});
