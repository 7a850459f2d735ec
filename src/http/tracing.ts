import type { NextFunction, Request, Response } from 'express';
import { traceIncoming } from '../kernel/tracing.ts';
import { routeName } from './route-name.ts';

/**
 * The server span of every request that reaches Express (mounted first, only while tracing is
 * on): named by its method and route, continuing the `traceparent` it came with. Banner loads the
 * fast path answers from memory never get here, and get no span.
 */
export function traceRequests(req: Request, res: Response, next: NextFunction): void {
  traceIncoming(req, res, () => routeName(req), next);
}
