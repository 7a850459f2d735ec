import { Migration } from '@mikro-orm/migrations';

/**
 * Every imported IAB Europe Global Vendor List, kept whole by version, and its imported
 * translations; and each TCF domain's base: the list version current when the domain got TCF
 * (its vendors new since then are left out unless `tcfEnableNewVendorsAfterGvlUpdate`). A trigger
 * on `domain` sets the base whenever `tcfEnabled` turns on; an import gives one to the TCF
 * domains that got TCF while no list was imported.
 */
export class Migration20261128150000_tcf_vendor_lists extends Migration {
  override name = 'Migration20261128150000_tcf_vendor_lists';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "tcf_vendor_list" ("vendor_list_version" int not null, "tcf_policy_version" int not null, ` +
        `"last_updated" timestamptz not null, "content_hash" text not null, "document" json not null, ` +
        `"created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("vendor_list_version"));`,
    );
    this.addSql(
      `create table "tcf_translation" ("language" text not null, "vendor_list_version" int not null, "content_hash" text not null, ` +
        `"document" json not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, ` +
        `primary key ("language", "vendor_list_version"));`,
    );
    this.addSql(
      `create table "tcf_domain_base" ("domain_id" uuid not null, "vendor_list_version" int null, ` +
        `"created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("domain_id"), ` +
        `constraint "tcf_domain_base_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade);`,
    );
    this.addSql(
      `create or replace function "tcf_domain_base_on_enable"() returns trigger language plpgsql as $$ begin ` +
        `if new."tcf_enabled" and (tg_op = 'INSERT' or not old."tcf_enabled") then ` +
        `insert into "tcf_domain_base" ("domain_id", "vendor_list_version", "created_at", "updated_at") ` +
        `values (new."id", (select max("vendor_list_version") from "tcf_vendor_list"), now(), now()) ` +
        `on conflict ("domain_id") do update set "vendor_list_version" = excluded."vendor_list_version", "updated_at" = now(); ` +
        `end if; return null; end $$;`,
    );
    this.addSql(
      `create trigger "tcf_domain_base_on_enable" after insert or update of "tcf_enabled" on "domain" ` +
        `for each row execute function "tcf_domain_base_on_enable"();`,
    );
    // Domains that have TCF already: no list is kept whole yet, so the next import is their base.
    this.addSql(
      `insert into "tcf_domain_base" ("domain_id", "vendor_list_version", "created_at", "updated_at") ` +
        `select "id", null, now(), now() from "domain" where "tcf_enabled";`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "tcf_domain_base_on_enable" on "domain";`);
    this.addSql(`drop function if exists "tcf_domain_base_on_enable"();`);
    this.addSql(`drop table if exists "tcf_domain_base" cascade;`);
    this.addSql(`drop table if exists "tcf_translation" cascade;`);
    this.addSql(`drop table if exists "tcf_vendor_list" cascade;`);
  }
}
