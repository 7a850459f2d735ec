import {
  ConnectionException,
  DeadlockException,
  DriverException,
  ForeignKeyConstraintViolationException,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, notFound, ServiceError } from '../errors.ts';

type Messages = {
  /** What a unique-constraint violation means for this write, e.g. "a placeholder with this name exists". */
  duplicate?: string;
};

/** Attempts of a transaction PostgreSQL broke off to resolve a deadlock or a serialization conflict. */
const ATTEMPTS = 3;

/** PostgreSQL gave up on the transaction to let a concurrent one go on; running it again is safe. */
const isRetryable = (error: unknown) =>
  error instanceof DeadlockException || /^(40P01|40001)$/.test(String((error as { code?: unknown }).code ?? ''));

/**
 * Runs `work` in one transaction on a fork of the request's EntityManager and commits it,
 * or rolls everything back (and runs it again, a few times, when the database broke it off
 * over a deadlock; past that: 503, try again). Database refusals become service errors with a kind.
 */
export async function inTransaction<T>(
  em: EntityManager,
  work: (em: EntityManager) => Promise<T>,
  messages: Messages = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await em.transactional(work);
    } catch (error) {
      if (attempt < ATTEMPTS && isRetryable(error)) continue;
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
  if (isRetryable(error)) return new ServiceError('unavailable', 'concurrent changes kept the database from completing this one; try again', [], 1);
  if (isConnectionFailure(error)) {
    return new ServiceError('unavailable', 'the database is not reachable; try again shortly', [], 5);
  }
  return error;
}

const CONNECTION_MESSAGES =
  /connection terminated|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|timeout exceeded when trying to connect|terminating connection|Connection ended|not queryable|cannot connect/i;

/**
 * Whether the database could not be reached or dropped the connection: MikroORM reports some
 * of these as ConnectionException, others as a plain DriverException carrying the driver's
 * message, or SQLSTATE class 08 (connection exception) / 57P0x (server shutting down).
 */
export function isConnectionFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof ConnectionException) return true;
    const code = String((current as { code?: unknown; sqlState?: unknown }).code ?? (current as { sqlState?: unknown }).sqlState ?? '');
    if (/^08|^57P0[1-3]$|^E(CONNREFUSED|CONNRESET|TIMEDOUT|PIPE)$/.test(code)) return true;
    if ((current instanceof DriverException || depth > 0) && CONNECTION_MESSAGES.test(current.message)) return true;
  }
  return false;
}
