import {
  ConnectionException,
  DriverException,
  ForeignKeyConstraintViolationException,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../kernel/context.ts';
import { conflict, notFound, ServiceError, unavailable } from '../kernel/errors.ts';
import { isBrokenOffForAnother } from './sql-state.ts';

declare module '../kernel/context.ts' {
  interface AppServices {
    /**
     * Joins every write transaction (not a nested one): `begun` before its work, `committing` once
     * the work is flushed, before COMMIT (the revisions feature locks the domains the request
     * reached, then notes each domain whose configuration changed as due for a revision, and
     * answers their ids), `committed` after the COMMIT with those ids (the revisions feature
     * has their revisions recorded, off the domains' locks, and resolves once a round has read
     * what it records, before it stores it). A hot write that commits a single statement of its
     * own calls `committed` itself.
     */
    writeTransactions: {
      begun(em: EntityManager, ctx: RequestContext): Promise<void>;
      committing(em: EntityManager, ctx: RequestContext): Promise<string[]>;
      committed(ctx: RequestContext, domainIds: readonly string[]): Promise<void>;
    };
  }
}

type Messages = {
  /** What a unique-constraint violation means for this write, e.g. "a placeholder with this name exists". */
  duplicate?: string;
};

/** Attempts of a transaction PostgreSQL broke off to resolve a deadlock or a serialization conflict. */
const ATTEMPTS = 3;

/**
 * Runs `work` in one transaction on a fork of the request's EntityManager and commits it,
 * or rolls everything back (and runs it again, a few times, when the database broke it off
 * over a deadlock; past that: 503, try again). Database refusals become service errors with a kind.
 * The service's `writeTransactions` join it, before the work and before the commit; a transaction
 * nested in one of the request's (an operation that calls others) leaves that to the outer one.
 */
export async function inTransaction<T>(
  ctx: RequestContext,
  work: (em: EntityManager) => Promise<T>,
  messages: Messages = {},
): Promise<T> {
  const nested = ctx.em.isInTransaction();
  for (let attempt = 1; ; attempt++) {
    let changed: string[] = [];
    try {
      const result = await ctx.em.transactional(async (em) => {
        if (!nested) await ctx.services.writeTransactions.begun(em, ctx);
        const result = await work(em);
        if (!nested) {
          await em.flush();
          changed = await ctx.services.writeTransactions.committing(em, ctx);
        }
        return result;
      });
      // Committed: answered once the changed domains' revision rounds have read what they record.
      if (!nested && changed.length > 0) await ctx.services.writeTransactions.committed(ctx, changed);
      return result;
    } catch (error) {
      if (attempt < ATTEMPTS && isBrokenOffForAnother(error) && !nested) continue;
      throw translateDatabaseError(error, messages);
    }
  }
}

export function translateDatabaseError(error: unknown, messages: Messages = {}): unknown {
  if (error instanceof ServiceError) return error;
  if (error instanceof UniqueConstraintViolationException) {
    return conflict(messages.duplicate ?? 'the object conflicts with one that exists');
  }
  if (error instanceof ForeignKeyConstraintViolationException) {
    // The parent vanished between the check and the write (a concurrent delete).
    return notFound('parent object');
  }
  if (isBrokenOffForAnother(error)) return unavailable('concurrent changes kept the database from completing this one; try again', 1);
  if (isConnectionFailure(error)) {
    return unavailable('the database is not reachable; try again shortly', 5);
  }
  return error;
}

/**
 * SQLSTATE class 08 (connection exception); 57P01–57P05, the server ending the session (terminated
 * by an administrator, shutting down, not accepting connections yet, database dropped, idle-session
 * timeout); 25P03, the idle-in-transaction timeout, which ends the session too; socket errors.
 */
const CONNECTION_CODES = /^08|^57P0[1-5]$|^25P03$|^E(CONNREFUSED|CONNRESET|TIMEDOUT|PIPE)$/;

/** In the driver's message of a DriverException (or of an error's cause). */
const CONNECTION_MESSAGES =
  /connection terminated|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|timeout exceeded when trying to connect|terminating connection|Connection ended|not queryable|cannot connect/i;

/**
 * What `pg` and `pg-pool` throw as plain errors, which reach the edges unwrapped when they come
 * from BEGIN, COMMIT or ROLLBACK or from getting a connection for a transaction (MikroORM wraps
 * only the errors of the statements it runs itself). Matched whole: nothing else says exactly this.
 */
const DRIVER_CONNECTION_ERRORS = new Set([
  // The socket closed under a query (the server or the network dropped the connection), or the client was being ended.
  'Connection terminated unexpectedly',
  'Connection terminated',
  // A statement sent on a client whose connection is already gone.
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  // No connection within connectionTimeoutMillis: none came free, or making one took too long.
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'timeout expired',
  // The pool is closing (the service is shutting down).
  'Cannot use a pool after calling end on the pool',
]);

/**
 * Whether the database could not be reached or dropped the connection: MikroORM reports some
 * of these as ConnectionException, others as a plain DriverException carrying the driver's
 * message, or with the SQLSTATE or socket error code; and the errors of transaction statements
 * come as the driver threw them. Walks the chain of causes.
 */
function isConnectionFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof ConnectionException) return true;
    const code = String((current as { code?: unknown; sqlState?: unknown }).code ?? (current as { sqlState?: unknown }).sqlState ?? '');
    if (CONNECTION_CODES.test(code)) return true;
    if (DRIVER_CONNECTION_ERRORS.has(current.message)) return true;
    if ((current instanceof DriverException || depth > 0) && CONNECTION_MESSAGES.test(current.message)) return true;
  }
  return false;
}
