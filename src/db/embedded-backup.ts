import { access, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGzip, gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import { LOCK_DIR, lockDataDir } from './data-dir-lock.ts';

/**
 * Backups of the embedded database: a gzipped tar of its data directory, as PGlite itself makes
 * one (`dumpDataDir`, what its `clone()` uses), without the data directory's lock.
 *
 * Consistent while the service runs: PGlite makes it between two statements (it holds the
 * instance's statement queue meanwhile), so the copy is the database as a crash at that moment
 * would leave it, which PostgreSQL recovers from its write-ahead log at the first start: every
 * committed transaction is in it, none that was still open. A logical dump (pg_dump's WebAssembly
 * build, @electric-sql/pglite-tools) cannot be taken from the service's PGlite: it runs on the
 * instance's one session and leaves that session inside its own read-only transaction with its
 * settings (statement_timeout 0, …), so the service's next write fails.
 *
 * A backup is restored into a new data directory by the same PGlite (or one with the same
 * PostgreSQL major version); the migrations of a newer service then run at its start as on any
 * database.
 */

const gunzipBytes = promisify(gunzip);

const BLOCK = 512;

/** A tar entry's path without a leading `/` or `./`. */
function entryPath(header: Uint8Array): string {
  const text = (from: number, length: number) => Buffer.from(header.subarray(from, from + length)).toString('utf8').replace(/\0.*$/s, '');
  const name = text(0, 100);
  const ustar = text(257, 5) === 'ustar';
  const prefix = ustar ? text(345, 155) : '';
  return (prefix ? `${prefix}/${name}` : name).replace(/^(\.?\/)+/, '');
}

const entrySize = (header: Uint8Array): number => {
  const octal = Buffer.from(header.subarray(124, 136)).toString('ascii').replace(/\0.*$/s, '').trim();
  return octal === '' ? 0 : Number.parseInt(octal, 8);
};

const isLockPath = (path: string) => path === LOCK_DIR || path.startsWith(`${LOCK_DIR}/`);

/**
 * The parts of a tar archive to keep, without the data directory's lock (`.lock/…`: who held the
 * directory when the copy was made, which would make the restored one look held). An extended
 * header (pax `x`, GNU `L`/`K`) goes with the entry after it. Also says whether the archive is a
 * data directory at all (it has PG_VERSION).
 */
export function withoutLock(tar: Uint8Array): { parts: Uint8Array[]; isDataDirectory: boolean } {
  const parts: Uint8Array[] = [];
  let pending: Uint8Array[] = [];
  let isDataDirectory = false;
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = entrySize(header);
    const end = offset + BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (Number.isNaN(size) || end > tar.length) throw new Error('the archive is not a whole tar archive');
    const entry = tar.subarray(offset, end);
    const type = String.fromCharCode(header[156]!);
    const path = entryPath(header);
    offset = end;
    if (type === 'x' || type === 'L' || type === 'K') {
      pending.push(entry);
      continue;
    }
    if (path === 'PG_VERSION') isDataDirectory = true;
    if (!isLockPath(path)) parts.push(...pending, entry);
    pending = [];
  }
  parts.push(new Uint8Array(BLOCK * 2));
  return { parts, isDataDirectory };
}

/**
 * A backup of the running PGlite, gzipped as it is read. The copy is made at once (PGlite builds
 * the whole tar in memory: about 40 MB for an empty database, most of it write-ahead log, plus the
 * data); the compression runs as the stream is read.
 */
export async function backupStream(db: PGlite): Promise<Readable> {
  const tar = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
  const { parts } = withoutLock(tar);
  return Readable.from(parts, { objectMode: false }).pipe(createGzip());
}

export class RestoreError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'RestoreError';
  }
}

/** Whether `dataDir` holds a database already (PGlite would resume it). */
export const holdsDatabase = (dataDir: string): Promise<boolean> => access(join(dataDir, 'PG_VERSION')).then(() => true, () => false);

/**
 * Restores a backup (`backupStream`'s gzipped tar, or a plain tar) into `dataDir`, which must not
 * exist or be empty: no process may have it open, and nothing is overwritten. The directory is
 * locked meanwhile (db/data-dir-lock.ts), so a service started at the same moment waits for
 * nothing and finds it held. The restored database is opened once, as PGlite recovers it, and
 * `check` reads it; a restore that fails leaves the directory empty again.
 */
export async function restoreBackup<T>(dataDir: string, archive: Uint8Array, check: (db: PGlite) => Promise<T>): Promise<T> {
  await mkdir(dataDir, { recursive: true });
  const present = (await readdir(dataDir)).filter((name) => name !== LOCK_DIR);
  if (present.length > 0) throw new RestoreError(`${dataDir} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}): restore into a new, empty data directory`);
  const gzipped = archive[0] === 0x1f && archive[1] === 0x8b;
  let tar: Uint8Array;
  try {
    tar = gzipped ? await gunzipBytes(archive) : archive;
  } catch (error) {
    throw new RestoreError(`not a backup: ${(error as Error).message}`, { cause: error });
  }
  const { parts, isDataDirectory } = withoutLock(tar);
  if (!isDataDirectory) throw new RestoreError('not a backup of an embedded database: the archive has no PG_VERSION');
  const lock = await lockDataDir(dataDir);
  let db: PGlite | undefined;
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    db = await PGlite.create(dataDir, { loadDataDir: new Blob(parts as BlobPart[]) });
    return await check(db);
  } catch (error) {
    await db?.close().catch(() => {});
    db = undefined;
    for (const name of await readdir(dataDir)) if (name !== LOCK_DIR) await rm(join(dataDir, name), { recursive: true, force: true });
    throw error instanceof RestoreError ? error : new RestoreError(`the backup could not be opened: ${(error as Error).message}`, { cause: error });
  } finally {
    await db?.close();
    await lock.release();
  }
}
