import { Migration } from '@mikro-orm/migrations';

/**
 * Consent records (src/features/consents/): what each visitor chose, against which published
 * configuration. The one table that grows with visitor traffic, so it is partitioned by month of
 * receipt: retention drops whole months, and a listing by time range reads only its months. The
 * months' partitions are made ahead of time by the service (consent-partitions.ts), not here.
 * Not mirrored in the entities (orm.ts skips these tables): it is written and read in SQL.
 */
export class Migration20261123210000_consent_records extends Migration {
  override name = 'Migration20261123210000_consent_records';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "consent_record" (` +
        `"domain_id" uuid not null, "received_at" timestamptz not null, "id" uuid not null default gen_random_uuid(), "consent_id" uuid not null, ` +
        `"client_id" uuid not null, "choice" text not null, "categories" jsonb not null, "services" jsonb not null, ` +
        `"revision" text not null, "locale" text not null, "origin" text not null, "path" text not null, "address" text not null, ` +
        // A record's own id: the same consent may be recorded twice within one clock tick.
        `primary key ("domain_id", "received_at", "id")) partition by range ("received_at");`,
    );
    this.addSql(`create index "consent_record_consent_id_index" on "consent_record" ("domain_id", "consent_id");`);
    this.addSql(
      `alter table "consent_record" add constraint "consent_record_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "consent_record" cascade;`);
  }
}
