import { Migration } from '@mikro-orm/migrations';

/**
 * The scripts the banner found on a domain's pages that no embedding knows
 * (src/features/script-findings/): one row per domain and script address (without its query),
 * with the path of the page it was first seen on, when it was first and last seen, and how many
 * visitor sessions reported it. The intake keeps at most a few hundred per domain, dropping the
 * longest unseen (the index on `last_seen_at`).
 */
export class Migration20261128120000_script_findings extends Migration {
  override name = 'Migration20261128120000_script_findings';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "script_finding" ("domain_id" uuid not null, "script_url" text not null, "page_path" text not null, ` +
        `"first_seen_at" timestamptz not null default clock_timestamp(), "last_seen_at" timestamptz not null default clock_timestamp(), ` +
        `"times_seen" int not null default 1, primary key ("domain_id", "script_url"));`,
    );
    this.addSql(`create index "script_finding_domain_id_last_seen_at_index" on "script_finding" ("domain_id", "last_seen_at");`);
    this.addSql(
      `alter table "script_finding" add constraint "script_finding_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "script_finding" cascade;`);
  }
}
