import { type Database, type DatabaseOptions, openDatabase } from '../db/orm.ts';
import { entities } from '../features/index.ts';
import { createMetrics, type Metrics } from '../http/metrics.ts';

/** The service's database: every feature's entities, migrated unless told otherwise. */
export const openServiceDatabase = (options: Omit<DatabaseOptions, 'entities'>): Promise<Database> =>
  openDatabase({ ...options, entities });

/** The metrics of a service on `database`: its statement counter and its connection pool's figures. */
export async function metricsOf(database: Database): Promise<Metrics> {
  const pool = await database.pool();
  return createMetrics(database.statements, () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
}
