import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import { type AppServices, createRequestContext, type RequestContext } from '../kernel/context.ts';
import { callerOf } from './authentication.ts';

/**
 * The context is kept on the request object itself, not in a WeakMap keyed by requests (as it
 * was): in a probe server, a WeakMap entry per request made V8's young collections promote about
 * four times as much of each request to the old generation (issue 17, bench/HISTORY.md).
 */
const CONTEXT = Symbol('request context');
type WithContext = Request & { [CONTEXT]?: RequestContext };

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The request id: the client's `X-Request-Id` when it is a sane one, else a new one; echoed back. */
export function requestId(req: Request, res: Response, next: NextFunction) {
  const offered = req.get('x-request-id');
  const id = offered && REQUEST_ID.test(offered) ? offered : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}

/**
 * Gives each request its own context (kernel/context.ts): its own unit of work, the caller and
 * the request id. REST routes and GraphQL resolvers both use it.
 */
export const requestContext = (orm: MikroORM, services: AppServices) => (req: Request, res: Response, next: NextFunction) => {
  const requestId = res.locals.requestId as string;
  const caller = callerOf(req);
  // Requests without a caller are the public ones (health, GraphiQL page): they run no operation.
  if (caller) {
    (req as WithContext)[CONTEXT] = createRequestContext(orm, services, caller, requestId);
  }
  next();
};

export function contextOf(req: Request): RequestContext {
  const ctx = (req as WithContext)[CONTEXT];
  if (!ctx) throw new Error('request context middleware is not installed');
  return ctx;
}
