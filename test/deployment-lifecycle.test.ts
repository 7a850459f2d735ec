import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTestDatabase } from './support/database.ts';
import { runToEnd } from './support/run-to-end.ts';
import { startServiceProcess } from './support/service-process.ts';
import { until } from './support/until.ts';

/**
 * What a deployment relies on, run as operators and orchestrators run it (child processes):
 * migrations as a step of their own (`migrate --status`, `--dry-run`, MIGRATE_ON_START=0), secrets
 * from files (`*_FILE`), and a shutdown that fails readiness before it stops serving
 * (SHUTDOWN_DELAY_MS). On the embedded database in a temporary DATA_DIR, or on a fresh database
 * of the PostgreSQL server when DATABASE_URL is set.
 */

const CLI = new URL('../bin/consent-config.ts', import.meta.url).pathname;
const ADMIN = 'deployment-test-admin-key-0123456789';

let workDir: string;
/** A new, empty database for each test that asks: a DATA_DIR of its own, or a fresh database on the server. */
let newDatabase: () => Promise<Record<string, string>>;
const drops: (() => Promise<void>)[] = [];
const onServer = Boolean(process.env.DATABASE_URL);

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'deployment-'));
  let count = 0;
  newDatabase = async () => {
    if (!onServer) return { DATABASE_URL: '', DATA_DIR: join(workDir, `data-${++count}`) };
    const { databaseUrl, drop } = await freshTestDatabase();
    drops.push(drop);
    const server: Record<string, string> = { DATABASE_URL: databaseUrl! };
    return server;
  };
});
afterAll(async () => {
  for (const drop of drops) await drop();
  await rm(workDir, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string>) => runToEnd([CLI, ...args], { LOG_LEVEL: 'silent', DEBUG: '', ADMIN_API_KEY: ADMIN, ...env });

describe('migrate --status and --dry-run', () => {
  it('list the pending migrations and show their SQL without applying any; after `migrate` the status is up to date', { timeout: 120_000 }, async () => {
    const database = await newDatabase();

    const before = await cli(['migrate', '--status'], database);
    expect(before.code, before.stderr).toBe(3);
    const pending = before.stdout.split('\n').filter((line) => line.startsWith('pending '));
    expect(pending.length).toBeGreaterThan(20);
    expect(before.stdout).toMatch(/: \d+ pending, 0 applied; run `consent-config migrate`/);

    const dryRun = await cli(['migrate', '--dry-run'], database);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toMatch(/^-- Migration20261122193136\n/);
    expect(dryRun.stdout).toMatch(/create table "domain"/i);
    expect(dryRun.stdout).toMatch(new RegExp(`-- ${pending.length} pending on .*; nothing was applied \\(dry run\\)`));
    // Nothing was applied.
    const still = await cli(['migrate', '--status'], database);
    expect(still.code).toBe(3);
    expect(still.stdout.split('\n').filter((line) => line.startsWith('pending '))).toEqual(pending);

    const applied = await cli(['migrate'], database);
    expect(applied.code, applied.stderr).toBe(0);
    const after = await cli(['migrate', '--status'], database);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(new RegExp(`: up to date \\(${pending.length} applied\\)\\n$`));
    expect(after.stdout.split('\n').filter((line) => line.startsWith('applied '))).toHaveLength(pending.length);
    expect((await cli(['migrate', '--dry-run'], database)).stdout).toMatch(/^-- nothing to apply on /);
  });

  it('refuses both at once, as a usage error', async () => {
    const result = await cli(['migrate', '--status', '--dry-run'], await newDatabase());
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^error: --status and --dry-run are separate/);
  });
});

describe('MIGRATE_ON_START=0', () => {
  it.skipIf(onServer)('on the embedded database, fails at once naming the pending migrations and the command that applies them', { timeout: 60_000 }, async () => {
    const database = await newDatabase();
    const service = await startServiceProcess({ env: { ...database, ADMIN_API_KEY: ADMIN, MIGRATE_ON_START: '0', LOG_LEVEL: 'warn' } });
    expect(service.ready).toBe(false);
    expect(await service.exited).toBe(1);
    expect(service.output().stderr.trim()).toMatch(
      /^cannot start: MIGRATE_ON_START=0 and \d+ migrations are pending \(Migration20261122193136, .*\); the embedded database is this process's alone: apply them with `consent-config migrate`, or set MIGRATE_ON_START=1$/,
    );
  });

  it.runIf(onServer)('on a server, waits without listening until another process has migrated, then starts ready', { timeout: 120_000 }, async () => {
    const database = await newDatabase();
    const service = await startServiceProcess({ env: { ...database, ADMIN_API_KEY: ADMIN, MIGRATE_ON_START: '0', MIGRATION_WAIT_SECONDS: '90', LOG_LEVEL: 'info' }, timeoutMs: 3_000 });
    try {
      expect(service.ready).toBe(false);
      expect(service.child.exitCode).toBeNull();
      expect(service.output().stdout).toMatch(/MIGRATE_ON_START=0: waiting for \d+ pending migration\(s\)/);
      const migrated = await cli(['migrate'], database);
      expect(migrated.code, migrated.stderr).toBe(0);
      await until('the service to be ready', () => fetch(`${service.base}/readyz`).then((r) => (r.ok ? true : undefined), () => undefined));
      expect((await service.request('GET', '/hosting/api/client')).status).toBe(200);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it.runIf(onServer)('on a server, fails after MIGRATION_WAIT_SECONDS when nobody migrates', { timeout: 60_000 }, async () => {
    const service = await startServiceProcess({ env: { ...(await newDatabase()), ADMIN_API_KEY: ADMIN, MIGRATE_ON_START: '0', MIGRATION_WAIT_SECONDS: '1', LOG_LEVEL: 'warn' } });
    expect(service.ready).toBe(false);
    expect(await service.exited).toBe(1);
    expect(service.output().stderr.trim()).toMatch(/^cannot start: MIGRATE_ON_START=0 and \d+ migrations are pending .*; waited 1 s \(MIGRATION_WAIT_SECONDS\): apply them with `consent-config migrate`/);
  });

  it('starts at once when the migrations were applied before', { timeout: 60_000 }, async () => {
    const database = await newDatabase();
    expect((await cli(['migrate'], database)).code).toBe(0);
    const service = await startServiceProcess({ env: { ...database, ADMIN_API_KEY: ADMIN, MIGRATE_ON_START: '0', LOG_LEVEL: 'warn' } });
    try {
      expect(service.ready, service.output().stderr).toBe(true);
      expect((await service.request('GET', '/readyz', { key: null })).status).toBe(200);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});

describe('secrets from files', () => {
  it('reads ADMIN_API_KEY_FILE (and DATABASE_URL_FILE on a server), dropping the one line break at the end', { timeout: 60_000 }, async () => {
    const database = await newDatabase();
    const keyFile = join(workDir, 'admin-key');
    await writeFile(keyFile, `${ADMIN}\n`, { mode: 0o600 });
    const env: Record<string, string> = { ...database, ADMIN_API_KEY: '', ADMIN_API_KEY_FILE: keyFile, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
    if (onServer) {
      const urlFile = join(workDir, 'database-url');
      await writeFile(urlFile, `${database.DATABASE_URL}\n`);
      Object.assign(env, { DATABASE_URL: '', DATABASE_URL_FILE: urlFile });
    }
    const service = await startServiceProcess({ env });
    try {
      expect(service.ready, service.output().stderr).toBe(true);
      expect((await service.request('GET', '/hosting/api/client', { key: ADMIN })).status).toBe(200);
      // The file's line break is not part of the key: the key as written authenticates.
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it('refuses a file it cannot read, and a setting given both ways, naming the variable but not the secret', { timeout: 30_000 }, async () => {
    const unreadable = await startServiceProcess({ env: { ...(await newDatabase()), ADMIN_API_KEY: '', ADMIN_API_KEY_FILE: join(workDir, 'missing') } });
    expect(await unreadable.exited).toBe(1);
    expect(unreadable.output().stderr.trim()).toBe(`cannot start: invalid settings: ADMIN_API_KEY_FILE: cannot read ${join(workDir, 'missing')} (ENOENT)`);

    const keyFile = join(workDir, 'both');
    await writeFile(keyFile, 'a-secret-that-must-not-be-printed');
    await chmod(keyFile, 0o600);
    const both = await startServiceProcess({ env: { ...(await newDatabase()), ADMIN_API_KEY: ADMIN, ADMIN_API_KEY_FILE: keyFile } });
    expect(await both.exited).toBe(1);
    expect(both.output().stderr.trim()).toBe('cannot start: invalid settings: ADMIN_API_KEY_FILE: set ADMIN_API_KEY or ADMIN_API_KEY_FILE, not both');
    expect(both.output().stderr + both.output().stdout).not.toContain('a-secret-that-must-not-be-printed');
  });
});

describe('SHUTDOWN_DELAY_MS', () => {
  it('on SIGTERM fails readiness at once, keeps answering requests for the delay, then drains and exits 0', { timeout: 60_000 }, async () => {
    const service = await startServiceProcess({ env: { ...(await newDatabase()), ADMIN_API_KEY: ADMIN, SHUTDOWN_DELAY_MS: '2000', LOG_LEVEL: 'warn' } });
    expect(service.ready, service.output().stderr).toBe(true);
    expect((await service.request('GET', '/readyz', { key: null })).status).toBe(200);
    const signalled = Date.now();
    service.child.kill('SIGTERM');
    const readiness = await until('readiness to fail', async () => {
      const answer = await service.request('GET', '/readyz', { key: null });
      return answer.status === 503 ? answer : undefined;
    });
    expect(readiness.body).toEqual({ status: 'stopping', checks: {} });
    expect(Date.now() - signalled).toBeLessThan(1_000);
    // Still served: the load balancer may not have noticed yet.
    expect((await service.request('GET', '/healthz', { key: null })).status).toBe(200);
    expect((await service.request('GET', '/hosting/api/client')).status).toBe(200);
    expect(await service.exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(2_000);
    await expect(fetch(`${service.base}/healthz`)).rejects.toThrow();
  });
});
