import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_DIR, LOCK_STALE_MS, LOCK_UPDATE_MS, OWNER_FILE } from '../src/db/data-dir-lock.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { openServiceDatabase } from '../src/app/database.ts';
import { ApiKeyEntity } from '../src/features/api-keys/api-key.entity.ts';
import { ClientEntity } from '../src/features/clients/client.entity.ts';
import { ImportedServiceEntity } from '../src/features/catalog/imported.entity.ts';
import { StartupError } from '../src/startup-error.ts';
import { type Finished, runToEnd } from './support/run-to-end.ts';
import { type ServiceProcess, startServiceProcess } from './support/service-process.ts';

/**
 * One process at a time on an embedded database's data directory: a second service or a CLI
 * command refuses at once in one line naming the directory and the process holding it, and
 * touches no file; a killed holder's lock is taken over at once; a clean stop releases it; a lock
 * lost while running stops the service instead of letting it write on. About the embedded
 * database only, so the processes get an empty DATABASE_URL in the PostgreSQL run too (as
 * crash-recovery does for its embedded run).
 */

const CLI = new URL('../bin/consent-config.ts', import.meta.url).pathname;
const ADMIN = 'lock-test-admin-key-0123456789';

type Result = Finished;

let workDir: string;
const processes: ServiceProcess[] = [];
let dataDirs = 0;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'embedded-lock-'));
});
afterAll(async () => {
  for (const service of processes) await service.stop('SIGKILL');
  await rm(workDir, { recursive: true, force: true });
});

const newDataDir = () => join(workDir, `data-${++dataDirs}`);
/** The embedded database in `dataDir`, also in the PostgreSQL run. */
const embedded = (dataDir: string) => ({ DATABASE_URL: '', DATA_DIR: dataDir });

/** `node src/main.ts` on `dataDir` (whether or not it gets ready). */
async function startService(dataDir: string): Promise<ServiceProcess> {
  const service = await startServiceProcess({ env: { ...embedded(dataDir), ADMIN_API_KEY: ADMIN, LOG_LEVEL: 'warn', NODE_ENV: 'test' } });
  processes.push(service);
  return service;
}

async function runningService(dataDir: string): Promise<ServiceProcess> {
  const service = await startService(dataDir);
  if (!service.ready) throw new Error(`the service did not start: ${service.output().stderr}`);
  return service;
}

/** The CLI run to its end on `dataDir`, as test/cli.test.ts runs it. */
const cli = (args: string[], dataDir: string): Promise<Result> =>
  runToEnd([CLI, ...args], { ...embedded(dataDir), LOG_LEVEL: 'silent', DEBUG: '', ADMIN_API_KEY: '' });

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const STACK_LINE = /^ {4}at /m;

/** The refusal: the directory, the process holding it on this host, since when, what to do. */
const inUseBy = (dataDir: string, pid: number) =>
  new RegExp(
    `data directory ${escape(dataDir)} is in use by process ${pid} \\([^)]*\\) on host ${escape(hostname())} ` +
      `since \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z; stop it first, or use the running service's API`,
  );

/** Every file of the data directory but the lock, with its size and modification time. */
async function databaseFiles(dataDir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const name = relative(dataDir, path);
    if (!entry.isFile() || name.split('/')[0] === LOCK_DIR) continue;
    const { size, mtimeMs } = await stat(path);
    files[name] = `${size} bytes, modified ${mtimeMs}`;
  }
  return files;
}

async function usernames(service: ServiceProcess): Promise<string[]> {
  const answer = await service.request('GET', '/hosting/api/client');
  expect(answer.status).toBe(200);
  return (answer.body as { username: string }[]).map((client) => client.username);
}

async function createClient(service: ServiceProcess, username: string, active = false): Promise<string> {
  const answer = await service.request('POST', '/hosting/api/client', { body: { username, emailAddress: `${username}@example.org`, password: `${username}-password`, active } });
  expect(answer.status, answer.text).toBe(201);
  return (answer.body as { id: string }).id;
}

/** The process's exit code, or 'still running' after `ms`. */
const exitWithin = (service: ServiceProcess, ms: number) => Promise.race([service.exited, sleep(ms).then(() => 'still running' as const)]);

describe('a second service on the same data directory', () => {
  const dataDir = () => join(workDir, 'second-service');
  let first: ServiceProcess;
  let second: ServiceProcess;

  beforeAll(async () => {
    first = await runningService(dataDir());
  });

  it('exits non-zero within seconds, with the line naming the directory and the process holding it, and touches no database file', async () => {
    await createClient(first, 'first');
    // The first service writes now and then by itself (its job queue's upkeep): paused, it cannot,
    // so whatever changes in the directory meanwhile is the second's doing. Paused, it still holds the lock.
    first.child.kill('SIGSTOP');
    try {
      const before = await databaseFiles(dataDir());
      const started = Date.now();
      second = await startService(dataDir());
      expect(second.ready, 'the second service started').toBe(false);
      const code = await exitWithin(second, 10_000);
      expect(code, second.output().stderr).not.toBe('still running');
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      expect(Date.now() - started).toBeLessThan(10_000);
      const refusal = lines(second.output().stderr).filter((line) => inUseBy(dataDir(), first.child.pid!).test(line));
      expect(refusal, second.output().stderr).toHaveLength(1);
      expect(await databaseFiles(dataDir())).toEqual(before);
    } finally {
      first.child.kill('SIGCONT');
    }
  }, 60_000);

  it('prints it without a stack trace', () => {
    expect(second.output().stderr).not.toMatch(STACK_LINE);
  });

  it('while the first keeps serving, and what was written through the first survives a restart', async () => {
    await createClient(first, 'first-again');
    expect(await first.stop('SIGTERM')).toBe(0);
    const again = await runningService(dataDir());
    expect(await usernames(again)).toEqual(expect.arrayContaining(['first', 'first-again']));
    expect(await again.stop('SIGTERM')).toBe(0);
  }, 60_000);
});

