import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTestDatabase } from './support/database.ts';
import { type Finished, runToEnd } from './support/run-to-end.ts';
import { seedConfiguration } from './support/seeded-configuration.ts';
import { type ServiceProcess, startServiceProcess } from './support/service-process.ts';

/**
 * Backups: of the embedded database through the running service (`backup --from`), or from
 * DATA_DIR when no service runs on it, restored into a new DATA_DIR that a service then starts
 * on; of a PostgreSQL database with the operator's pg_dump and pg_restore, as the README says.
 */

const CLI = new URL('../bin/consent-config.ts', import.meta.url).pathname;
const ADMIN = 'backup-test-admin-key-0123456789abc';
/** The seeded domain's embeddings: three of its own and this many more. */
const EXTRA_EMBEDDINGS = 100;

const serverUrl = process.env.DATABASE_URL;
const hasPgDump = spawnSync('pg_dump', ['--version']).status === 0 && spawnSync('pg_restore', ['--version']).status === 0;

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'backup-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

const startService = (env: Record<string, string>) =>
  startServiceProcess({ env: { ...env, ADMIN_API_KEY: ADMIN, LOG_LEVEL: 'warn', NODE_ENV: 'test' }, timeoutMs: 60_000 });

async function embeddingNames(service: ServiceProcess, clientId: string, domainId: string): Promise<string[]> {
  const answer = await service.request('GET', `/hosting/api/client/${clientId}/domain/${domainId}/embedding`);
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { name: string }[]).map((embedding) => embedding.name).sort();
}

