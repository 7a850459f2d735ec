import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { problem, sendProblem } from '../../rest-adapter/problem.ts';
import type { StatementCounter } from '../db/statements.ts';
import { callerOf } from './authentication.ts';

/** Prometheus metrics: HTTP requests by route, SQL statements sent, and the process's own. */
export type Metrics = {
  registry: Registry;
  /** Middleware that times every request. */
  observe(req: Request, res: Response, next: NextFunction): void;
  /** GET /metrics, for the administrator key only. */
  serve(req: Request, res: Response): Promise<void>;
};

export function createMetrics(statements: StatementCounter): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  new Counter({
    name: 'db_statements_total',
    help: 'SQL statements sent to the database (begin and commit included)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(statements.total);
    },
  });

  return {
    registry,
    observe(req, res, next) {
      const stop = duration.startTimer();
      res.once('finish', () => {
        const route = req.route?.path ?? (req.baseUrl || 'unmatched');
        stop({ method: req.method, route: String(route), status: String(res.statusCode) });
      });
      next();
    },
    async serve(req, res) {
      if (callerOf(req)?.kind !== 'admin') return sendProblem(res, problem(404, `no resource at ${req.method} ${req.path}`));
      res.setHeader('content-type', registry.contentType);
      res.send(await registry.metrics());
    },
  };
}
