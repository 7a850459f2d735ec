import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { invalidPayload, parsePayload } from '../src/contract/validate.ts';
import { translateDatabaseError } from '../src/db/transaction.ts';
import { ServiceError } from '../src/errors.ts';
import { contextOf } from '../src/http/request-context.ts';
import type { Logger } from '../src/logger.ts';
import { HTTP_STATUS, problem, sendProblem } from './problem.ts';
import { type RestRoute, restRoutes } from './routes.ts';

/** Request bodies above this are refused with 413 (SERVICE.md §3). */
export const BODY_LIMIT = '2mb';

/** Reads any request body as text, whatever content type it claims (JSON is parsed below). */
const readBody = express.text({ limit: BODY_LIMIT, type: () => true });

/** The body as JSON; an empty body or one that is not JSON is a 400, never an empty update. */
function jsonBody(text: unknown): unknown {
  if (typeof text !== 'string' || text === '') {
    throw invalidPayload([{ path: '', message: 'a JSON body is required' }]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalidPayload([{ path: '', message: 'is not valid JSON' }]);
  }
}

/** parse → call → present: the adapter does nothing else. */
const handlerFor = (row: RestRoute) => async (req: Request, res: Response) => {
  const body = row.body ? parsePayload(row.body, jsonBody(req.body)) : undefined;
  const result = await row.operation(contextOf(req), req.params as Record<string, string>, body);
  if (row.status === 204) res.status(204).end();
  else res.status(row.status).json(result);
};

/** Walks the route table: one Express route per row, and 405 with `Allow` for other methods. */
export function createRestRouter(routes: RestRoute[] = restRoutes): Router {
  const router = Router({ caseSensitive: true, strict: false });
  const methodsByPath = new Map<string, Set<string>>();
  for (const row of routes) {
    const handlers = row.body ? [readBody, handlerFor(row)] : [handlerFor(row)];
    router[row.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](row.path, ...handlers);
    const methods = methodsByPath.get(row.path) ?? new Set<string>();
    methods.add(row.method);
    if (row.method === 'GET') methods.add('HEAD');
    methodsByPath.set(row.path, methods);
  }
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods].join(', ');
    router.all(path, (req, res) => {
      res.setHeader('Allow', allow);
      if (req.method === 'OPTIONS') res.status(204).end();
      else sendProblem(res, problem(405, `${req.method} is not allowed here; allowed: ${allow}`));
    });
  }
  return router;
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
      return sendProblem(res, problem(HTTP_STATUS[error.kind], error.message, error.problems));
    }
    const httpError = error as HttpError;
    if (httpError.type === 'entity.too.large') {
      return sendProblem(res, problem(413, `the request body is larger than ${BODY_LIMIT.toUpperCase().replace('MB', ' MiB')}`));
    }
    if (typeof httpError.status === 'number' && httpError.status >= 400 && httpError.status < 500) {
      return sendProblem(res, problem(httpError.status === 415 ? 400 : httpError.status, httpError.message));
    }
    logger.error({ err: error, requestId: res.getHeader('X-Request-Id') }, 'unexpected error');
    return sendProblem(res, problem(500, 'an unexpected error occurred; it has been logged'));
  };
