import { type DocumentNode, getOperationAST, GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { translateDatabaseError } from '../db/transaction.ts';
import { ERROR_KINDS, ServiceError } from '../kernel/errors.ts';
import type { Logger } from '../logger.ts';

const originalOf = (error: unknown): unknown =>
  error instanceof GraphQLError && error.originalError ? originalOf(error.originalError) : error;

/** graphql-js's "Did you mean …?" hints, which tell a stranger the schema's names. */
const SUGGESTION = / Did you mean [^?]*\?/g;

/** What an error is: its code, and whether it is expected (a bad request, a refusal) or a failure of the service. */
export type ErrorVerdict = { original: unknown; code: string; expected: boolean };

/**
 * Service errors (every kind: bad input, not found, conflict, …) and GraphQL's own errors
 * (syntax, validation, limits, variables, arguments, CSRF) are expected: the request's fault, or
 * a refusal. Anything else is a failure of the service, INTERNAL: an error a resolver threw, or
 * one the executor raised because a resolver's result broke the schema (isResultFailure).
 */
export function classifyError(error: unknown, uncoded?: string): ErrorVerdict {
  const original = translateDatabaseError(originalOf(error));
  if (original instanceof ServiceError) return { original, code: ERROR_KINDS[original.kind].code, expected: true };
  if (original instanceof GraphQLError && !isResultFailure(original)) {
    const given = original.extensions ?? {};
    const status = (given.http as { status?: number } | undefined)?.status ?? 400;
    const code = typeof given.code === 'string' ? given.code : (uncoded ?? (status === 403 ? 'FORBIDDEN' : 'BAD_USER_INPUT'));
    return { original, code, expected: true };
  }
  return { original, code: 'INTERNAL', expected: false };
}

/**
 * An error the executor raised at a field of the result, of its own (no code, no cause) and not
 * about the field's arguments: null for a non-null field, no list where one is due, an abstract
 * type left unresolved. The resolvers broke the schema's promise; the request did nothing wrong.
 */
function isResultFailure(error: GraphQLError): boolean {
  return error.path !== undefined && error.originalError == null && error.extensions?.code === undefined && !/^(Argument|Variable) "/.test(error.message);
}

const MAX_LOGGED_NAME = 100;
const MAX_LOGGED_MESSAGE = 300;

/**
 * An unexpected error as it is logged: its type and stack, the message line cut short (a message
 * may quote a value), and none of its other properties (a database error carries its statement
 * and parameters).
 */
function loggedError(error: unknown): { type: string; stack?: string } {
  if (!(error instanceof Error)) return { type: typeof error };
  const stack = error.stack ?? `${error.name}: ${error.message}`;
  const frames = stack.indexOf('\n    at ');
  const head = frames < 0 ? stack : stack.slice(0, frames);
  const cut = head.length > MAX_LOGGED_MESSAGE ? `${head.slice(0, MAX_LOGGED_MESSAGE)}…` : head;
  return { type: error.name, stack: frames < 0 ? cut : cut + stack.slice(frames) };
}

/** Where a report comes from: the operation's name; the code of an error not coded yet; whether the mask will see the error next. */
export type ReportOptions = { operation?: string; uncoded?: string; beforeMask?: boolean };

/**
 * Logs a GraphQL error: an unexpected one at error with the operation's name, the code and the
 * stack; an expected one at debug with the name and the code. Never variables, documents or
 * argument values, which is what error messages are made of. An error of an operation's result
 * is reported with its operation's name before the mask sees it, and not again by the mask.
 */
export function createErrorReporter(logger: Logger) {
  const awaitingMask = new WeakSet<object>();
  return (error: unknown, { operation, uncoded, beforeMask = false }: ReportOptions = {}): ErrorVerdict => {
    const verdict = classifyError(error, uncoded);
    const { original } = verdict;
    const trackable = typeof original === 'object' && original !== null;
    if (trackable && awaitingMask.has(original)) {
      awaitingMask.delete(original);
      return verdict;
    }
    if (trackable && beforeMask) awaitingMask.add(original);
    const name = operation && operation.length > MAX_LOGGED_NAME ? `${operation.slice(0, MAX_LOGGED_NAME)}…` : operation;
    if (verdict.expected) logger.debug({ operation: name, code: verdict.code }, 'GraphQL request refused');
    else logger.error({ operation: name, code: verdict.code, err: loggedError(original) }, 'unexpected error in a GraphQL operation');
    return verdict;
  };
}

export type ErrorReporter = ReturnType<typeof createErrorReporter>;

/** The name of the operation a document and an operation name select, for the log. */
function operationNameOf(document: DocumentNode | undefined, operationName: string | null | undefined): string {
  const operation = document ? getOperationAST(document, operationName) : undefined;
  return operation?.name?.value ?? operationName ?? 'anonymous';
}

/**
 * Reports the errors of every operation with its name, before the mask replaces them: errors in
 * results (an execution's) and refused documents (a validation's).
 */
export const errorLogging = (report: ErrorReporter): Plugin => ({
  onValidate({ params, context }) {
    return ({ valid, result }) => {
      if (valid) return;
      const operationName = (context as { params?: { operationName?: string | null } }).params?.operationName;
      const operation = operationNameOf(params.documentAST, operationName);
      // Yoga codes them after this hook has run.
      for (const error of result) report(error, { operation, uncoded: 'GRAPHQL_VALIDATION_FAILED' });
    };
  },
  onExecute({ args }) {
    const operation = operationNameOf(args.document, args.operationName);
    return {
      onExecuteDone({ result }) {
        if (isAsyncIterable(result)) return;
        for (const error of result.errors ?? []) report(error, { operation, beforeMask: true });
      },
    };
  },
});

/**
 * Request errors (syntax, validation, limits, variables) carry their HTTP status, which Yoga
 * drops for clients accepting `application/json` (`extensions.http.spec`: it answers 200 there,
 * as the GraphQL-over-HTTP spec allows). They are 400 for every client, as the README says.
 */
export const requestErrorStatus: Plugin = {
  onResultProcess({ result }) {
    for (const single of Array.isArray(result) ? result : [result]) {
      if (isAsyncIterable(single)) continue;
      for (const error of single.errors ?? []) {
        const http = error.extensions?.http;
        if (http?.spec) http.spec = false;
      }
    }
  },
};

/**
 * Yoga's logger. Yoga logs, at error, every error the mask replaces — the error as it came, with
 * its message, and messages quote variables and documents (one bad 2 MB variable made a 4 MB
 * line). Those are logged by createErrorReporter instead; what Yoga says in words (progress
 * notes) is passed on, its debug notes at trace.
 */
export function yogaLogger(logger: Logger) {
  const words = (level: 'trace' | 'info' | 'warn' | 'error') => (...args: unknown[]) => {
    if (args.length > 0 && args.every((arg) => typeof arg === 'string')) logger[level](`yoga: ${args.join(' ')}`);
  };
  return { debug: words('trace'), info: words('info'), warn: words('warn'), error: words('error') };
}

/**
 * Yoga's error mask: service errors keep their message and gain their code (and, for bad
 * input, the same `errors` list the REST layer sends); GraphQL's own errors (syntax, unknown
 * field) pass as they are, without suggestions outside development; anything else is an
 * unexpected failure whose details stay in the log. Errors the mask sees that no operation
 * reported (refused requests, failures before execution) are reported here.
 */
export function createMaskError(report: ErrorReporter, { suggestFields }: { suggestFields: boolean }) {
  return (error: unknown, unexpectedMessage: string): GraphQLError => {
    const { original, code, expected } = report(error);
    const located = error instanceof GraphQLError ? error : undefined;
    const options = { nodes: located?.nodes, source: located?.source, positions: located?.positions, path: located?.path };
    if (original instanceof ServiceError) {
      const extensions: Record<string, unknown> = { code };
      if (original.problems.length > 0) extensions.errors = original.problems;
      if (original.retryAfterSeconds !== undefined) {
        extensions.retryAfterSeconds = original.retryAfterSeconds;
        // "Come back later" is the HTTP answer too (Yoga takes the status from here), as on REST.
        extensions.http = { status: ERROR_KINDS[original.kind].status, headers: { 'Retry-After': String(original.retryAfterSeconds) } };
      }
      return new GraphQLError(original.message, { ...options, extensions });
    }
    if (expected && original instanceof GraphQLError) {
      // GraphQL's own errors without a code are about the request: its variables or arguments
      // (400), or, when a plugin said so, something it may not do (403: CSRF prevention).
      // (graphql-jit's errors may come without an extensions object at all.)
      const given = original.extensions ?? {};
      const status = (given.http as { status?: number } | undefined)?.status ?? 400;
      const extensions = given.code ? given : { ...given, code, http: { status } };
      const message = suggestFields ? original.message : original.message.replace(SUGGESTION, '');
      if (message === original.message && extensions === original.extensions) return original;
      return new GraphQLError(message, { ...options, extensions });
    }
    return new GraphQLError(unexpectedMessage, { ...options, extensions: { code: 'INTERNAL' } });
  };
}
