import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { problem } from '../kernel/problem.ts';
import { sendProblem } from './problems.ts';
import type { StatementCounter } from '../db/statements.ts';
import { callerOf } from './authentication.ts';
import { RequestHistogram } from './request-histogram.ts';
import { routeName } from './route-name.ts';

/** Connection pool figures, read when metrics are scraped. */
export type PoolStats = () => { total: number; idle: number; waiting: number } | undefined;

/**
 * Prometheus metrics: HTTP requests by route, GraphQL operations, scans, SQL statements, the
 * database pool, and the process's own (memory, event loop, garbage collection).
 */
export type Metrics = {
  registry: Registry;
  /** Middleware that times every request. */
  observe(req: Request, res: Response, next: NextFunction): void;
  /** A request answered before Express (the banner's fast path), under the same histogram. */
  served(method: string, route: string, status: number, seconds: number): void;
  graphqlOperation(type: string, name: string, outcome: 'ok' | 'error', seconds: number): void;
  /** A GraphQL document refused before execution: unparsable, or invalid against the schema or the limits. */
  graphqlRejected(stage: 'parse' | 'validate'): void;
  scan(outcome: 'ok' | 'site' | 'refused' | 'crawl' | 'busy', seconds: number): void;
  /** GET /metrics, for the administrator key only. */
  serve(req: Request, res: Response): Promise<void>;
};

/** Distinct GraphQL operation names the metrics keep apart. */
const MAX_OPERATION_NAMES = 200;

export function createMetrics(statements: StatementCounter, poolStats: PoolStats = () => undefined): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const httpDuration = new RequestHistogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const graphqlDuration = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL operations by type, name and outcome',
    labelNames: ['type', 'name', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const graphqlRejected = new Counter({
    name: 'graphql_rejected_total',
    help: 'GraphQL documents refused before execution, by stage (parse, validate)',
    labelNames: ['stage'] as const,
    registers,
  });
  // Operation names come from callers: past this many distinct ones, the rest share one label.
  const operationNames = new Set<string>();
  const nameLabel = (name: string) => {
    if (operationNames.has(name)) return name;
    if (operationNames.size >= MAX_OPERATION_NAMES || name.length > 64) return 'other';
    operationNames.add(name);
    return name;
  };
  const scanDuration = new Histogram({
    name: 'scan_duration_seconds',
    help: 'Website scans by outcome (ok, site, refused, crawl, busy)',
    labelNames: ['outcome'] as const,
    buckets: [0.5, 1, 2, 3, 5, 10, 20, 30, 60],
    registers,
  });
  new Counter({
    name: 'db_statements_total',
    help: 'SQL statements sent to the database (begin and commit included)',
    registers,
    collect() {
      this.reset();
      this.inc(statements.total);
    },
  });
  for (const [key, help] of [
    ['total', 'connections the pool holds'],
    ['idle', 'idle connections in the pool'],
    ['waiting', 'requests waiting for a connection'],
  ] as const) {
    new Gauge({
      name: `db_pool_${key}_connections`,
      help: `Database pool: ${help}`,
      registers,
      collect() {
        const stats = poolStats();
        if (stats) this.set(stats[key]);
      },
    });
  }

  const observeRequest = (method: string, route: string, status: number, seconds: number) => httpDuration.record(method, route, status, seconds);

  return {
    registry,
    observe(req, res, next) {
      const started = performance.now();
      res.once('finish', () => {
        observeRequest(req.method, routeName(req) ?? 'unmatched', res.statusCode, (performance.now() - started) / 1000);
      });
      next();
    },
    served(method, route, status, seconds) {
      observeRequest(method, route, status, seconds);
    },
    graphqlOperation(type, name, outcome, seconds) {
      graphqlDuration.observe({ type, name: nameLabel(name), outcome }, seconds);
    },
    graphqlRejected(stage) {
      graphqlRejected.inc({ stage });
    },
    scan(outcome, seconds) {
      scanDuration.observe({ outcome }, seconds);
    },
    async serve(req, res) {
      if (callerOf(req)?.kind !== 'admin') return sendProblem(res, problem(404, `no resource at ${req.method} ${req.path}`));
      res.setHeader('content-type', registry.contentType);
      res.send(await registry.metrics());
    },
  };
}
