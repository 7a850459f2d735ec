import { Migration } from '@mikro-orm/migrations';

/**
 * The permanent scan (src/features/permanent-scan/): findings — what a scheduled scan found that no
 * embedding declares, one row per domain, kind and key — and each client's webhook.
 */
export class Migration20261124190000_permanent_scan extends Migration {
  override name = 'Migration20261124190000_permanent_scan';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "scan_finding" ("id" uuid not null, "domain_id" uuid not null, ` +
        `"kind" text check ("kind" in ('cookie', 'storage', 'service')) not null, "key" text not null, "name" text not null, "detail" jsonb not null, ` +
        `"first_scan_id" uuid not null, "last_scan_id" uuid not null, "first_seen_at" timestamptz not null default clock_timestamp(), ` +
        `"last_seen_at" timestamptz not null default clock_timestamp(), "times_seen" int not null default 1, primary key ("id"));`,
    );
    this.addSql(`alter table "scan_finding" add constraint "scan_finding_domain_kind_key_unique" unique ("domain_id", "kind", "key");`);
    this.addSql(
      `alter table "scan_finding" add constraint "scan_finding_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade;`,
    );
    this.addSql(
      `create table "webhook" ("client_id" uuid not null, "url" text not null, "secret" text not null, ` +
        `"created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("client_id"));`,
    );
    this.addSql(
      `alter table "webhook" add constraint "webhook_client_id_foreign" foreign key ("client_id") references "client" ("id") on update cascade on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "webhook" cascade;`);
    this.addSql(`drop table if exists "scan_finding" cascade;`);
  }
}
