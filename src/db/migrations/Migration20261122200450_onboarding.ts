import { Migration } from '@mikro-orm/migrations';

/** The catalog of imported services and cookies; embeddings remember the catalog service they came from. */
export class Migration20261122200450_onboarding extends Migration {

  override name = 'Migration20261122200450_onboarding';

  override up(): void | Promise<void> {
    this.addSql(`create table "catalog_service" ("id" int not null, "platform" text not null, "vendor" text not null, "purpose" text not null, "privacy_policy_url" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "catalog_service" add constraint "catalog_service_platform_unique" unique ("platform");`);

    this.addSql(`create table "catalog_cookie" ("id" text not null, "service_id" int not null, "name" text not null, "wildcard" boolean not null, "category" text not null, "domain" text not null, "description" text not null, "retention" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "catalog_cookie_service_id_index" on "catalog_cookie" ("service_id");`);
    this.addSql(`create index "catalog_cookie_name_index" on "catalog_cookie" ("name");`);

    this.addSql(`alter table "embedding" add "catalog_key" text null;`);
    this.addSql(`create index "embedding_domain_id_catalog_key_index" on "embedding" ("domain_id", "catalog_key");`);

    this.addSql(`alter table "catalog_cookie" add constraint "catalog_cookie_service_id_foreign" foreign key ("service_id") references "catalog_service" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "catalog_cookie" drop constraint "catalog_cookie_service_id_foreign";`);

    this.addSql(`drop table if exists "catalog_service" cascade;`);
    this.addSql(`drop table if exists "catalog_cookie" cascade;`);

    this.addSql(`drop index "embedding_domain_id_catalog_key_index";`);
    this.addSql(`alter table "embedding" drop column "catalog_key";`);
  }
}
