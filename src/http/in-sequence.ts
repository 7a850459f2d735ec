import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * `handlers` one after the other, as so many `app.use(handler)` would run them, but as one layer
 * of Express's router: every layer a request passes costs a match, closures and garbage, which
 * the hot reads pay for each middleware. As in Express 5, a handler's throw or rejected promise
 * is passed on as the error, and `next(error)` leaves the sequence with it.
 */
export function inSequence(...handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown): void => {
      // Express treats a falsy error as none, and 'route' in a middleware as a plain next().
      if (error && error !== 'route') return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        const returned: unknown = handler(req, res, step);
        if (returned instanceof Promise) returned.catch((rejected: unknown) => next(rejected || new Error('Rejected promise')));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
