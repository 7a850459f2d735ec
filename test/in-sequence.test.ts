import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { inSequence } from '../src/http/in-sequence.ts';

/** inSequence runs middleware as so many `app.use` would: in order, errors passed on as Express 5 passes them. */

const run = (handler: RequestHandler) =>
  new Promise<unknown[]>((resolve) => {
    handler({} as Request, {} as Response, ((...args: unknown[]) => resolve(args)) as NextFunction);
  });

describe('inSequence', () => {
  it('runs the handlers in order, then calls next without an error', async () => {
    const seen: string[] = [];
    const step = (name: string): RequestHandler => (_req, _res, next) => {
      seen.push(name);
      next();
    };
    expect(await run(inSequence(step('a'), step('b'), step('c')))).toEqual([]);
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('leaves with the error a handler passes to next, throws or rejects with; the rest do not run', async () => {
    const failure = new Error('no');
    const after: RequestHandler = () => {
      throw new Error('ran after the error');
    };
    expect(await run(inSequence((_req, _res, next) => next(failure), after))).toEqual([failure]);
    expect(
      await run(
        inSequence(() => {
          throw failure;
        }, after),
      ),
    ).toEqual([failure]);
    expect(await run(inSequence(async () => Promise.reject(failure), after))).toEqual([failure]);
  });

  it("takes next('route') as Express takes it in a middleware: go on", async () => {
    const seen: string[] = [];
    const result = await run(
      inSequence(
        (_req, _res, next) => next('route'),
        (_req, _res, next) => {
          seen.push('after');
          next();
        },
      ),
    );
    expect(result).toEqual([]);
    expect(seen).toEqual(['after']);
  });
});
