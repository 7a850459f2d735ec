import { Migration } from '@mikro-orm/migrations';

/** The columns that hold a revision's stored configuration: a round writes them on every write of a domain. */
const STORED = [
  ['configuration_part', 'body'],
  ['configuration_revision', 'manifest'],
] as const;

/**
 * A revision round of a large domain writes some 100 KB of parts (every bucket a burst of writes
 * touched, rewritten whole), which PostgreSQL compresses on the way to disk: with lz4 instead of
 * its default pglz, such a store took 6 ms instead of 9 (a PostgreSQL 15 server, 18 parts of
 * 117 KB). A server built without lz4 — the embedded PGlite is one — keeps pglz.
 */
export class Migration20261126210000_lz4_parts extends Migration {
  override name = 'Migration20261126210000_lz4_parts';

  override up(): void {
    for (const [table, column] of STORED) {
      this.addSql(
        `do $$ begin alter table "${table}" alter column "${column}" set compression lz4; ` +
          `exception when feature_not_supported then null; end $$;`,
      );
    }
  }

  override down(): void {
    for (const [table, column] of STORED) this.addSql(`alter table "${table}" alter column "${column}" set compression default;`);
  }
}
