import { Migration } from '@mikro-orm/migrations';

/**
 * Locales with their texts (src/features/locales/): one row per locale of a domain, its texts in
 * one JSON column (why: locale.entity.ts). Every name on an existing domain's `locales` list gets
 * an active row with no texts yet, which shows the default texts of its language until written.
 */
export class Migration20261123174100_locales extends Migration {
  override name = 'Migration20261123174100_locales';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "locale" ("id" uuid not null, "domain_id" uuid not null, "name" text not null, "active" boolean not null, "texts" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "locale" add constraint "locale_domain_id_name_unique" unique ("domain_id", "name");`);
    this.addSql(
      `alter table "locale" add constraint "locale_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade;`,
    );
    this.addSql(
      `insert into "locale" ("id", "domain_id", "name", "active", "texts", "created_at", "updated_at") ` +
        `select gen_random_uuid(), "d"."id", "l"."name", true, '{}'::jsonb, now(), now() ` +
        `from "domain" as "d" cross join lateral jsonb_array_elements_text("d"."locales") as "l"("name") ` +
        `on conflict ("domain_id", "name") do nothing;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "locale" cascade;`);
  }
}