describe.skipIf(serverUrl)('the embedded database', () => {
  const dataDir = (name: string) => join(workDir, name);
  const cli = (args: string[], env: Record<string, string>): Promise<Finished> =>
    runToEnd([CLI, ...args], { DATABASE_URL: '', LOG_LEVEL: 'silent', DEBUG: '', ADMIN_API_KEY: '', ...env }, { deadlineMs: 120_000 });

  let service: ServiceProcess;
  let seeded: { clientId: string; domainId: string };
  let before: string[];
  const backupFile = () => join(workDir, 'running.tar.gz');

  beforeAll(async () => {
    service = await startService({ DATA_DIR: dataDir('live') });
    expect(service.ready, service.output().stderr).toBe(true);
    seeded = await seedConfiguration(service.request, { extraEmbeddings: EXTRA_EMBEDDINGS });
    before = await embeddingNames(service, seeded.clientId, seeded.domainId);
  }, 300_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('writes a backup through the running service with --from and the administrator key', async () => {
    const result = await cli(['backup', backupFile(), '--from', service.base], { DATA_DIR: dataDir('live'), ADMIN_API_KEY: ADMIN });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^backup of the service at ${service.base} written to .*running\\.tar\\.gz: \\d+\\.\\d MB in \\d+\\.\\d s\\n$`));
    const { size } = await stat(backupFile());
    expect(size).toBeGreaterThan(1_000_000);
    // Writes after it are not in it.
    const late = await service.request('POST', `/hosting/api/client/${seeded.clientId}/domain/${seeded.domainId}/embedding`, { body: { name: 'After the backup', purpose: '15c61c3' } });
    expect(late.status).toBe(201);
  }, 120_000);

  it('refuses: another key (the service answers 404 to it, as for /metrics), no key, DATA_DIR while the service holds it', async () => {
    const other = await cli(['backup', join(workDir, 'other.tar.gz'), '--from', service.base], { ADMIN_API_KEY: 'not-the-admin-key-0123456789abcdef' });
    expect(other.code).toBe(1);
    expect(lines(other.stderr)).toHaveLength(1);
    expect(other.stderr).toMatch(/^error: the service at http:\/\/127\.0\.0\.1:\d+ answered 40[14].*ADMIN_API_KEY/);
    const noKey = await cli(['backup', join(workDir, 'other.tar.gz'), '--from', service.base], {});
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/^error: --from needs ADMIN_API_KEY/);
    const held = await cli(['backup', join(workDir, 'other.tar.gz')], { DATA_DIR: dataDir('live') });
    expect(held.code).toBe(1);
    expect(lines(held.stderr)).toHaveLength(1);
    expect(held.stderr).toMatch(/while the service runs, back up through it: consent-config backup --from http:\/\/HOST:PORT/);
    const refused = await fetch(`${service.base}/admin/backup`, { headers: { authorization: 'Bearer not-the-admin-key-0123456789abcdef' } });
    expect(refused.status).toBeGreaterThanOrEqual(401);
    expect(refused.status).toBeLessThanOrEqual(404);
  }, 60_000);

  it('restores only into a new or empty DATA_DIR, and only a backup', async () => {
    const live = await cli(['restore', backupFile()], { DATA_DIR: dataDir('live') });
    expect(live.code).toBe(1);
    expect(lines(live.stderr)).toEqual([expect.stringMatching(/^error: .*live is not empty \(.*\): restore into a new, empty data directory$/)]);
    const notBackup = join(workDir, 'not-a-backup.tar.gz');
    await writeFile(notBackup, 'hello');
    const bad = await cli(['restore', notBackup], { DATA_DIR: dataDir('never') });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: not a backup/);
  }, 60_000);

  it('restores the backup into a new DATA_DIR; a service started on it has the data as of the backup', async () => {
    const result = await cli(['restore', backupFile()], { DATA_DIR: dataDir('restored') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^restored .*running\.tar\.gz into .*restored in \d+\.\d s: 1 clients, 1 domains; the service finds them at its next start\n$/);
    const restored = await startService({ DATA_DIR: dataDir('restored') });
    try {
      expect(restored.ready, restored.output().stderr).toBe(true);
      expect(await embeddingNames(restored, seeded.clientId, seeded.domainId)).toEqual(before);
      const domain = await restored.request('GET', `/hosting/api/client/${seeded.clientId}/domain/${seeded.domainId}`);
      expect(domain.body).toMatchObject({ url: 'https://www.acme.example/shop/', consentCookieLifetime: 180 });
      const revisions = await restored.request('GET', `/hosting/api/client/${seeded.clientId}/domain/${seeded.domainId}/revision`);
      expect(revisions.status, revisions.text).toBe(200);
      expect((revisions.body as { revisions: unknown[] }).revisions.length).toBeGreaterThan(0);
      // The restored database takes writes.
      const write = await restored.request('POST', `/hosting/api/client/${seeded.clientId}/domain/${seeded.domainId}/embedding`, { body: { name: 'After the restore', purpose: '15c61c3' } });
      expect(write.status).toBe(201);
    } finally {
      expect(await restored.stop()).toBe(0);
    }
  }, 180_000);

  it('backs up DATA_DIR itself when no service runs on it, and that backup restores too', async () => {
    const file = join(workDir, 'stopped.tar.gz');
    const result = await cli(['backup', file], { DATA_DIR: dataDir('restored') });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^backup of the embedded database in .*restored written to .*stopped\.tar\.gz/);
    const again = await cli(['restore', file], { DATA_DIR: dataDir('again') });
    expect(again.code, again.stderr).toBe(0);
    const empty = await cli(['backup', file], { DATA_DIR: dataDir('nothing-here') });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/holds no embedded database/);
  }, 120_000);
});

describe.skipIf(!serverUrl || !hasPgDump)('PostgreSQL with pg_dump and pg_restore', () => {
  const databases: { drop(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const database of databases) await database.drop();
  });

  const run = (command: string, args: string[]) => {
    const result = spawnSync(command, args, { encoding: 'utf8' });
    return { code: result.status, stderr: result.stderr };
  };

  it('dumps a database with data (pg_dump -Fc), restores it into a new one (pg_restore --clean --if-exists --no-owner), and the service starts on it with the data', async () => {
    const original = await freshTestDatabase();
    databases.push(original);
    const service = await startService({ DATABASE_URL: original.databaseUrl! });
    let seeded: { clientId: string; domainId: string };
    let before: string[];
    let revisionCount: number;
    try {
      expect(service.ready, service.output().stderr).toBe(true);
      seeded = await seedConfiguration(service.request, { extraEmbeddings: 20 });
      before = await embeddingNames(service, seeded.clientId, seeded.domainId);
      const revisions = await service.request('GET', `/hosting/api/client/${seeded.clientId}/domain/${seeded.domainId}/revision?limit=100`);
      revisionCount = (revisions.body as { revisions: unknown[] }).revisions.length;
      // The service's backup endpoint is the embedded database's.
      const endpoint = await fetch(`${service.base}/admin/backup`, { headers: { authorization: `Bearer ${ADMIN}` } });
      expect(endpoint.status).toBe(409);
      expect(((await endpoint.json()) as { detail: string }).detail).toMatch(/pg_dump/);
    } finally {
      await service.stop();
    }

    const dump = join(workDir, 'service.dump');
    const dumped = run('pg_dump', ['-Fc', '-f', dump, original.databaseUrl!]);
    expect(dumped.code, dumped.stderr).toBe(0);
    const copy = await freshTestDatabase();
    databases.push(copy);
    const restored = run('pg_restore', ['--clean', '--if-exists', '--no-owner', '-d', copy.databaseUrl!, dump]);
    expect(restored.code, restored.stderr).toBe(0);

    const onCopy = await startService({ DATABASE_URL: copy.databaseUrl! });
    try {
      expect(onCopy.ready, onCopy.output().stderr).toBe(true);
      expect(await embeddingNames(onCopy, seeded.clientId, seeded.domainId)).toEqual(before);
      const revisions = await onCopy.request('GET', `/hosting/api/client/${seeded.clientId}/domain/${seeded.domainId}/revision?limit=100`);
      expect((revisions.body as { revisions: unknown[] }).revisions).toHaveLength(revisionCount);
      const write = await onCopy.request('POST', `/hosting/api/client/${seeded.clientId}/domain/${seeded.domainId}/embedding`, { body: { name: 'After the restore', purpose: '15c61c3' } });
      expect(write.status).toBe(201);
    } finally {
      expect(await onCopy.stop()).toBe(0);
    }
  }, 240_000);

  it('points the backup command to pg_dump on PostgreSQL', async () => {
    const result = await runToEnd([CLI, 'backup', join(workDir, 'x.tar.gz')], { DATABASE_URL: serverUrl!, LOG_LEVEL: 'silent', ADMIN_API_KEY: '' });
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual([expect.stringMatching(/^error: DATABASE_URL names a PostgreSQL server: on PostgreSQL, back up with pg_dump -Fc/)]);
  }, 60_000);
});
