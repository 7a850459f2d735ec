import { PgBoss } from 'pg-boss';
import { SESSION_OPTIONS } from './session-options.ts';
import { JOB_QUEUE_SCHEMA } from './migrations/Migration20261124180000_scan_jobs.ts';

/**
 * The service's job queue: pg-boss, in the service's own database (the PostgreSQL server, or the
 * embedded database through its socket — the same code either way). Features declare their own
 * queues on it (scans, webhook deliveries); any number of processes add to it and take from it.
 */
export type JobQueue = {
  boss: PgBoss;
  /** Stops taking jobs; lets the ones running end first (up to `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
};

export async function startJobQueue({ url, onError }: { url: string; onError: (error: unknown) => void }): Promise<JobQueue> {
  const boss = new PgBoss({
    connectionString: url,
    options: SESSION_OPTIONS,
    schema: JOB_QUEUE_SCHEMA,
    max: 2,
    application_name: 'job-queue',
    // Jobs are added by the service's own code (the permanent scan has its own sweep), never by pg-boss's schedules.
    schedule: false,
  });
  boss.on('error', onError);
  await boss.start();
  return {
    boss,
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
