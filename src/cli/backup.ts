import { createWriteStream } from 'node:fs';
import { readFile, rename, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { loadSettings } from '../config.ts';
import { backupStream, holdsDatabase, restoreBackup, RestoreError } from '../db/embedded-backup.ts';
import { embeddedDatabaseAt, startEmbeddedPostgres } from '../db/embedded.ts';
import { BACKUP_PATH } from '../http/backup.ts';
import { StartupError } from '../startup-error.ts';
import { CliError, usageError } from './errors.ts';
import { type Output, stdio } from './output.ts';

export type BackupOptions = { from?: string };

const PG_DUMP_HINT = 'on PostgreSQL, back up with pg_dump -Fc and restore with pg_restore (README, "Backups and moving configuration")';

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Writes the stream to `file` whole or not at all (written aside, then renamed). */
async function writeStream(file: string, source: Readable): Promise<number> {
  const partial = `${file}.${process.pid}.partial`;
  try {
    await pipeline(source, createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error instanceof CliError ? error : new CliError(`cannot write ${file}: ${(error as Error).message}`);
  }
  return (await stat(file)).size;
}

/** The backup from the running service: GET /admin/backup with the administrator key. */
async function backupFromService(base: string, key: string | undefined, file: string): Promise<number> {
  if (!key) throw usageError('--from needs ADMIN_API_KEY: the service gives backups to its administrator key only');
  let url: URL;
  try {
    url = new URL(BACKUP_PATH, base);
  } catch {
    throw usageError(`--from: must be the service's address, such as http://127.0.0.1:4000, not "${base}"`);
  }
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } }).catch((error: unknown) => {
    throw new CliError(`cannot reach the service at ${url.origin}: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`);
  });
  if (!response.ok || !response.body) {
    const detail = await response.json().then((body: { detail?: string }) => body.detail, () => undefined);
    const hint = response.status === 404 || response.status === 401 ? ' (is ADMIN_API_KEY the service\'s administrator key?)' : '';
    throw new CliError(`the service at ${url.origin} answered ${response.status}${detail ? `: ${detail}` : ''}${hint}`);
  }
  return writeStream(file, Readable.fromWeb(response.body as never));
}

/** The backup read from DATA_DIR itself, when no process holds it. */
async function backupFromDataDir(dataDir: string, file: string): Promise<number> {
  if (!(await holdsDatabase(dataDir))) throw new CliError(`${dataDir} holds no embedded database (no PG_VERSION): nothing to back up`);
  const embedded = await startEmbeddedPostgres(dataDir).catch((error: unknown) => {
    if (error instanceof StartupError) {
      throw new CliError(`${error.message}; while the service runs, back up through it: consent-config backup --from http://HOST:PORT ${file}`);
    }
    throw error;
  });
  try {
    return await writeStream(file, await backupStream(embeddedDatabaseAt(embedded.url)!));
  } finally {
    await embedded.stop();
  }
}

/**
 * `backup <file>`: a backup of the embedded database (db/embedded-backup.ts), from the running
 * service with `--from <its address>` (it holds the data directory) or else from DATA_DIR
 * directly. On PostgreSQL (DATABASE_URL) the backup is pg_dump's.
 */
export async function backupCommand(file: string, options: BackupOptions, output: Output = stdio): Promise<void> {
  const settings = loadSettings();
  const started = performance.now();
  let bytes: number;
  let source: string;
  if (options.from !== undefined) {
    source = `the service at ${options.from}`;
    bytes = await backupFromService(options.from, settings.adminApiKey, file);
  } else {
    if (settings.databaseUrl) throw usageError(`DATABASE_URL names a PostgreSQL server: ${PG_DUMP_HINT}`);
    source = `the embedded database in ${settings.dataDir}`;
    bytes = await backupFromDataDir(settings.dataDir, file);
  }
  output.out(`backup of ${source} written to ${file}: ${megabytes(bytes)} in ${seconds(performance.now() - started)}\n`);
}

/**
 * `restore <file>`: a backup into DATA_DIR, which must be new or empty (no service may run on it:
 * its lock says so). The service's next start finds the data and runs its pending migrations.
 */
export async function restoreCommand(file: string, output: Output = stdio): Promise<void> {
  const settings = loadSettings();
  if (settings.databaseUrl) throw usageError(`DATABASE_URL names a PostgreSQL server: restore is for the embedded database; ${PG_DUMP_HINT}`);
  let archive: Uint8Array;
  try {
    archive = await readFile(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const started = performance.now();
  const counts = await restoreBackup(settings.dataDir, archive, async (db) => {
    const { rows } = await db.query<{ clients: number; domains: number }>(
      `select (select count(*) from "client")::int as "clients", (select count(*) from "domain")::int as "domains"`,
    );
    return rows[0]!;
  }).catch((error: unknown) => {
    if (error instanceof RestoreError || error instanceof StartupError) throw new CliError(error.message);
    throw error;
  });
  output.out(
    `restored ${file} into ${settings.dataDir} in ${seconds(performance.now() - started)}: ${counts.clients} clients, ${counts.domains} domains; ` +
      'the service finds them at its next start\n',
  );
}
