import { Migration } from '@mikro-orm/migrations';

// The same tables the banner's triggers watch, and how a row of each names its domain.
import { PUBLISHED } from './Migration20261123200000_banner.ts';

/** How a changed row names the embedding whose part it changes. */
const EMBEDDINGS_OF = {
  embedding: 'select id from changed_rows',
  embedding_asset: 'select embedding_id from changed_rows',
} as const;

/**
 * The triggers that announce a change of a domain's published configuration also note which
 * tables changed, in the transaction's setting `app.changed_tables`: a write that changed only
 * embeddings (or only placeholders) has its revision made from what it changed and the previous
 * revision, without reading the domain's settings, theme and locales again. `announce: false`
 * (Migration20261126200000_quiet_tables) leaves out the announcement and keeps the notes.
 */
export function noteChanges(table: string, domainOf: string, tables: boolean, announce = true): string {
  const embeddingsOf = EMBEDDINGS_OF[table as keyof typeof EMBEDDINGS_OF];
  return (
    `create or replace function "notify_published_${table}"() returns trigger language plpgsql as $$ ` +
    `declare ids text; begin ` +
    `select string_agg(distinct d::text, ',') into ids from (${domainOf}) as changed(d); ` +
    `if ids is not null then ` +
    (announce ? `perform pg_notify('published_configuration', id) from unnest(string_to_array(ids, ',')) as id; ` : '') +
    `perform set_config('app.changed_domains', concat_ws(',', nullif(current_setting('app.changed_domains', true), ''), ids), true); ` +
    (tables
      ? `perform set_config('app.changed_tables', concat_ws(',', nullif(current_setting('app.changed_tables', true), ''), '${table}'), true); `
      : '') +
    (embeddingsOf
      ? `select string_agg(distinct e::text, ',') into ids from (${embeddingsOf}) as changed(e); ` +
        `perform set_config('app.changed_embeddings', concat_ws(',', nullif(current_setting('app.changed_embeddings', true), ''), ids), true); `
      : '') +
    `end if; return null; end $$;`
  );
}

export class Migration20261126100000_changed_tables extends Migration {
  override name = 'Migration20261126100000_changed_tables';

  override up(): void | Promise<void> {
    for (const { table, domainOf } of PUBLISHED) this.addSql(noteChanges(table, domainOf, true));
  }

  override down(): void | Promise<void> {
    for (const { table, domainOf } of PUBLISHED) this.addSql(noteChanges(table, domainOf, false));
  }
}
