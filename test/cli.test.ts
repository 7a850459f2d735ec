import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/orm.ts';
import { openServiceDatabase } from '../src/app/database.ts';
import { ApiKeyEntity } from '../src/features/api-keys/api-key.entity.ts';
import { createKeyRing } from '../src/features/api-keys/key-ring.ts';
import { type FixtureWebsites, startFixtureWebsites } from './fixtures/websites.ts';
import { freshTestDatabase } from './support/database.ts';
import { type Finished, runToEnd } from './support/run-to-end.ts';
import { startServiceProcess } from './support/service-process.ts';

/**
 * The `consent-config` command line, run as a child process the way operators run it, against
 * an embedded database in a temporary DATA_DIR, or a fresh database on the PostgreSQL server
 * when DATABASE_URL is set.
 */

const CLI = new URL('../bin/consent-config.ts', import.meta.url).pathname;
/** The package's `bin`: what `npm link` or `npx consent-config` run. */
const LAUNCHER = new URL('../bin/consent-config.js', import.meta.url).pathname;
/** A small file in the Open Cookie Database format, of the project's making: 28 cookies of 8 platforms. */
const OCD = new URL('./fixtures/open-cookie-database.csv', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

type Result = Finished;

let workDir: string;
let target: { env: Record<string, string>; open(): Promise<Database>; drop(): Promise<void> };

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'cli-'));
  const { databaseUrl, drop } = await freshTestDatabase();
  const dataDir = join(workDir, 'data');
  target = {
    env: databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '', DATA_DIR: dataDir },
    open: () => openServiceDatabase({ databaseUrl, dataDir, poolSize: 1 }),
    drop,
  };
});
afterAll(async () => {
  await target?.drop();
  await rm(workDir, { recursive: true, force: true });
});

const environment = (extra: Record<string, string> = {}) => ({
  ...process.env,
  ...target.env,
  LOG_LEVEL: 'silent',
  DEBUG: '',
  ADMIN_API_KEY: '',
  ...extra,
});

/** Runs the CLI to its end; never rejects, whatever the exit code. */
const cli = (args: string[], extraEnv: Record<string, string> = {}): Promise<Result> => runToEnd([CLI, ...args], environment(extraEnv));

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

/** A failure reported as one line on stderr and nothing on stdout. */
function expectOneLineFailure(result: Result, code: number, pattern: RegExp) {
  expect(result.code, result.stderr).toBe(code);
  expect(lines(result.stderr), result.stderr).toHaveLength(1);
  expect(result.stderr.trim()).toMatch(/^error: /);
  expect(result.stderr.trim()).toMatch(pattern);
  expect(result.stdout).toBe('');
}

describe('migrate', () => {
  it('applies the migrations, and the second time says there is nothing to apply', async () => {
    const first = await cli(['migrate']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^applied Migration\d+.* on (embedded PGlite|PostgreSQL)/);

    const second = await cli(['migrate']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout.trim()).toMatch(/^nothing to apply on (embedded PGlite|PostgreSQL)/);
  }, 60_000);
});

