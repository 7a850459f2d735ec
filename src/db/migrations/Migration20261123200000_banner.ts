import { Migration } from '@mikro-orm/migrations';

/** The tables whose rows make up a domain's published configuration, and how a row names its domain. */
export const PUBLISHED = [
  { table: 'domain', domainOf: 'select id from changed_rows' },
  { table: 'embedding', domainOf: 'select domain_id from changed_rows' },
  { table: 'placeholder', domainOf: 'select domain_id from changed_rows' },
  { table: 'theme', domainOf: 'select domain_id from changed_rows' },
  { table: 'locale', domainOf: 'select domain_id from changed_rows' },
  // An asset's embedding may be gone when the asset goes with it (cascade): the embedding's own trigger told.
  { table: 'embedding_asset', domainOf: 'select e.domain_id from changed_rows a join embedding e on e.id = a.embedding_id' },
] as const;

/**
 * The banner (src/features/banner/): every committed change of what a visitor sees is announced
 * on the channel `published_configuration` with the domain's id, whichever statement made it (the
 * operations, the command line, a cascade), so every process of the service drops its cached
 * banner of that domain. Statement-level triggers: a bulk write of a thousand rows notifies once
 * per domain, and PostgreSQL delivers a notification only once its transaction has committed.
 *
 * Also the monthly banner loads of each domain, kept with its client (`widgetDisplayCount`): no
 * foreign key to the domain, so a deleted domain's loads still count for its client's month.
 */
export class Migration20261123200000_banner extends Migration {
  override name = 'Migration20261123200000_banner';

  override up(): void | Promise<void> {
    for (const { table, domainOf } of PUBLISHED) {
      this.addSql(
        `create function "notify_published_${table}"() returns trigger language plpgsql as $$ ` +
          `begin perform pg_notify('published_configuration', d::text) from (${domainOf}) as changed(d) group by d; return null; end $$;`,
      );
      for (const [event, rows] of [['insert', 'new'], ['update', 'new'], ['delete', 'old']] as const) {
        this.addSql(
          `create trigger "published_${table}_${event}" after ${event} on "${table}" referencing ${rows} table as changed_rows ` +
            `for each statement execute function "notify_published_${table}"();`,
        );
      }
    }
    this.addSql(
      `create table "widget_display" ("client_id" uuid not null, "domain_id" uuid not null, "month" text not null, "count" bigint not null, primary key ("client_id", "domain_id", "month"));`,
    );
    this.addSql(
      `alter table "widget_display" add constraint "widget_display_client_id_foreign" foreign key ("client_id") references "client" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "widget_display" cascade;`);
    for (const { table } of PUBLISHED) {
      for (const event of ['insert', 'update', 'delete']) this.addSql(`drop trigger if exists "published_${table}_${event}" on "${table}";`);
      this.addSql(`drop function if exists "notify_published_${table}"();`);
    }
  }
}
