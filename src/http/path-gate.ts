import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * `handler` only for requests whose path starts with one of `prefixes` (compared as Express's
 * default routing compares, ignoring ASCII case); every other request passes straight on. For
 * routers that cannot match anything else, so that each request does not walk their routes.
 * A prefix must be a start every path the handler answers has.
 */
export function onlyUnder(prefixes: readonly string[], handler: RequestHandler): RequestHandler {
  const lowered = prefixes.map((prefix) => prefix.toLowerCase());
  return (req: Request, res: Response, next: NextFunction) => {
    const path = req.path.toLowerCase();
    for (const prefix of lowered) if (path.startsWith(prefix)) return handler(req, res, next);
    next();
  };
}