describe('client create and key create', () => {
  let clientId: string;

  it('creates a client through the API operation and prints it as JSON', async () => {
    const result = await cli(['client', 'create', '--username', 'acme', '--email', 'ops@acme.example', '--password', 'acme-password', '--company', 'ACME GmbH', '--active']);
    expect(result.code, result.stderr).toBe(0);
    const client = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(client).toMatchObject({
      username: 'acme',
      emailAddress: 'ops@acme.example',
      company: 'ACME GmbH',
      firstName: '',
      lastName: '',
      active: true,
    });
    expect(client.id).toMatch(/^[0-9a-f-]{36}$/);
    clientId = client.id as string;
  }, 30_000);

  it('refuses a bad e-mail address with one line naming the option, exit code 2', async () => {
    expectOneLineFailure(await cli(['client', 'create', '--username', 'other', '--email', 'not-an-address', '--password', 'other-password']), 2, /--email: must be an e-mail address/);
  });

  it('refuses a username that is taken, in one line with exit code 1', async () => {
    expectOneLineFailure(await cli(['client', 'create', '--username', 'acme', '--email', 'x@acme.example', '--password', 'acme-password']), 1, /already exists/);
  });

  it('creates an API key, prints it once on stdout with a warning on stderr, and the key authenticates as the client', async () => {
    const result = await cli(['key', 'create', '--client', clientId, '--name', 'deploy']);
    expect(result.code, result.stderr).toBe(0);
    const key = result.stdout.trim();
    expect(key).toMatch(/^dcs_[A-Za-z0-9_-]{43}$/);
    expect(result.stderr).toMatch(/store it now/i);
    expect(result.stderr).not.toContain(key);

    const database = await target.open();
    try {
      const stored = await database.orm.em.fork().find(ApiKeyEntity, { name: 'deploy' });
      expect(stored).toHaveLength(1);
      expect(stored[0]!.hash).not.toContain(key);
      const keys = createKeyRing({ orm: database.orm, adminApiKey: undefined });
      expect(await keys.authenticate(key)).toEqual({ kind: 'client', clientId, keyId: stored[0]!.id, keyName: 'deploy' });
      expect(await keys.authenticate(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    } finally {
      await database.close();
    }
  }, 30_000);

  it('refuses a key for a client that does not exist (exit 1) or a bad client id (exit 2), in one line', async () => {
    expectOneLineFailure(
      await cli(['key', 'create', '--client', '0190c6a0-0000-7000-8000-000000000000', '--name', 'x']),
      1,
      /client 0190c6a0-0000-7000-8000-000000000000 not found/,
    );
    expectOneLineFailure(await cli(['key', 'create', '--client', 'nope', '--name', 'x']), 2, /--client/);
  }, 30_000);
});

describe('catalog import', () => {
  it('imports the Open Cookie Database file with a progress line', async () => {
    const result = await cli(['catalog', 'import', OCD]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^imported 28 cookies of 8 services \(8 new\)/);
    expect(result.stderr).toMatch(/importing cookies: 28\/28/);
  }, 60_000);

  it('refuses a file in another format with one line and exit code 1', async () => {
    const wrong = join(workDir, 'wrong.csv');
    await writeFile(wrong, 'name,value\n_ga,1\n');
    expectOneLineFailure(
      await cli(['catalog', 'import', wrong]),
      1,
      /^error: cannot import .*wrong\.csv: not in the Open Cookie Database format: missing column\(s\) ID, Platform/,
    );
    expectOneLineFailure(await cli(['catalog', 'import', join(workDir, 'missing.csv')]), 1, /^error: cannot read .*missing\.csv/);
  }, 30_000);
});

describe('scan', () => {
  let sites: FixtureWebsites;
  let site: Server;
  let sitePort: number;
  const scanEnv = { SCAN_GRACE_MS: '100', SCAN_NAVIGATION_TIMEOUT_MS: '5000' };

  beforeAll(async () => {
    sites = await startFixtureWebsites();
    // A small site of four linked pages on loopback: a Google Analytics cookie, an imprint with an address.
    const html = (body: string) => `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>t</title></head><body>${body}</body></html>`;
    const pages: Record<string, string> = {
      '/': html('<h1>Start</h1><a href="/produkte">Produkte</a> <a href="/impressum">Impressum</a> <a href="/datenschutz">Datenschutz</a>'),
      '/produkte': html('<h1>Produkte</h1><a href="/">Start</a>'),
      '/impressum': html('<h1>Impressum</h1><p>Beispiel GmbH<br>Musterstraße 12<br>10115 Berlin</p>'),
      '/datenschutz': html('<h1>Datenschutzerklärung</h1><p>Wir speichern wenig.</p>'),
    };
    site = createHttpServer((req, res) => {
      const body = pages[new URL(req.url ?? '/', 'http://site').pathname];
      res.writeHead(body ? 200 : 404, {
        'content-type': 'text/html; charset=utf-8',
        'set-cookie': '_ga=GA1.1.123.456; Path=/; Max-Age=3600',
      });
      res.end(body ?? html('<h1>Not found</h1>'));
    });
    sitePort = await new Promise<number>((resolve) => site.listen(0, '127.0.0.1', () => resolve((site.address() as AddressInfo).port)));
  });
  afterAll(async () => {
    await sites?.close();
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('scans the fixture website: a progress line per page on stderr, the findings as JSON on stdout', async () => {
    const url = `http://127.0.0.1:${sites.httpPort}/`;
    const result = await cli(['scan', url, '--allow-private', '--pages', '3'], scanEnv);
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stderr)).toEqual([`page 1/3 ${url} 200`]);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      url,
      pages: [{ url, status: 200 }],
      cookies: [],
      localStorage: [],
      imprintUrl: null,
      privacyPolicyUrl: null,
      knownServices: [],
    });
    expect(sites.hits.get('127.0.0.1 /')).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('prints the fixture website as a table with --format table', async () => {
    const url = `http://127.0.0.1:${sites.httpPort}/`;
    const result = await cli(['scan', url, '--allow-private', '--format', 'table'], scanEnv);
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stderr)).toEqual([`page 1/10 ${url} 200`]);
    expect(result.stdout).toMatch(/^Scan of http:\/\/127\.0\.0\.1:\d+\/: 1 page in/);
    expect(result.stdout).toContain('Cookies (0)');
    expect(result.stdout).toContain('Known services (0)');
    expect(result.stdout).toMatch(/200\s+http:\/\/127\.0\.0\.1:\d+\//);
  }, 60_000);

  it('visits several pages, one progress line each, and recognises cookies, legal pages, address and known services', async () => {
    const base = `http://127.0.0.1:${sitePort}`;
    const json = await cli(['scan', `${base}/`, '--allow-private', '--pages', '4'], scanEnv);
    expect(json.code, json.stderr).toBe(0);
    const progress = lines(json.stderr);
    expect(progress).toHaveLength(4);
    progress.forEach((line, i) => expect(line).toMatch(new RegExp(`^page ${i + 1}/4 ${base}/\\S* 200$`)));
    expect(progress[0]).toBe(`page 1/4 ${base}/ 200`);
    const report = JSON.parse(json.stdout);
    expect(report.pages).toHaveLength(4);
    expect(report.imprintUrl).toBe(`${base}/impressum`);
    expect(report.privacyPolicyUrl).toBe(`${base}/datenschutz`);
    expect(report.address).toMatchObject({ street: 'Musterstraße 12', zipCode: '10115', city: 'Berlin' });
    expect(report.cookies).toEqual([expect.objectContaining({ name: '_ga', domain: '127.0.0.1', party: 'first' })]);
    expect(report.knownServices).toContainEqual(
      expect.objectContaining({ name: expect.stringMatching(/Google Analytics/), evidence: [{ kind: 'cookie', value: '_ga' }] }),
    );

    const table = await cli(['scan', `${base}/`, '--allow-private', '--pages', '4', '--format', 'table'], scanEnv);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/_ga\s+127\.0\.0\.1\s+first\s+\d{4}-\d\d-\d\dT/);
    expect(table.stdout).toContain(`Imprint:         ${base}/impressum`);
    expect(table.stdout).toContain(`Privacy policy:  ${base}/datenschutz`);
    expect(table.stdout).toContain('Musterstraße 12, 10115 Berlin');
    expect(table.stdout).toMatch(/Google Analytics.*cookie _ga/);
  }, 90_000);

  it('fails in one line: a loopback address without --allow-private, a page that answers 404, a bad URL', async () => {
    expectOneLineFailure(await cli(['scan', `http://127.0.0.1:${sites.httpPort}/`], scanEnv), 1, /is not a public address.*--allow-private/);
    expectOneLineFailure(
      await cli(['scan', `http://127.0.0.1:${sites.httpPort}/missing`, '--allow-private'], scanEnv),
      1,
      /answered .*\/missing with status 404/,
    );
    expectOneLineFailure(await cli(['scan', 'ftp://example.com/']), 2, /<url>/);
    expectOneLineFailure(await cli(['scan', 'https://example.com/', '--pages', 'many']), 2, /--pages/);
    expectOneLineFailure(await cli(['scan', 'https://example.com/', '--format', 'xml']), 2, /--format/);
  }, 60_000);
});

