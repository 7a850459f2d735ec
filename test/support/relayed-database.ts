import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { freshTestDatabase } from './database.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

export type RelayedDatabase = {
  /** Where a client connects: the relay. */
  url: string;
  /** The database itself, past the relay, on a PostgreSQL server (DATABASE_URL); unset on PGlite. */
  serverUrl: string | undefined;
  proxy: TcpProxy;
  close(): Promise<void>;
};

/**
 * A test file's database (freshTestDatabase) reached through a relay the test can cut or make
 * misbehave: the PostgreSQL server when DATABASE_URL is set, else an embedded PGlite served on loopback.
 */
export async function relayedTestDatabase(): Promise<RelayedDatabase> {
  const fresh = await freshTestDatabase();
  const embedded = fresh.databaseUrl ? undefined : await startEmbeddedPostgres('memory://');
  const target = new URL(fresh.databaseUrl ?? embedded!.url);
  const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(target);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  return {
    url: viaProxy.toString(),
    serverUrl: fresh.databaseUrl,
    proxy,
    close: async () => {
      await proxy.close();
      await embedded?.stop();
      await fresh.drop();
    },
  };
}
