import {
  ConnectionException,
  ForeignKeyConstraintViolationException,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, notFound, ServiceError } from '../errors.ts';

type Messages = {
  /** What a unique-constraint violation means for this write, e.g. "a placeholder with this name exists". */
  duplicate?: string;
};

/**
 * Runs `work` in one transaction on a fork of the request's EntityManager and commits it,
 * or rolls everything back. Database refusals become service errors with a kind.
 */
export async function inTransaction<T>(
  em: EntityManager,
  work: (em: EntityManager) => Promise<T>,
  messages: Messages = {},
): Promise<T> {
  try {
    return await em.transactional(work);
  } catch (error) {
    throw translateDatabaseError(error, messages);
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
  if (error instanceof ConnectionException) {
    return new ServiceError('unavailable', 'the database is not reachable; try again shortly');
  }
  return error;
}