describe('usage', () => {
  it('answers --help and --version', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['serve', 'migrate', 'scan', 'catalog', 'client', 'key']) expect(help.stdout).toContain(command);
    const scanHelp = await cli(['scan', '--help']);
    expect(scanHelp.code).toBe(0);
    expect(scanHelp.stdout).toMatch(/--allow-private/);
    const keyHelp = await cli(['key', 'create', '--help']);
    expect(keyHelp.code).toBe(0);
    expect(keyHelp.stdout).toMatch(/--client <id>/);
    const versionResult = await cli(['--version']);
    expect(versionResult).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('refuses an unknown command and missing arguments with one line and exit code 2', async () => {
    expectOneLineFailure(await cli(['frobnicate']), 2, /unknown command 'frobnicate'/);
    expectOneLineFailure(await cli(['scan']), 2, /missing required argument 'url'/);
    expectOneLineFailure(await cli(['catalog', 'import']), 2, /missing required argument 'csv'/);
    expectOneLineFailure(await cli(['client', 'create', '--username', 'x']), 2, /required option '--email <address>' not specified/);
    expectOneLineFailure(await cli(['key', 'create', '--client', 'x']), 2, /required option '--name <name>' not specified/);
    expectOneLineFailure(await cli(['migrate', 'extra']), 2, /too many arguments/);
  });
});

