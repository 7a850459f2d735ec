import { GraphQLError } from 'graphql';
import { HTTP_STATUS } from '../../rest-adapter/problem.ts';
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

/** graphql-js's "Did you mean …?" hints, which tell a stranger the schema's names. */
const SUGGESTION = / Did you mean [^?]*\?/g;

/**
 * Yoga's error mask: service errors keep their message and gain their code (and, for bad
 * input, the same `errors` list the REST layer sends); GraphQL's own errors (syntax, unknown
 * field) pass as they are, without suggestions outside development; anything else is an
 * unexpected failure whose details stay in the log.
 */
export function createMaskError(logger: Logger, { suggestFields }: { suggestFields: boolean }) {
  return (error: unknown, unexpectedMessage: string): GraphQLError => {
    const original = translateDatabaseError(originalOf(error));
    const located = error instanceof GraphQLError ? error : undefined;
    const options = { nodes: located?.nodes, source: located?.source, positions: located?.positions, path: located?.path };
    if (original instanceof ServiceError) {
      const extensions: Record<string, unknown> = { code: GRAPHQL_ERROR_CODES[original.kind] };
      if (original.problems.length > 0) extensions.errors = original.problems;
      if (original.retryAfterSeconds !== undefined) {
        extensions.retryAfterSeconds = original.retryAfterSeconds;
        // "Come back later" is the HTTP answer too (Yoga takes the status from here), as on REST.
        extensions.http = { status: HTTP_STATUS[original.kind], headers: { 'Retry-After': String(original.retryAfterSeconds) } };
      }
      return new GraphQLError(original.message, { ...options, extensions });
    }
    if (original instanceof GraphQLError) {
      // GraphQL's own errors without a code are about the request: its variables or arguments
      // (400), or, when a plugin said so, something it may not do (403: CSRF prevention).
      // (graphql-jit's errors may come without an extensions object at all.)
      const given = original.extensions ?? {};
      const status = (given.http as { status?: number } | undefined)?.status ?? 400;
      const extensions = given.code ? given : { ...given, code: status === 403 ? 'FORBIDDEN' : 'BAD_USER_INPUT', http: { status } };
      const message = suggestFields ? original.message : original.message.replace(SUGGESTION, '');
      if (message === original.message && extensions === original.extensions) return original;
      return new GraphQLError(message, { ...options, extensions });
    }
    logger.error({ err: original, path: located?.path }, 'unexpected error in a GraphQL operation');
    return new GraphQLError(unexpectedMessage, { ...options, extensions: { code: 'INTERNAL' } });
  };
}
