import { PostgresDriver } from 'kysely';
import { isConnectionFailure } from './transaction.ts';

/**
 * Works around a leak in Kysely 0.29 (under MikroORM 7): a controlled transaction gives its
 * connection back to the pool only after `rollback` succeeds. When the database connection died
 * in the middle of the transaction, the rollback fails too, the pool keeps counting the dead
 * client as in use, and once that happened pool-size times no request gets a connection again.
 *
 * A rollback on a dead connection has nothing to undo (the server ends the transaction when the
 * connection goes), so here it counts as done: Kysely then releases the client, and the pool,
 * seeing it can no longer be queried, drops it. Test: test/faults.test.ts.
 */
const rollback = PostgresDriver.prototype.rollbackTransaction;

PostgresDriver.prototype.rollbackTransaction = async function rollbackUnlessDead(this: PostgresDriver, connection) {
  try {
    await rollback.call(this, connection);
  } catch (error) {
    if (!isConnectionFailure(error) && !/not queryable/i.test(String((error as Error).message))) throw error;
  }
};
