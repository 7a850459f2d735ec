import { Migration } from '@mikro-orm/migrations';

/**
 * A banner counts once per visitor, domain and UTC day (src/features/banner/display-counter.ts):
 * `widget_display_visitor` holds the day's visitors of each domain as 64 bits of a keyed hash,
 * under the day's salt in `widget_display_salt`, which every process shares, so a visitor two
 * processes see counts once. Both keep today and yesterday only: the counter deletes the older rows.
 */
export class Migration20261128090000_display_visitors extends Migration {
  override name = 'Migration20261128090000_display_visitors';

  override up(): void | Promise<void> {
    this.addSql(`create table "widget_display_salt" ("day" date not null, "salt" bytea not null, primary key ("day"));`);
    this.addSql(
      `create table "widget_display_visitor" ("day" date not null, "domain_id" uuid not null, "visitor" bigint not null, primary key ("day", "domain_id", "visitor"));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "widget_display_visitor";`);
    this.addSql(`drop table if exists "widget_display_salt";`);
  }
}
