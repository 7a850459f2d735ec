import { Migration } from '@mikro-orm/migrations';

/**
 * Revisions are recorded just after a write commits, off the domain's lock
 * (features/revisions/revision-recorder.ts): the write notes, in its own transaction (the hot
 * writes: in their one statement), a `revision_due` row for each domain it changed — who made
 * it, the revision it restores, the tables and embeddings it changed — and the recorder takes
 * a domain's due rows and stores one revision for all of them. A row left behind (the process
 * died between the commit and the recording) is taken by the next round of its domain, or at
 * the next start.
 *
 * Storing a revision announces the domain on `published_configuration`, as a change of its
 * configuration does: the banner publishes the newest revision, and must drop its build when
 * one is stored.
 */
export class Migration20261126130000_revision_due extends Migration {
  override name = 'Migration20261126130000_revision_due';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "revision_due" (` +
        `"id" bigserial primary key, "domain_id" uuid not null, "created_at" timestamptz not null default now(), ` +
        `"key_id" uuid null, "key_name" text null, "restored_from" integer null, ` +
        `"tables" text[] not null default '{}', "embeddings" uuid[] not null default '{}');`,
    );
    this.addSql(`create index "revision_due_domain_id_index" on "revision_due" ("domain_id");`);
    this.addSql(
      `alter table "revision_due" add constraint "revision_due_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade;`,
    );
    this.addSql(
      `create or replace function "notify_revision_stored"() returns trigger language plpgsql as $$ ` +
        `begin perform pg_notify('published_configuration', d::text) from (select distinct "domain_id" from new_rows) as stored(d); return null; end $$;`,
    );
    this.addSql(
      `create trigger "configuration_revision_stored" after insert on "configuration_revision" ` +
        `referencing new table as new_rows for each statement execute function "notify_revision_stored"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "configuration_revision_stored" on "configuration_revision";`);
    this.addSql(`drop function if exists "notify_revision_stored"();`);
    this.addSql(`drop table if exists "revision_due" cascade;`);
  }
}
