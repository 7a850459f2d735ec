import { Migration } from '@mikro-orm/migrations';

/** API keys, stored as hashes. */
export class Migration20261122202429_api_keys extends Migration {

  override name = 'Migration20261122202429_api_keys';

  override up(): void | Promise<void> {
    this.addSql(`create table "api_key" ("id" uuid not null, "client_id" uuid null, "name" text not null, "prefix" text not null, "hash" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "api_key_client_id_index" on "api_key" ("client_id");`);
    this.addSql(`create index "api_key_prefix_index" on "api_key" ("prefix");`);

    this.addSql(`alter table "api_key" add constraint "api_key_client_id_foreign" foreign key ("client_id") references "client" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_key" cascade;`);
  }
}
