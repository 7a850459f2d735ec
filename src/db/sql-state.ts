import { DeadlockException } from '@mikro-orm/core';

/**
 * Reading what PostgreSQL said went wrong: the SQLSTATE of an error, whether MikroORM wrapped it
 * (`code`, or its cause's) or the driver threw it as it came (`code`, PGlite's `sqlState`).
 */

export const SERIALIZATION_FAILURE = '40001';
export const DEADLOCK_DETECTED = '40P01';
export const UNIQUE_VIOLATION = '23505';

/** The SQLSTATE of the error or of one of its causes; undefined when none carries one. */
export function sqlStateOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const { code, sqlState } = current as { code?: unknown; sqlState?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    if (typeof sqlState === 'string') return sqlState;
  }
  return undefined;
}

/** PostgreSQL gave up on the statement or transaction to let a concurrent one go on: running it again is safe. */
export function isBrokenOffForAnother(error: unknown): boolean {
  if (error instanceof DeadlockException) return true;
  const state = sqlStateOf(error);
  return state === SERIALIZATION_FAILURE || state === DEADLOCK_DETECTED;
}
