import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { PGlite } from '@electric-sql/pglite';
import { type DataDirLock, lockDataDir, type LockOptions } from './data-dir-lock.ts';
import { copyTemplate, readTemplate } from './pglite-template.ts';

/** PGlite, the embedded PostgreSQL, reachable by the ordinary driver on a loopback port. */
export type EmbeddedPostgres = {
  /** postgres:// URL of the loopback socket */
  url: string;
  stop(): Promise<void>;
};

/**
 * PostgreSQL's memory settings for the embedded database, on top of PGlite's own start
 * parameters. PGlite's memory is a WebAssembly memory: it grows and never shrinks, and PostgreSQL
 * writes its whole shared memory at start, so every megabyte of buffers is a megabyte of the
 * process's resident memory from the first second on. The defaults initdb wrote are a server's
 * (shared_buffers 128 MB: 150 MB resident at start); this is one session of a single service:
 * - shared_buffers 16 MB: the pages not in it come from the operating system's page cache (a
 *   read of a few microseconds, not of the disk); a data directory in memory (`memory://`) has
 *   its files in memory anyway.
 * - maintenance_work_mem 16 MB (default 64): what one CREATE INDEX or VACUUM may take, kept by
 *   the WebAssembly memory after it ran.
 * Set on every start, so they apply to data directories made with the older settings too.
 */
export const EMBEDDED_POSTGRES_SETTINGS = ['shared_buffers=16MB', 'maintenance_work_mem=16MB'];

/**
 * The embedded database's WebAssembly code stays with V8's baseline compiler (Liftoff), without
 * tiering up hot functions to the optimising compiler (TurboFan). One of PostgreSQL's functions
 * (100 kB of WebAssembly, hot as soon as statements run) takes TurboFan over 600 MB of memory and
 * four seconds of CPU to compile, in the first minute of use, and the process keeps much of that
 * memory afterwards: 1.1 GB at its peak, 70 MB more for good. Liftoff's code takes 10–15 % more
 * CPU for the WebAssembly part of a statement. The flags apply to WebAssembly compiled after they
 * are set, so they are set before PGlite compiles its module; the rest of the process's
 * WebAssembly is Node's own and small (its TypeScript stripper, compiled before; the HTTP parser
 * of its fetch). Equivalent to starting Node with `--no-wasm-tier-up --no-wasm-dynamic-tiering`.
 */
let wasmTieringOff = false;
function keepWebAssemblyOnBaselineCompiler(): void {
  if (wasmTieringOff) return;
  setFlagsFromString('--no-wasm-tier-up');
  setFlagsFromString('--no-wasm-dynamic-tiering');
  wasmTieringOff = true;
}

/**
 * The embedded databases this process runs, by the URL of their socket (what the ORM connects to):
 * a backup made through the running service reads its PGlite here (db/embedded-backup.ts).
 */
const running = new Map<string, PGlite>();

/** The PGlite serving `url` in this process, if it is an embedded database of this process. */
export const embeddedDatabaseAt = (url: string): PGlite | undefined => running.get(url);

/**
 * Starts PGlite with its files in `dataDir` (`memory://` keeps nothing) and serves it on
 * 127.0.0.1 on a free port. PGlite is a single session that the socket server shares between
 * connections by queueing their messages; the service connects through a pool of one connection
 * (see db/orm.ts), so transactions run strictly one after another without relying on that
 * multiplexing. Other connections — the scan queue's, scan workers in other processes on this
 * machine — rely on it: while one connection's transaction is open, the socket server serves only
 * that connection.
 *
 * A data directory is opened by one process at a time: its lock (db/data-dir-lock.ts) is taken
 * before PGlite reads a file and given up after PGlite has closed them. While another process
 * holds it this throws a StartupError naming that process, having touched no database file.
 */
export async function startEmbeddedPostgres(dataDir: string, options: LockOptions = {}): Promise<EmbeddedPostgres> {
  const inMemory = dataDir.startsWith('memory://');
  let lock: DataDirLock | undefined;
  if (!inMemory) {
    await mkdir(dataDir, { recursive: true });
    lock = await lockDataDir(dataDir, options);
  }
  let db: PGlite | undefined;
  try {
    // A new database starts from the installed template instead of running initdb, when there is
    // one: copied into a directory on disk before PGlite starts (pglite-template.ts says why), else
    // (a database in memory, or no template directory) handed to PGlite as a tarball.
    const fresh = inMemory || !(await access(join(dataDir, 'PG_VERSION')).then(() => true, () => false));
    const copied = fresh && !inMemory && (await copyTemplate(dataDir));
    const template = fresh && !copied ? await readTemplate() : undefined;
    // Loaded here, not with this module: a service on a PostgreSQL server never needs them.
    const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-socket')]);
    keepWebAssemblyOnBaselineCompiler();
    db = await PGlite.create(inMemory ? 'memory://' : dataDir, {
      ...(template && { loadDataDir: template }),
      startParams: [...PGlite.defaultStartParams, ...EMBEDDED_POSTGRES_SETTINGS.flatMap((setting) => ['-c', setting])],
    });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 16 });
    await server.start();
    const [host, port] = server.getServerConn().split(':');
    const opened = db;
    const url = `postgres://postgres@${host}:${port}/postgres`;
    running.set(url, opened);
    return {
      url,
      async stop() {
        running.delete(url);
        try {
          await server.stop();
          await opened.close();
        } finally {
          await lock?.release();
        }
      },
    };
  } catch (error) {
    try {
      await db?.close();
    } finally {
      await lock?.release();
    }
    throw error;
  }
}
