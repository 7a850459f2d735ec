import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { type DataDirLock, lockDataDir, type LockOptions } from './data-dir-lock.ts';
import { readTemplate } from './pglite-template.ts';

/** PGlite, the embedded PostgreSQL, reachable by the ordinary driver on a loopback port. */
export type EmbeddedPostgres = {
  /** postgres:// URL of the loopback socket */
  url: string;
  stop(): Promise<void>;
};

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
    // A new database starts from the installed template instead of running initdb, when there is one.
    const fresh = inMemory || !(await access(join(dataDir, 'PG_VERSION')).then(() => true, () => false));
    const template = fresh ? await readTemplate() : undefined;
    db = await PGlite.create(inMemory ? 'memory://' : dataDir, template ? { loadDataDir: template } : {});
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 16 });
    await server.start();
    const [host, port] = server.getServerConn().split(':');
    const opened = db;
    return {
      url: `postgres://postgres@${host}:${port}/postgres`,
      async stop() {
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
