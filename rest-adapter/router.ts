import { isUtf8 } from 'node:buffer';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { invalidPayload, parsePayload } from '../src/kernel/contract/validate.ts';
import { translateDatabaseError } from '../src/db/transaction.ts';
import { ServiceError } from '../src/kernel/errors.ts';
import { contextOf } from '../src/http/request-context.ts';
import type { Logger } from '../src/logger.ts';
import { HTTP_STATUS, problem, sendProblem } from '../src/kernel/problem.ts';
import { type RestRoute, restRoutes } from './routes.ts';

/** Request bodies above this are refused with 413 (SERVICE.md §3). */
export const BODY_LIMIT = '2mb';

/** Refuses a body that is not valid UTF-8 (the parser would turn its bad bytes into U+FFFD and store them). */
export function requireUtf8(_req: unknown, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) {
    throw Object.assign(new Error('the body is not valid UTF-8'), { status: 400, type: 'encoding.invalid' });
  }
}

/** Reads any request body as text, whatever content type it claims (JSON is parsed below). */
const readBody = express.text({ limit: BODY_LIMIT, type: () => true, verify: requireUtf8 });

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
  const params = req.params as Record<string, string>;
  const result = await row.operation(contextOf(req), params, body);
  if (row.secret) res.setHeader('Cache-Control', 'no-store');
  if (row.location) res.setHeader('Location', row.location(params, result));
  if (row.status === 204) res.status(204).end();
  else res.status(row.status).json(result);
};

/** 405 with `Allow`, for a method a path does not take (OPTIONS: 204 with `Allow`). */
const methodNotAllowed = (allow: string) => (req: Request, res: Response) => {
  res.setHeader('Allow', allow);
  if (req.method === 'OPTIONS') res.status(204).end();
  else sendProblem(res, problem(405, `${req.method} is not allowed here; allowed: ${allow}`));
};

/** Walks the route table: one Express route per row, and 405 with `Allow` for other methods. */
export function createRestRouter(routes: RestRoute[] = restRoutes): Router {
  const router = Router({ caseSensitive: true, strict: false });
  const methodsByPath = new Map<string, Set<string>>();
  const headless = new Set(routes.filter((row) => row.method === 'GET' && row.head === false).map((row) => row.path));
  for (const row of routes) {
    const methods = methodsByPath.get(row.path) ?? new Set<string>();
    methods.add(row.method);
    // Express answers HEAD with the GET's handler, unless the path refuses it first.
    if (row.method === 'GET' && !headless.has(row.path)) methods.add('HEAD');
    methodsByPath.set(row.path, methods);
  }
  for (const path of headless) router.head(path, methodNotAllowed([...methodsByPath.get(path)!].join(', ')));
  for (const row of routes) {
    const handlers = row.body ? [readBody, handlerFor(row)] : [handlerFor(row)];
    router[row.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](row.path, ...handlers);
  }
  for (const [path, methods] of methodsByPath) router.all(path, methodNotAllowed([...methods].join(', ')));
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
      const status = httpError.status === 415 ? 400 : httpError.status;
      return sendProblem(res, problem(status, httpError.message, status === 400 ? [{ path: '', message: httpError.message }] : undefined));
    }
    logger.error({ err: error, requestId: res.getHeader('X-Request-Id') }, 'unexpected error');
    return sendProblem(res, problem(500, 'an unexpected error occurred; it has been logged'));
  };
