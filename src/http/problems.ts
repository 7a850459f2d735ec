import type { NextFunction, Request, Response } from 'express';
import { translateDatabaseError } from '../db/transaction.ts';
import { ERROR_KINDS, ServiceError } from '../kernel/errors.ts';
import { BODY_LIMIT_TEXT } from '../kernel/limits.ts';
import { type Problem, problem, PROBLEM_TYPE } from '../kernel/problem.ts';
import type { Logger } from '../logger.ts';

export function sendProblem(res: Response, body: Problem): void {
  res.status(body.status).type(PROBLEM_TYPE).send(JSON.stringify(body));
}

/** Any path no route matches. */
export function notFoundHandler(req: Request, res: Response) {
  sendProblem(res, problem(404, `no resource at ${req.method} ${req.path}`));
}

type HttpError = Error & { status?: number; type?: string };

/** Turns every error into a problem+json answer; unexpected ones are logged, not shown. */
export const problemHandler =
  (logger: Logger) => (thrown: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(thrown);
    const error = translateDatabaseError(thrown);
    if (error instanceof ServiceError) {
      if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
      return sendProblem(res, problem(ERROR_KINDS[error.kind].status, error.message, error.problems));
    }
    const httpError = error as HttpError;
    if (httpError.type === 'entity.too.large') {
      return sendProblem(res, problem(413, `the request body is larger than ${BODY_LIMIT_TEXT}`));
    }
    if (typeof httpError.status === 'number' && httpError.status >= 400 && httpError.status < 500) {
      const status = httpError.status === 415 ? 400 : httpError.status;
      return sendProblem(res, problem(status, httpError.message, status === 400 ? [{ path: '', message: httpError.message }] : undefined));
    }
    logger.error({ err: error, requestId: res.getHeader('X-Request-Id') }, 'unexpected error');
    return sendProblem(res, problem(500, 'an unexpected error occurred; it has been logged'));
  };
