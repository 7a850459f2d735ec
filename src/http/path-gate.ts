import type { NextFunction, Request, RequestHandler, Response } from 'express';

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `handler` only for requests whose path starts with one of `prefixes` (compared as Express's
 * default routing compares, ignoring ASCII case); every other request passes straight on. For
 * routers that cannot match anything else, so that each request does not walk their routes.
 * A prefix must be a start every path the handler answers has.
 */
export function onlyUnder(prefixes: readonly string[], handler: RequestHandler): RequestHandler {
  // A case-insensitive expression, as Express's routes are: it tests without copying the path.
  const under = new RegExp(`^(?:${prefixes.map(escaped).join('|')})`, 'i');
  return (req: Request, res: Response, next: NextFunction) => {
    if (under.test(req.path)) return handler(req, res, next);
    next();
  };
}