describe('serve', () => {
  it('starts the service, answers /healthz, and stops cleanly on SIGTERM with exit code 0', async () => {
    const service = await startServiceProcess({
      args: [CLI, 'serve'],
      env: environment({ LOG_LEVEL: 'info', LOG_FORMAT: 'json', ADMIN_API_KEY: 'cli-test-admin-key-0123456789', NODE_ENV: 'test' }),
    });
    try {
      expect(service.ready, service.output().stderr).toBe(true);
      expect(service.output().stdout).toContain(`listening on ${service.base}`);
      expect(await service.stop('SIGTERM')).toBe(0);
      expect(service.output().stdout).toMatch(/shutting down/);
      expect(service.output().stdout).toMatch(/stopped/);
    } finally {
      await service.stop('SIGKILL');
    }
  }, 60_000);

  it('runs as the installed command from a checkout whatever node comes first in PATH, and stops cleanly on SIGINT', async () => {
    // The system's node (20 on these machines) first in PATH: the launcher hands over to the pinned Node 24.
    const systemNode = ['/usr/local/bin/node', '/usr/bin/node'].find((path) => existsSync(path));
    const service = await startServiceProcess({
      command: LAUNCHER,
      args: ['serve'],
      env: environment({
        PATH: [systemNode ? dirname(systemNode) : dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        ADMIN_API_KEY: 'cli-test-admin-key-0123456789',
        NODE_ENV: 'test',
      }),
    });
    try {
      expect(service.ready, service.output().stderr).toBe(true);
      expect(await service.stop('SIGINT')).toBe(0);
      expect(service.output().stdout).toMatch(/"signal":"SIGINT".*"msg":"shutting down"/);
      expect(service.output().stdout).toMatch(/"msg":"stopped"/);
    } finally {
      await service.stop('SIGKILL');
    }
  }, 60_000);

  it('fails to start in one line with exit code 1 when a setting is invalid', async () => {
    expectOneLineFailure(await cli(['serve'], { PORT: 'eighty' }), 1, /invalid settings: PORT/);
  });
});
