import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';

/**
 * Named prepared statements for the statements a request runs again and again (the hot reads of
 * db/read-model.ts, the compiled GraphQL selections). MikroORM sends a statement with its values
 * written into its text (Platform.formatQuery), so PostgreSQL parses and plans it anew every time:
 * for a whole domain of 10 embeddings that took four times the statement's execution (2.0 ms of the
 * database's CPU against 0.4 ms prepared). A statement run here goes out with `$n` parameters under
 * a name, as PostGraphile sends its own: each pooled connection parses and plans it once (pg keeps
 * which names a connection has prepared) and then only binds and runs it.
 *
 * It goes through the EntityManager as `em.execute` does — the same connection or transaction, and
 * MikroORM's logger, which counts statements — only the query pg gets is named. Statements go out
 * as `em.execute` sends them where a name could do harm or does not fit: on a database the service
 * did not switch this on for (`prepareStatements`; never the embedded PGlite, one session that
 * every connection shares, where a second client preparing the same name would fail), past
 * MAX_PREPARED distinct statements per process (each connection keeps a plan per name for good),
 * with values other than strings, numbers, booleans and nulls (MikroORM and pg write arrays and
 * objects differently), SQL with MikroORM's `??` identifiers, and an EntityManager with an abort
 * signal or a session context (MikroORM's own paths for those).
 *
 * Behind a pooler, named statements need session pooling (PgBouncer in transaction mode: 1.21 or
 * later with `max_prepared_statements`).
 */

const MAX_PREPARED = 200;

/** Statements (with `?`) → their `$n` form and name; null: sent as they are. */
const prepared = new Map<string, { text: string; name: string } | null>();

/** The configurations (one per ORM, shared by its forks) of the databases that take prepared statements. */
const preparing = new WeakSet<object>();

/** Sends the hot statements of `orm` as prepared statements (db/orm.ts, for a PostgreSQL server). */
export function prepareStatements(orm: MikroORM): void {
  preparing.add(orm.config);
}

type Value = string | number | boolean | null;

/** What `em.execute` uses of an EntityManager and its connection (MikroORM 7), some of it protected. */
type Internals = {
  config: object;
  getContext(validate: boolean): Internals;
  getTransactionContext(): Client | undefined;
  getTransactionSessionContext(): unknown;
  getAbortOptions(): unknown;
  getConnection(type: 'write'): {
    getClient(): Client;
    executeQuery<R>(query: string, run: () => Promise<R>, context: { query: string; params: unknown[] }): Promise<R>;
  };
  /** Turns the driver's errors into MikroORM's exceptions, as `execute` does. */
  getDriver(): { rethrow<R>(promise: Promise<R>): Promise<R> };
};
type Client = { executeQuery(query: CompiledQuery): Promise<{ rows: unknown[] }> };

const isValue = (value: unknown): value is Value =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** The statement with `$n` for its `?`, or null when they are not its values one to one (or are MikroORM's `??`). */
function numbered(sql: string, values: readonly unknown[]): string | null {
  const parts = sql.split('?');
  if (sql.includes('??') || parts.length !== values.length + 1) return null;
  return parts.reduce((text, part, i) => `${text}$${i}${part}`);
}

/** The prepared form of a statement, named the first time, or null when it cannot be one. */
function preparedOf(sql: string, values: readonly unknown[]): { text: string; name: string } | null {
  let found = prepared.get(sql);
  if (found === undefined) {
    if (prepared.size >= MAX_PREPARED) return null;
    const text = numbered(sql, values);
    found = text === null ? null : { text, name: `hot_statement_${prepared.size + 1}` };
    prepared.set(sql, found);
  }
  return found;
}

/** Runs `sql` (with `?` for `values`) as `em.execute` would, as a named prepared statement where it can be one. */
export async function executePrepared<Row>(em: EntityManager, sql: string, values: readonly unknown[]): Promise<Row[]> {
  const context = (em as unknown as Internals).getContext(false);
  const statement = preparing.has(context.config) && values.every(isValue) ? preparedOf(sql, values) : null;
  // Not in a transaction: a statement the database refuses there would end the transaction with it.
  const transaction = context.getTransactionContext();
  if (!statement || transaction || context.getAbortOptions() || context.getTransactionSessionContext()) {
    return em.execute<Row[]>(sql, [...values] as Value[]);
  }
  try {
    return await runParameterised<Row>(context, sql, statement, values);
  } catch (error) {
    if (!NAMES_NOT_KEPT.test(String((error as { code?: unknown }).code ?? ''))) throw error;
    // The connections do not keep their own prepared statements: sessions shared between them
    // (the embedded PGlite behind a relay, a pooler in transaction mode). Off for this database.
    preparing.delete(context.config);
    return em.execute<Row[]>(sql, [...values] as Value[]);
  }
}

/**
 * Runs `sql` (with `?` for `values`) as `em.execute` would, its values sent as parameters of an
 * unnamed statement, where `executePrepared` would name it: planned for its values every time (a
 * statement whose best plan depends on them), but its values are not escaped into its text —
 * for a statement carrying large JSON values, that escaping was most of its cost to the service.
 */
export async function executeWithParameters<Row>(em: EntityManager, sql: string, values: readonly unknown[]): Promise<Row[]> {
  const context = (em as unknown as Internals).getContext(false);
  const text = preparing.has(context.config) && values.every(isValue) ? numbered(sql, values) : null;
  if (text === null || context.getTransactionContext() || context.getAbortOptions() || context.getTransactionSessionContext()) {
    return em.execute<Row[]>(sql, [...values] as Value[]);
  }
  return runParameterised<Row>(context, sql, { text }, values);
}

/**
 * 42P05, a statement of that name exists (another connection prepared it in the same session);
 * 26000, none of that name exists (the session is not the one it was prepared in).
 */
const NAMES_NOT_KEPT = /^(42P05|26000)$/;

function runParameterised<Row>(context: Internals, sql: string, { text, name }: { text: string; name?: string }, values: readonly unknown[]): Promise<Row[]> {
  const connection = context.getConnection('write');
  const client = connection.getClient();
  // Logged as `em.execute` logs it: the statement with `?`, and its values.
  const result = connection.executeQuery(
    sql,
    async () => {
      // Kysely hands the query text and the values to pg's query as they are: to pg, an object
      // with a name and a text is a prepared statement (without a name: an unnamed one).
      const query = (name === undefined ? { text, toString: () => text } : { name, text, toString: () => text }) as unknown as string;
      return (await client.executeQuery(CompiledQuery.raw(query, [...values]))).rows as Row[];
    },
    { query: sql, params: [...values] },
  );
  return context.getDriver().rethrow(result);
}
