import { GraphQLError } from 'graphql';
import { translateDatabaseError } from '../db/transaction.ts';
import { type ErrorKind, ServiceError } from '../errors.ts';
import type { Logger } from '../logger.ts';

/** Error kinds → `extensions.code` (SERVICE.md §4). */
export const GRAPHQL_ERROR_CODES: Record<ErrorKind, string> = {
  validation: 'BAD_USER_INPUT',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  unauthenticated: 'UNAUTHENTICATED',
  upstream: 'UPSTREAM_FAILURE',
  unavailable: 'SERVICE_UNAVAILABLE',
  rate_limited: 'RATE_LIMITED',
};

const originalOf = (error: unknown): unknown =>
  error instanceof GraphQLError && error.originalError ? originalOf(error.originalError) : error;

/**
 * Yoga's error mask: service errors keep their message and gain their code (and, for bad
 * input, the same `errors` list the REST layer sends); GraphQL's own errors (syntax, unknown
 * field) pass as they are; anything else is an unexpected failure whose details stay in the log.
 */
export const createMaskError = (logger: Logger) => (error: unknown, unexpectedMessage: string): GraphQLError => {
  const original = translateDatabaseError(originalOf(error));
  const located = error instanceof GraphQLError ? error : undefined;
  const options = { nodes: located?.nodes, source: located?.source, positions: located?.positions, path: located?.path };
  if (original instanceof ServiceError) {
    const extensions: Record<string, unknown> = { code: GRAPHQL_ERROR_CODES[original.kind] };
    if (original.problems.length > 0) extensions.errors = original.problems;
    if (original.retryAfterSeconds !== undefined) extensions.retryAfterSeconds = original.retryAfterSeconds;
    return new GraphQLError(original.message, { ...options, extensions });
  }
  if (original instanceof GraphQLError) return original;
  logger.error({ err: original, path: located?.path }, 'unexpected error in a GraphQL operation');
  return new GraphQLError(unexpectedMessage, { ...options, extensions: { code: 'INTERNAL' } });
};
