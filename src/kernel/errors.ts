/**
 * Errors are values with a kind. Operations throw them; the front doors turn the kind into an
 * HTTP status (REST, and the status of a GraphQL answer) or a GraphQL error code, both from
 * ERROR_KINDS below.
 */

/** Every kind of error, with its HTTP status and GraphQL `extensions.code` (SERVICE.md §3, §4). */
export const ERROR_KINDS = {
  validation: { status: 400, code: 'BAD_USER_INPUT' },
  unauthenticated: { status: 401, code: 'UNAUTHENTICATED' },
  forbidden: { status: 403, code: 'FORBIDDEN' },
  not_found: { status: 404, code: 'NOT_FOUND' },
  conflict: { status: 409, code: 'CONFLICT' },
  rate_limited: { status: 429, code: 'RATE_LIMITED' },
  upstream: { status: 500, code: 'UPSTREAM_FAILURE' },
  unavailable: { status: 503, code: 'SERVICE_UNAVAILABLE' },
} as const satisfies Record<string, { status: number; code: string }>;

export type ErrorKind = keyof typeof ERROR_KINDS;

/** One problem with a payload: a JSON pointer into it and what is wrong there. */
export type FieldProblem = { path: string; message: string };

export class ServiceError extends Error {
  readonly kind: ErrorKind;
  readonly problems: FieldProblem[];
  /** For `rate_limited` and `unavailable`: when trying again makes sense. */
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: ErrorKind, message: string, problems: FieldProblem[] = [], retryAfterSeconds?: number) {
    super(message);
    this.name = 'ServiceError';
    this.kind = kind;
    this.problems = problems;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const invalid = (message: string, problems: FieldProblem[] = []) =>
  new ServiceError('validation', message, problems);

export const notFound = (what: string) => new ServiceError('not_found', `${what} not found`);

/** The caller may reach the object but not do this to it (a client key on its own account). */
export const forbidden = (message: string) => new ServiceError('forbidden', message);

export const conflict = (message: string, problems: FieldProblem[] = []) =>
  new ServiceError('conflict', message, problems);

export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new ServiceError('rate_limited', message, [], retryAfterSeconds);

/** A service the operation depends on failed (the scanner could not crawl the site). */
export const upstreamFailure = (message: string) => new ServiceError('upstream', message);

/** The database cannot complete the operation now; `retryAfterSeconds` says when to try again. */
export const unavailable = (message: string, retryAfterSeconds: number) =>
  new ServiceError('unavailable', message, [], retryAfterSeconds);
