import { type SpawnOptions, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './service-process.ts';

/**
 * A PostgreSQL cluster of the test's own, for what the shared server must not suffer: being
 * stopped with `-m immediate` (a crash: no checkpoint, WAL replayed at the next start), a
 * backend frozen with SIGSTOP, a restart under a running service. initdb in a temp directory,
 * trust authentication, a free port on 127.0.0.1, its unix socket in the temp directory, and
 * `fsync` on, so a commit means what it means in production.
 *
 * initdb and postgres refuse to run as root; as root (as the tests run here) they run as the
 * `postgres` OS user, which owns the temp directory. A test that needs one skips, saying
 * why, when `privatePostgresUnavailable()` gives a reason.
 */
export type PrivatePostgres = {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** The cluster's data directory (inside the temp directory). */
  dataDir: string;
  /** Stops the server: 'fast' (clean shutdown) or 'immediate' (a crash; default 'fast'). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port (after an immediate stop: crash recovery first). */
  start(): Promise<void>;
  /** One statement as the superuser, on a connection of its own. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
  /**
   * The process id of the one backend that matches (application_name equal to, or the text of
   * its current or last statement matching); undefined when none does. Throws when several do.
   */
  pidOfBackend(match: { applicationName?: string; query?: RegExp }): Promise<number | undefined>;
  /** The server log so far (for a failing test's message). */
  log(): Promise<string>;
  /** Stops it (immediately) and removes the temp directory. */
  destroy(): Promise<void>;
};

const POSTGRES_ROOT = '/usr/lib/postgresql';
const OS_USER = 'postgres';

/** The bin directory of the newest installed PostgreSQL, or undefined. */
function binDirectory(): string | undefined {
  if (!existsSync(POSTGRES_ROOT)) return undefined;
  const versions = readdirSync(POSTGRES_ROOT)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(POSTGRES_ROOT, name, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && join(POSTGRES_ROOT, versions[0], 'bin');
}

type RunAs = { uid: number; gid: number } | undefined;

function osUser(): RunAs | 'missing' {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, OS_USER], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) return 'missing';
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Why a private cluster cannot run here, or undefined when it can. */
export function privatePostgresUnavailable(): string | undefined {
  if (process.platform === 'win32') return 'a private PostgreSQL cluster needs a Unix system';
  if (!binDirectory()) return `no PostgreSQL server binaries under ${POSTGRES_ROOT}/<version>/bin`;
  if (osUser() === 'missing') return `running as root and there is no "${OS_USER}" OS user to run PostgreSQL as`;
  return undefined;
}

/** Runs a PostgreSQL program to its end (as the postgres OS user when we are root). */
function run(program: string, args: string[], runAs: RunAs): Promise<{ code: number | null; output: string }> {
  const options: SpawnOptions = {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_ALL: 'C', PGTZ: 'UTC' },
    ...(runAs ?? {}),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, options);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

async function runOrThrow(program: string, args: string[], runAs: RunAs): Promise<void> {
  const { code, output } = await run(program, args, runAs);
  if (code !== 0) throw new Error(`${program} ${args.join(' ')} failed (${code}): ${output}`);
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const reason = privatePostgresUnavailable();
  if (reason) throw new Error(reason);
  const bin = binDirectory()!;
  const runAs = osUser() as RunAs;
  const root = await mkdtemp(join(tmpdir(), 'private-pg-'));
  if (runAs) await chown(root, runAs.uid, runAs.gid);
  const dataDir = join(root, 'data');
  const logFile = join(root, 'server.log');
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  // --no-sync only spares initdb's own final flush of the new files; the server runs with fsync on.
  await runOrThrow(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], runAs);
  const serverOptions = [
    `-p ${port}`,
    `-k ${root}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=on',
    '-c synchronous_commit=on',
    '-c max_connections=60',
    '-c shared_buffers=16MB',
  ].join(' ');

  const pgCtl = (args: string[]) => runOrThrow(join(bin, 'pg_ctl'), ['-D', dataDir, ...args], runAs);
  const start = () => pgCtl(['start', '-w', '-t', '30', '-l', logFile, '-o', serverOptions]);
  let running = false;
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await pgCtl(['stop', '-w', '-m', mode]);
    running = false;
  };
  // A test process that ends without destroy() must not leave a server behind.
  const stopAtExit = () => {
    if (running) spawnSync(join(bin, 'pg_ctl'), ['-D', dataDir, 'stop', '-m', 'immediate'], { stdio: 'ignore', ...(runAs ?? {}) });
  };
  process.once('exit', stopAtExit);

  await start();
  running = true;

  const query = async <R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url, application_name: 'private-postgres-harness' });
    await client.connect();
    try {
      return (await client.query<R>(sql, params)).rows;
    } finally {
      await client.end();
    }
  };

  return {
    url,
    port,
    dataDir,
    async start() {
      await start();
      running = true;
    },
    stop,
    query,
    async pidOfBackend({ applicationName, query: text }) {
      const rows = await query<{ pid: number; application_name: string; query: string }>(
        `select pid, application_name, query from pg_stat_activity
          where backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      const matching = rows.filter(
        (row) => (applicationName === undefined || row.application_name === applicationName) && (text === undefined || text.test(row.query)),
      );
      if (matching.length > 1) throw new Error(`${matching.length} backends match: ${matching.map((row) => row.pid).join(', ')}`);
      return matching[0]?.pid;
    },
    async log() {
      return readFile(logFile, 'utf8').catch(() => '');
    },
    async destroy() {
      if (running) await stop('immediate').catch(() => undefined);
      process.removeListener('exit', stopAtExit);
      await rm(root, { recursive: true, force: true });
    },
  };
}
