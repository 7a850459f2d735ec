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

/** Every metric of the service's own has this prefix; the process's (memory, event loop, …) keep prom-client's names. */
export const METRIC_PREFIX = 'consent_config_';

/**
 * Counts the service's parts keep as plain numbers (a warm banner load costs one increment), read
 * when the metrics are scraped, and the job queue, asked for its depth then.
 */
export type WatchedFigures = {
  banner?: { builds: number; loads: number };
  consents?: { recordsStored: number };
  webhooks?: Readonly<Record<string, number>>;
  jobs?: { depth(): Promise<{ queue: string; waiting: number; running: number }[]> };
};

/** A scrape within this long of the last one reuses its job-queue depth, so scrapes cost at most one statement each and few in all. */
const QUEUE_DEPTH_MAX_AGE_MS = 5_000;

/**
 * Prometheus metrics: HTTP requests by route, GraphQL operations, scans, SQL statements, the
 * database pool, consent records, banner builds and loads, webhook deliveries, the job queue's
 * depth, and the process's own (memory, event loop, garbage collection).
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
  /** Adds figures to read at each scrape (a part given again replaces the one before). */
  watch(figures: WatchedFigures): void;
  /** GET /metrics, for the administrator key only. */
  serve(req: Request, res: Response): Promise<void>;
};

/** Distinct GraphQL operation names the metrics keep apart. */
const MAX_OPERATION_NAMES = 200;

export function createMetrics(statements: StatementCounter, poolStats: PoolStats = () => undefined): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const watched: WatchedFigures = {};
  const httpDuration = new RequestHistogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const graphqlDuration = new Histogram({
    name: `${METRIC_PREFIX}graphql_operation_duration_seconds`,
    help: 'GraphQL operations by type, name and outcome',
    labelNames: ['type', 'name', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const graphqlRejected = new Counter({
    name: `${METRIC_PREFIX}graphql_rejected_total`,
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
    name: `${METRIC_PREFIX}scan_duration_seconds`,
    help: 'Website scans by outcome (ok, site, refused, crawl, busy)',
    labelNames: ['outcome'] as const,
    buckets: [0.5, 1, 2, 3, 5, 10, 20, 30, 60],
    registers,
  });
  new Counter({
    name: `${METRIC_PREFIX}db_statements_total`,
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
      name: `${METRIC_PREFIX}db_pool_${key}_connections`,
      help: `Database pool: ${help}`,
      registers,
      collect() {
        const stats = poolStats();
        if (stats) this.set(stats[key]);
      },
    });
  }

  watchedFigures(registers, watched);

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
    watch(figures) {
      Object.assign(watched, figures);
    },
    async serve(req, res) {
      if (callerOf(req)?.kind !== 'admin') return sendProblem(res, problem(404, `no resource at ${req.method} ${req.path}`));
      res.setHeader('content-type', registry.contentType);
      res.send(await registry.metrics());
    },
  };
}

/** The counters and gauges read from `watched` at each scrape. */
function watchedFigures(registers: Registry[], watched: WatchedFigures): void {
  const counted = (name: string, help: string, read: () => number | undefined) =>
    new Counter({
      name: `${METRIC_PREFIX}${name}`,
      help,
      registers,
      collect() {
        const value = read();
        if (value === undefined) return;
        this.reset();
        this.inc(value);
      },
    });
  counted('consent_records_total', 'Consent records stored by this process', () => watched.consents?.recordsStored);
  counted('banner_builds_total', 'Banner scripts built (a domain in one locale, after a change or a first load)', () => watched.banner?.builds);
  counted('banner_loads_total', 'Banner scripts sent (app.js answered with a script, 200 or 304)', () => watched.banner?.loads);
  new Counter({
    name: `${METRIC_PREFIX}webhook_deliveries_total`,
    help: 'Webhook deliveries this process tried, by outcome (delivered, failed: tried again, refused: address not allowed, no_webhook)',
    labelNames: ['outcome'] as const,
    registers,
    collect() {
      const outcomes = watched.webhooks;
      if (!outcomes) return;
      this.reset();
      for (const [outcome, count] of Object.entries(outcomes)) this.inc({ outcome }, count);
    },
  });

  let depth: { at: number; reading: Promise<{ queue: string; waiting: number; running: number }[]> } | undefined;
  const readDepth = (jobs: NonNullable<WatchedFigures['jobs']>) => {
    if (!depth || performance.now() - depth.at > QUEUE_DEPTH_MAX_AGE_MS) depth = { at: performance.now(), reading: jobs.depth() };
    return depth.reading;
  };
  for (const [state, help] of [
    ['waiting', 'Jobs waiting in the job queue (new, or to be tried again), by queue'],
    ['running', 'Jobs running now, in any process, by queue'],
  ] as const) {
    new Gauge({
      name: `${METRIC_PREFIX}job_queue_${state === 'waiting' ? 'depth' : 'running'}`,
      help,
      labelNames: ['queue'] as const,
      registers,
      async collect() {
        if (!watched.jobs) return;
        // A failed count leaves the gauge out of this scrape rather than showing old figures.
        this.reset();
        const queues = await readDepth(watched.jobs).catch(() => []);
        for (const queue of queues) this.set({ queue: queue.queue }, queue[state]);
      },
    });
  }
}
