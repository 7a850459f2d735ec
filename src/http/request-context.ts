import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';
import type { AppServices, RequestContext } from '../context.ts';

const contexts = new WeakMap<Request, RequestContext>();

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives each request its own context: a fork of the EntityManager (its own identity map and
 * unit of work), the caller and a request id. REST routes and GraphQL resolvers both use it.
 */
export const requestContext = (orm: MikroORM, services: AppServices) => (req: Request, res: Response, next: NextFunction) => {
  const offered = req.get('x-request-id');
  const requestId = offered && REQUEST_ID.test(offered) ? offered : randomUUID();
  res.setHeader('X-Request-Id', requestId);
  contexts.set(req, { em: orm.em.fork(), caller: { kind: 'admin' }, requestId, services });
  next();
};

export function contextOf(req: Request): RequestContext {
  const ctx = contexts.get(req);
  if (!ctx) throw new Error('request context middleware is not installed');
  return ctx;
}
