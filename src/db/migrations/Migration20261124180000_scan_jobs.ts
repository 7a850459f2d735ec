import { Migration } from '@mikro-orm/migrations';
import { getConstructionPlans } from 'pg-boss';

/** The schema of the job queue (pg-boss, db/job-queue.ts): scans for workers, webhook deliveries. */
export const JOB_QUEUE_SCHEMA = 'job_queue';

/**
 * Scans as jobs (src/features/scan-jobs/): every scan is a `scan_job` row with its progress and
 * result, and the queue that hands started scans to worker processes is pg-boss's, in its own
 * schema. pg-boss would create that schema at its first start, under its own lock, while the
 * service starts; created here it comes with the database's other tables, and pg-boss's start only
 * checks its version (a newer pg-boss migrates its schema itself).
 */
export class Migration20261124180000_scan_jobs extends Migration {
  override name = 'Migration20261124180000_scan_jobs';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "scan_job" ("id" uuid not null, "domain_id" uuid not null, ` +
        `"trigger" text check ("trigger" in ('request', 'job', 'schedule')) not null, ` +
        `"status" text check ("status" in ('queued', 'running', 'succeeded', 'failed')) not null, ` +
        `"url" text not null, "requested_at" timestamptz not null default clock_timestamp(), "started_at" timestamptz null, ` +
        `"finished_at" timestamptz null, "page_limit" int not null, "pages" jsonb not null, "result" jsonb null, "error" jsonb null, ` +
        `"attempts" int not null default 0, "worker" text null, primary key ("id"));`,
    );
    this.addSql(`create index "scan_job_domain_requested_index" on "scan_job" ("domain_id", "requested_at");`);
    this.addSql(
      `alter table "scan_job" add constraint "scan_job_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade;`,
    );
    this.addSql(withoutOwnTransaction(getConstructionPlans(JOB_QUEUE_SCHEMA)));
  }

  override down(): void | Promise<void> {
    this.addSql(`drop schema if exists "${JOB_QUEUE_SCHEMA}" cascade;`);
    this.addSql(`drop table if exists "scan_job" cascade;`);
  }
}

/** pg-boss wraps its schema in BEGIN … COMMIT; a migration already runs in a transaction. */
function withoutOwnTransaction(plans: string): string {
  const match = /^\s*BEGIN;([\s\S]*)COMMIT;\s*$/.exec(plans);
  if (!match) throw new Error('pg-boss schema plan is not wrapped in BEGIN … COMMIT as expected; read it before changing this migration');
  return match[1]!;
}
