/**
 * Errors are values with a kind. Operations throw them; the two edges (REST adapter,
 * GraphQL) turn the kind into an HTTP status or a GraphQL error code.
 */
export type ErrorKind =
  | 'validation'
  | 'not_found'
  | 'forbidden'
  | 'conflict'
  | 'unauthenticated'
  | 'upstream'
  | 'unavailable'
  | 'rate_limited';

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

export const isServiceError = (error: unknown): error is ServiceError => error instanceof ServiceError;
