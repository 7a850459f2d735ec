import { Migration } from '@mikro-orm/migrations';

/**
 * Compliance scans (src/features/compliance/): each is a `compliance_scan` row with what the three
 * visitors saw, its findings and the configuration revision it tested; they run on the job
 * queue's `compliance-scan` queue (pg-boss creates a queue when it is first declared).
 */
export class Migration20261128034214_compliance_scans extends Migration {
  override name = 'Migration20261128034214_compliance_scans';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "compliance_scan" ("id" uuid not null, "domain_id" uuid not null, "trigger" text not null, "status" text not null, ` +
        `"url" text not null, "requested_at" timestamptz not null default clock_timestamp(), "started_at" timestamptz null, ` +
        `"finished_at" timestamptz null, "revision" text null, "revision_number" int null, "verdict" text null, ` +
        `"finding_count" int not null default 0, "result" jsonb null, "error" jsonb null, "attempts" int not null default 0, ` +
        `"worker" text null, primary key ("id"));`,
    );
    this.addSql(`create index "compliance_scan_domain_requested_index" on "compliance_scan" ("domain_id", "requested_at");`);
    this.addSql(
      `alter table "compliance_scan" add constraint "compliance_scan_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade;`,
    );
    this.addSql(`alter table "compliance_scan" add constraint "compliance_scan_trigger_check" check ("trigger" in ('job', 'schedule'));`);
    this.addSql(`alter table "compliance_scan" add constraint "compliance_scan_status_check" check ("status" in ('queued', 'running', 'succeeded', 'failed'));`);
    this.addSql(`alter table "compliance_scan" add constraint "compliance_scan_verdict_check" check ("verdict" in ('clean', 'violations'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "compliance_scan" cascade;`);
  }
}