describe('CLI commands while the service runs', () => {
  const dataDir = () => join(workDir, 'cli');
  const csv = () => join(workDir, 'lock-test-ocd.csv');
  let service: ServiceProcess;
  let clientId: string;
  const commands = () => [
    ['client', 'create', '--username', 'from-cli', '--email', 'cli@example.org', '--password', 'cli-password'],
    ['key', 'create', '--client', clientId, '--name', 'from-cli'],
    ['migrate'],
    ['catalog', 'import', csv()],
  ];
  const count = async () => {
    const database = await openServiceDatabase({ dataDir: dataDir(), poolSize: 1 });
    try {
      const em = database.orm.em.fork();
      return {
        clients: await em.count(ClientEntity, { username: 'from-cli' }),
        keys: await em.count(ApiKeyEntity, { name: 'from-cli' }),
        importedServices: await em.count(ImportedServiceEntity, {}),
      };
    } finally {
      await database.close();
    }
  };

  beforeAll(async () => {
    await writeFile(
      csv(),
      'ID,Platform,Category,Cookie / Data Key name,Domain,Description,Retention period,Data Controller,User Privacy & GDPR Rights Portals,Wildcard match\n' +
        '7a0d9a4e-0000-4000-8000-000000000001,Lock Test Analytics,Analytics,_lta,locktest.example,Counts visits,1 year,Lock Test,https://locktest.example/privacy,0\n' +
        '7a0d9a4e-0000-4000-8000-000000000002,Lock Test Analytics,Analytics,_lta_id,locktest.example,Identifies visitors,1 year,Lock Test,https://locktest.example/privacy,0\n',
    );
    service = await runningService(dataDir());
    clientId = await createClient(service, 'owner', true);
  });

  it('each command refuses in one line with exit code 1, naming the service process, and creates nothing', async () => {
    for (const args of commands()) {
      const result = await cli(args, dataDir());
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(1);
      expect(lines(result.stderr), result.stderr).toHaveLength(1);
      expect(result.stderr.trim()).toMatch(new RegExp(`^error: ${inUseBy(dataDir(), service.child.pid!).source}`));
      expect(result.stdout).toBe('');
    }
    expect(await usernames(service)).toEqual(['owner']);
    expect(await service.stop('SIGTERM')).toBe(0);
    expect(await count()).toEqual({ clients: 0, keys: 0, importedServices: 0 });
  }, 90_000);

  it('each succeeds once the service has stopped, and what they made is there when it starts again', async () => {
    const made: Record<string, string> = {};
    for (const args of commands()) {
      const result = await cli(args, dataDir());
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      made[args.slice(0, 2).join(' ')] = result.stdout.trim();
    }
    expect(made['catalog import']).toMatch(/^imported 2 cookies of 1 services \(1 new\)/);
    expect(await count()).toEqual({ clients: 1, keys: 1, importedServices: 1 });

    const again = await runningService(dataDir());
    expect((await usernames(again)).sort()).toEqual(['from-cli', 'owner']);
    const key = made['key create']!;
    expect(key).toMatch(/^dcs_/);
    expect((await again.request('GET', `/hosting/api/client/${clientId}`, { key })).status).toBe(200);
    expect(await again.stop('SIGTERM')).toBe(0);
  }, 90_000);
});

describe('a service killed with SIGKILL', () => {
  it('starts again at once on the same data directory, without waiting for its lock to go stale, and its data is there', async () => {
    const dataDir = newDataDir();
    const first = await runningService(dataDir);
    const pid = first.child.pid!;
    await createClient(first, 'before-kill');
    expect(await first.stop('SIGKILL')).toBeNull();
    // The lock it left behind, and its last heartbeat.
    const heartbeat = (await stat(join(dataDir, LOCK_DIR))).mtimeMs;

    const second = await runningService(dataDir);
    expect(Date.now() - heartbeat).toBeLessThan(LOCK_STALE_MS);
    expect(second.output().stderr).toMatch(
      new RegExp(`data directory ${escape(dataDir)}: took over the lock of process ${pid} \\(.*\\) on host ${escape(hostname())}: process ${pid} is not running`),
    );
    expect(await usernames(second)).toEqual(['before-kill']);
    expect(await second.stop('SIGTERM')).toBe(0);
  }, 60_000);
});

