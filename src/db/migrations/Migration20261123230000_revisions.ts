import { Migration } from '@mikro-orm/migrations';

// The same tables the banner's triggers watch, and how a row of each names its domain.
import { PUBLISHED } from './Migration20261123200000_banner.ts';

/** How a changed row names the embedding whose part it changes. */
const EMBEDDINGS_OF = {
  embedding: 'select id from changed_rows',
  embedding_asset: 'select embedding_id from changed_rows',
} as const;

/**
 * Configuration revisions (src/features/revisions/): every committed change of a domain's
 * published configuration is kept as a revision. The triggers that announce a change (the
 * banner's migration) now also note the domain in the transaction's setting
 * `app.changed_domains`, so the transaction can record the revision before it commits, whatever
 * statement made the change.
 *
 * A revision is a manifest of content hashes; the parts (the domain's settings, each embedding
 * with its assets, the placeholders, the theme, each locale) are stored once per domain and
 * content, as `json` (kept as written, so a configuration reassembles to the same bytes and the
 * same hash; PostgreSQL compresses large values itself).
 */
export class Migration20261123230000_revisions extends Migration {
  override name = 'Migration20261123230000_revisions';

  override up(): void | Promise<void> {
    for (const { table, domainOf } of PUBLISHED) {
      const embeddingsOf = EMBEDDINGS_OF[table as keyof typeof EMBEDDINGS_OF];
      this.addSql(
        `create or replace function "notify_published_${table}"() returns trigger language plpgsql as $$ ` +
          `declare ids text; begin ` +
          `select string_agg(distinct d::text, ',') into ids from (${domainOf}) as changed(d); ` +
          `if ids is not null then ` +
          `perform pg_notify('published_configuration', id) from unnest(string_to_array(ids, ',')) as id; ` +
          `perform set_config('app.changed_domains', concat_ws(',', nullif(current_setting('app.changed_domains', true), ''), ids), true); ` +
          (embeddingsOf
            ? `select string_agg(distinct e::text, ',') into ids from (${embeddingsOf}) as changed(e); ` +
              `perform set_config('app.changed_embeddings', concat_ws(',', nullif(current_setting('app.changed_embeddings', true), ''), ids), true); `
            : '') +
          `end if; return null; end $$;`,
      );
    }
    this.addSql(
      `create table "configuration_part" ("domain_id" uuid not null, "hash" text not null, "body" json not null, primary key ("domain_id", "hash"));`,
    );
    this.addSql(
      `alter table "configuration_part" add constraint "configuration_part_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade;`,
    );
    this.addSql(
      `create table "configuration_revision" (` +
        `"domain_id" uuid not null, "number" integer not null, "hash" text not null, "legal_hash" text not null, "legal" boolean not null, ` +
        `"manifest" json not null, "created_at" timestamptz not null default clock_timestamp(), "key_id" uuid null, "key_name" text null, ` +
        `"restored_from" integer null, primary key ("domain_id", "number"));`,
    );
    this.addSql(`create index "configuration_revision_hash_index" on "configuration_revision" ("domain_id", "hash");`);
    this.addSql(
      `alter table "configuration_revision" add constraint "configuration_revision_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade;`,
    );
    // Which revisions consent records still name (retention keeps those; evidence reads them).
    this.addSql(`create index "consent_record_revision_index" on "consent_record" ("domain_id", "revision");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "consent_record_revision_index";`);
    this.addSql(`drop table if exists "configuration_revision" cascade;`);
    this.addSql(`drop table if exists "configuration_part" cascade;`);
    for (const { table, domainOf } of PUBLISHED) {
      this.addSql(
        `create or replace function "notify_published_${table}"() returns trigger language plpgsql as $$ ` +
          `begin perform pg_notify('published_configuration', d::text) from (${domainOf}) as changed(d) group by d; return null; end $$;`,
      );
    }
  }
}
