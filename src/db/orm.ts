import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM, type Options } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { startEmbeddedPostgres } from './embedded.ts';
import { CallbackQueryClient } from './pg-client.ts';
import { prepareStatements } from './prepared-statements.ts';
// Side effect: a transaction gives its pooled connection back even when the connection is lost
// as BEGIN, COMMIT or ROLLBACK goes out (a Kysely bug).
import './release-transaction-connections.ts';
import { migrationsList } from './migrations/index.ts';
import { type ChangeFeed, createChangeFeed } from './change-feed.ts';
import { countingLogger, type StatementCounter } from './statements.ts';
import { SESSION_OPTIONS } from './session-options.ts';
import { migrateSerially } from './migrate-serially.ts';

export type Database = {
  orm: MikroORM;
  /** What the service runs on, for the start-up log line (never contains a password). */
  description: string;
  /**
   * Where other connections reach the same database (the job queue's, a worker process's): the
   * PostgreSQL server, or the embedded database's loopback socket.
   */
  url: string;
  /** Whether it is the embedded PGlite (one session shared by every connection). */
  embedded: boolean;
  /** SQL statements sent so far. */
  statements: StatementCounter;
  /** Which domains' published configurations changed, in any process (db/change-feed.ts). */
  changes: ChangeFeed;
  /** The driver's connection pool (its figures go to the metrics). */
  pool(): Promise<{ totalCount: number; idleCount: number; waitingCount: number }>;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** A PostgreSQL server; unset: embedded PGlite in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  poolSize: number;
  /** Apply pending migrations before returning (the default). */
  migrate?: boolean;
  /** How often the dedicated listening connection is checked (PostgreSQL servers; default 10 s, change-feed.ts). */
  listenHeartbeatMs?: number;
  /** Every stored entity (src/features/index.ts lists them). */
  entities: readonly unknown[];
};

export function ormConfig(
  clientUrl: string,
  poolSize: number,
  entities: readonly unknown[],
  statements: StatementCounter = { total: 0 },
  onPoolCreated?: (pool: Pool) => void,
): Options {
  const CountingLogger = countingLogger(statements);
  return defineConfig({
    clientUrl,
    entities: [...entities] as Options['entities'],
    extensions: [Migrator],
    migrations: { migrationsList, snapshot: false, silent: true, allOrNothing: true, transactional: true },
    pool: { min: 0, max: poolSize },
    // A database that does not answer fails the request in seconds (503) instead of hanging it.
    // Client: pg's client with callback queries under the promise, for the garbage collector (pg-client.ts).
    driverOptions: {
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      Client: CallbackQueryClient,
      options: SESSION_OPTIONS,
      ...(onPoolCreated && { onPoolCreated }),
    },
    ensureDatabase: false,
    // The triggers that announce changes of published configurations are hand-written in their
    // migration (Migration20261123200000_banner), not mirrored in the entities.
    // Written and read in SQL: the consent records, partitioned by month (Migration20261123210000_consent_records),
    // and the configuration revisions with their parts (Migration20261123230000_revisions), and the revisions due
    // (Migration20261126130000_revision_due).
    schemaGenerator: {
      ignoreTriggers: true,
      ignoreRoutines: true,
      skipTables: ['consent_record', /^consent_record_/, 'configuration_revision', 'configuration_part', 'revision_due'],
      // The job queue's own tables (pg-boss, Migration20261124180000_scan_jobs).
      ignoreSchema: ['job_queue'],
    },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    // One insert statement for a whole bulk write (array payloads hold at most 1,000 items).
    batchSize: 1000,
    debug: false,
    loggerFactory: (options) => new CountingLogger(options),
  });
}

/** Opens the database the settings name, migrated to the current schema. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const embedded = options.databaseUrl ? undefined : await startEmbeddedPostgres(options.dataDir);
  const clientUrl = options.databaseUrl ?? embedded!.url;
  try {
    const statements: StatementCounter = { total: 0 };
    const changes = createChangeFeed({ heartbeatMs: options.listenHeartbeatMs });
    const orm = await MikroORM.init(
      ormConfig(clientUrl, embedded ? 1 : options.poolSize, options.entities, statements, (pool) => changes.attachToPool(pool)),
    );
    try {
      if (options.migrate !== false) await migrateSerially(orm, embedded ? undefined : clientUrl);
      // The embedded database is one session, which the pool's connections already listen on,
      // and where two connections preparing one statement name would meet.
      if (!embedded) {
        await changes.listenOn(clientUrl);
        prepareStatements(orm);
      }
    } catch (error) {
      await changes.close();
      await orm.close(true);
      throw error;
    }
    return {
      changes,
      orm,
      description: embedded ? `embedded PGlite (${options.dataDir})` : `PostgreSQL ${redactDatabaseUrl(clientUrl)}`,
      url: clientUrl,
      embedded: embedded !== undefined,
      statements,
      pool: () => orm.em.getConnection().getNativeClient(),
      async close() {
        await changes.close();
        await orm.close(true);
        await embedded?.stop();
      },
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}

/** A database URL with its password (and any password-like parameter) as ***, for logs and messages. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) if (/pass|secret|key/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/]*@/, '//***@');
  }
}