describe('the holder', () => {
  it('keeps its lock fresh while it runs: the heartbeat advances and nothing takes it for lost', async () => {
    const dataDir = newDataDir();
    const service = await runningService(dataDir);
    const lockPath = join(dataDir, LOCK_DIR);
    const owner = await readFile(join(lockPath, OWNER_FILE), 'utf8');
    const first = (await stat(lockPath)).mtimeMs;
    await sleep(2 * LOCK_UPDATE_MS + 1_000);
    expect((await stat(lockPath)).mtimeMs).toBeGreaterThan(first);
    expect(await readFile(join(lockPath, OWNER_FILE), 'utf8')).toBe(owner);
    expect(JSON.parse(owner)).toMatchObject({ pid: service.child.pid, hostname: hostname() });
    expect((await service.request('GET', '/healthz')).status).toBe(200);
    expect(await service.stop('SIGTERM')).toBe(0);
    expect(service.output().stderr).not.toMatch(/lost its lock/);
  }, 60_000);
});

describe('a clean stop', () => {
  it('releases the lock on SIGTERM, so a command right after it works', async () => {
    const dataDir = newDataDir();
    const service = await runningService(dataDir);
    expect(existsSync(join(dataDir, LOCK_DIR))).toBe(true);
    expect(await service.stop('SIGTERM')).toBe(0);
    expect(existsSync(join(dataDir, LOCK_DIR))).toBe(false);
    const result = await cli(['client', 'create', '--username', 'after-stop', '--email', 'after@example.org', '--password', 'after-password'], dataDir);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ username: 'after-stop' });
  }, 60_000);
});

describe('other holders', () => {
  it('a service refuses while another process (this one) has the database open, naming it; a second open in one process is refused too', async () => {
    const dataDir = newDataDir();
    const database = await startEmbeddedPostgres(dataDir);
    try {
      const service = await startService(dataDir);
      expect(service.ready).toBe(false);
      expect(await exitWithin(service, 10_000)).toBe(1);
      expect(service.output().stderr).toMatch(inUseBy(dataDir, process.pid));
      const again = startEmbeddedPostgres(dataDir);
      await expect(again).rejects.toBeInstanceOf(StartupError);
      await expect(again).rejects.toThrow(`data directory ${dataDir} is already open in this process`);
    } finally {
      await database.stop();
    }
    const reopened = await startEmbeddedPostgres(dataDir);
    await reopened.stop();
  }, 60_000);

  it('a holder on another host: refused while its heartbeat is fresh (the message says so), taken over once it is stale', async () => {
    const dataDir = newDataDir();
    const service = await runningService(dataDir);
    const pid = service.child.pid!;
    await service.stop('SIGKILL');
    // The lock as a process on another host (a shared volume) would have left it.
    const ownerFile = join(dataDir, LOCK_DIR, OWNER_FILE);
    const owner = JSON.parse(await readFile(ownerFile, 'utf8')) as Record<string, unknown>;
    expect(owner).toMatchObject({ pid, hostname: hostname() });
    await writeFile(ownerFile, JSON.stringify({ ...owner, hostname: 'elsewhere.example' }));
    const fresh = new Date();
    await utimes(join(dataDir, LOCK_DIR), fresh, fresh);

    const refused = startEmbeddedPostgres(dataDir);
    await expect(refused).rejects.toBeInstanceOf(StartupError);
    await expect(refused).rejects.toThrow(
      new RegExp(`^data directory ${escape(dataDir)} is in use by process ${pid} \\(.*\\) on host elsewhere\\.example since .*; stop it first.* heartbeat .*${LOCK_STALE_MS / 1000} s`),
    );

    const stale = new Date(Date.now() - LOCK_STALE_MS - 1_000);
    await utimes(join(dataDir, LOCK_DIR), stale, stale);
    const database = await startEmbeddedPostgres(dataDir);
    expect(JSON.parse(await readFile(ownerFile, 'utf8'))).toMatchObject({ pid: process.pid, hostname: hostname() });
    await database.stop();
  }, 60_000);
});

describe('a lock lost while the service runs', () => {
  it('stops the service within a heartbeat, with one line and no uncaught exception, and what it wrote is kept', async () => {
    const dataDir = newDataDir();
    const service = await runningService(dataDir);
    await createClient(service, 'before-loss');
    await rm(join(dataDir, LOCK_DIR), { recursive: true, force: true });

    const code = await exitWithin(service, LOCK_UPDATE_MS + 10_000);
    expect(code, service.output().stderr).not.toBe('still running');
    expect(code).toBe(1);
    const { stderr } = service.output();
    expect(lines(stderr).filter((line) => line.includes(`data directory ${dataDir}`))).toEqual([
      expect.stringMatching(/lost its lock .*stopping at once/),
    ]);
    expect(stderr).not.toMatch(STACK_LINE);
    expect(stderr).not.toMatch(/uncaught/i);

    const again = await runningService(dataDir);
    expect(await usernames(again)).toEqual(['before-loss']);
    expect(await again.stop('SIGTERM')).toBe(0);
  }, 60_000);
});
