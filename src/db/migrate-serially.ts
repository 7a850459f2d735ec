import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { SESSION_OPTIONS } from './session-options.ts';

type Applied = Awaited<ReturnType<MikroORM['migrator']['up']>>;

/**
 * The advisory lock that migrating processes take on a PostgreSQL server: a number of this
 * service's own ("migr"), in the lock space of its database.
 */
export const MIGRATION_LOCK = 0x6d696772;

/**
 * Applies the pending migrations, one process at a time. Replicas started together on a new
 * database all found every migration pending and ran them side by side; all but the first then
 * failed on the catalog's duplicate keys (issue 37). On a PostgreSQL server (`serverUrl`) the
 * session-level advisory lock MIGRATION_LOCK is held on a connection of its own while migrating:
 * a process that waited for it finds the migrations applied and applies nothing. The embedded
 * PGlite (`serverUrl` undefined) is one process's anyway (its data directory's lock).
 * Test: test/migration-race.test.ts.
 */
export async function migrateSerially(orm: MikroORM, serverUrl: string | undefined): Promise<Applied> {
  if (serverUrl === undefined) return orm.migrator.up();
  const lock = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000, options: SESSION_OPTIONS, application_name: 'consent-config migrations' });
  lock.on('error', () => {});
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    // A lost lock connection ends its session, and the lock with it: the migrations' own
    // transaction still applies them all or none.
    return await orm.migrator.up();
  } finally {
    // Ending the session gives the lock up too; the unlock says so first where it can.
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await lock.end().catch(() => {});
  }
}
