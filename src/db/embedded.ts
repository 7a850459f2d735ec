import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
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
 * multiplexing.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) await mkdir(dataDir, { recursive: true });
  // A new database starts from the installed template instead of running initdb, when there is one.
  const fresh = inMemory || !(await access(join(dataDir, 'PG_VERSION')).then(() => true, () => false));
  const template = fresh ? await readTemplate() : undefined;
  const db = await PGlite.create(inMemory ? 'memory://' : dataDir, template ? { loadDataDir: template } : {});
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 4 });
  await server.start();
  const [host, port] = server.getServerConn().split(':');
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
