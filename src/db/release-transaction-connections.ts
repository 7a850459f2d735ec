import {
  type AbortableOperationOptions,
  type CompiledQuery,
  type ControlConnectionProvider,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Works around https://github.com/kysely-org/kysely/issues/1990, present in Kysely 0.29.6 (the
 * version MikroORM 7 drives): a controlled transaction — the only kind MikroORM starts — gives its
 * pooled connection back only after a COMMIT or ROLLBACK that succeeds, and never after a BEGIN
 * that fails. When the connection is lost as one of those statements goes out (the server is
 * restarted or terminates the connection, the network drops it), the statement fails and the pool
 * counts the dead connection as in use for good. Once that has happened as many times as the pool
 * has connections, every request waits for a connection that never comes and answers 503, until
 * the process restarts.
 *
 * Here each checkout of a connection is a lease that goes back to the pool exactly once: when
 * Kysely releases it, or when BEGIN, COMMIT or ROLLBACK on it fails, whichever comes first. No
 * transaction is left open on a connection given back that way: a BEGIN that failed opened none;
 * PostgreSQL ends a transaction whose COMMIT fails, rolling it back; and a ROLLBACK fails only when
 * the connection is gone, which ends the transaction as well. `pg`'s pool drops a client that can no
 * longer be queried instead of handing it out again. Nothing more runs on a lease once it is back,
 * as the connection may belong to another request by then: the ROLLBACK that MikroORM sends after a
 * failed COMMIT has nothing left to undo and is skipped; any other statement fails.
 *
 * Installed by wrapping the driver every PostgresDialect creates (MikroORM builds its dialect
 * itself). The upstream issue linked above, kysely-org/kysely#1990 ("ControlledTransaction leaks
 * the pooled connection when beginTransaction, commitTransaction or rollbackTransaction throws"),
 * was open when this was written: drop this file and its import in src/db/orm.ts once the Kysely
 * version MikroORM drives has the fix.
 * Test: test/faults.test.ts ("a connection lost at a transaction statement").
 */

/** One checkout of a pooled connection. */
class Lease implements DatabaseConnection {
  readonly connection: DatabaseConnection;
  /** Back in the pool: nothing may run on it any more. */
  returned = false;

  constructor(connection: DatabaseConnection) {
    this.connection = connection;
  }

  open(): DatabaseConnection {
    if (this.returned) throw new Error('the database connection of this transaction went back to the pool when a transaction statement failed');
    return this.connection;
  }

  async executeQuery<R>(query: CompiledQuery, options?: AbortableOperationOptions): Promise<QueryResult<R>> {
    return this.open().executeQuery<R>(query, options);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize: number, options?: AbortableOperationOptions): AsyncIterableIterator<QueryResult<R>> {
    yield* this.open().streamQuery<R>(query, chunkSize, options);
  }

  async cancelQuery(control: ControlConnectionProvider): Promise<void> {
    if (!this.returned) await this.connection.cancelQuery?.(control);
  }

  async killSession(control: ControlConnectionProvider): Promise<void> {
    if (!this.returned) await this.connection.killSession?.(control);
  }

  async collectSessionInfo(): Promise<void> {
    await this.connection.collectSessionInfo?.();
  }
}

class LeasingDriver implements Driver {
  readonly #driver: Driver;

  constructor(driver: Driver) {
    this.#driver = driver;
  }

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.#driver.init(options);
  }

  async acquireConnection(options?: AbortableOperationOptions): Promise<Lease> {
    return new Lease(await this.#driver.acquireConnection(options));
  }

  beginTransaction(lease: Lease, settings: TransactionSettings): Promise<void> {
    return this.#givenBackIfItFails(lease, (connection) => this.#driver.beginTransaction(connection, settings));
  }

  commitTransaction(lease: Lease): Promise<void> {
    return this.#givenBackIfItFails(lease, (connection) => this.#driver.commitTransaction(connection));
  }

  async rollbackTransaction(lease: Lease): Promise<void> {
    // Back already: its COMMIT failed, which ended the transaction.
    if (lease.returned) return;
    await this.#givenBackIfItFails(lease, (connection) => this.#driver.rollbackTransaction(connection));
  }

  async savepoint(lease: Lease, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.#driver.savepoint!(lease.open(), name, compileQuery);
  }

  async rollbackToSavepoint(lease: Lease, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.#driver.rollbackToSavepoint!(lease.open(), name, compileQuery);
  }

  async releaseSavepoint(lease: Lease, name: string, compileQuery: QueryCompiler['compileQuery']): Promise<void> {
    await this.#driver.releaseSavepoint!(lease.open(), name, compileQuery);
  }

  async releaseConnection(lease: Lease, options?: AbortableOperationOptions): Promise<void> {
    if (lease.returned) return;
    lease.returned = true;
    await this.#driver.releaseConnection(lease.connection, options);
  }

  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.#driver.destroy(options);
  }

  async #givenBackIfItFails(lease: Lease, statement: (connection: DatabaseConnection) => Promise<void>): Promise<void> {
    try {
      await statement(lease.open());
    } catch (error) {
      await this.releaseConnection(lease);
      throw error;
    }
  }
}

const createDriver = PostgresDialect.prototype.createDriver;

PostgresDialect.prototype.createDriver = function createLeasingDriver(this: PostgresDialect): Driver {
  return new LeasingDriver(createDriver.call(this));
};
