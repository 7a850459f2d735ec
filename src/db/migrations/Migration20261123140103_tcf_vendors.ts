import { Migration } from '@mikro-orm/migrations';

/** The TCF vendors of the imported IAB Europe Global Vendor List. */
export class Migration20261123140103_tcf_vendors extends Migration {

  override name = 'Migration20261123140103_tcf_vendors';

  override up(): void | Promise<void> {
    this.addSql(`create table "tcf_vendor" ("id" int not null, "name" text not null, "deleted_date" timestamptz null, "vendor_list_version" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "tcf_vendor" cascade;`);
  }

}
