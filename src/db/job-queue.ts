import { PgBoss } from 'pg-boss';
import { tracingEnabled } from '../kernel/tracing.ts';
import { SESSION_OPTIONS } from './session-options.ts';
import { JOB_QUEUE_SCHEMA } from './migrations/Migration20261124180000_scan_jobs.ts';

/**
 * The service's job queue: pg-boss, in the service's own database (the PostgreSQL server, or the
 * embedded database through its socket — the same code either way). Features declare their own
 * queues on it (scans, webhook deliveries); any number of processes add to it and take from it.
 */
export type JobQueue = {
  boss: PgBoss;
  /** Jobs waiting (new or to be tried again) and running, by queue, counted now in one statement; every queue is named. */
  depth(): Promise<QueueDepth[]>;
  /** Stops taking jobs; lets the ones running end first (up to `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
};

export type QueueDepth = { queue: string; waiting: number; running: number };

export async function startJobQueue({ url, onError }: { url: string; onError: (error: unknown) => void }): Promise<JobQueue> {
  const boss = new PgBoss({
    connectionString: url,
    options: SESSION_OPTIONS,
    schema: JOB_QUEUE_SCHEMA,
    max: 2,
    application_name: 'job-queue',
    // Jobs are added by the service's own code (the permanent scan has its own sweep), never by pg-boss's schedules.
    schedule: false,
    // With tracing on, pg-boss's own spans (send, process, settling) join the traces, and a job
    // keeps the trace context of its sender (W3C `traceparent`), which processing it continues.
    openTelemetry: tracingEnabled() ? { propagateContext: true } : { enabled: false },
  });
  boss.on('error', onError);
  await boss.start();
  return {
    boss,
    async depth() {
      const { rows } = await boss.getDb().executeSql(
        `select q.name as queue,
                (count(j.id) filter (where j.state in ('created', 'retry')))::int as waiting,
                (count(j.id) filter (where j.state = 'active'))::int as running
           from ${JOB_QUEUE_SCHEMA}.queue q
           left join ${JOB_QUEUE_SCHEMA}.job j on j.name = q.name and j.state in ('created', 'retry', 'active')
          group by q.name`,
      );
      return rows as QueueDepth[];
    },
    async stop(timeoutMs = 30_000) {
      await boss.stop({ graceful: true, timeout: timeoutMs });
    },
  };
}

/** A queue that starts on first use (the command line, whose commands mostly never queue a job). */
export function jobQueueOnDemand(start: () => Promise<JobQueue>): { queue(): Promise<JobQueue>; stop(timeoutMs?: number): Promise<void> } {
  let started: Promise<JobQueue> | undefined;
  return {
    queue: () => (started ??= start()),
    async stop(timeoutMs) {
      if (started) await (await started).stop(timeoutMs);
    },
  };
}
