import { Migration } from '@mikro-orm/migrations';
import { PUBLISHED } from './Migration20261123200000_banner.ts';
import { noteChanges } from './Migration20261126100000_changed_tables.ts';

/**
 * The banner publishes a domain's newest revision, and storing a revision announces the domain on
 * `published_configuration` (Migration20261126130000_revision_due): a change of an embedding, an
 * asset, a placeholder, a theme or a locale reaches the banner through the revision it makes, so
 * their triggers stop announcing it too. Each announcement woke every listening connection (the
 * service's whole pool) once more per write. Their triggers keep noting what changed for the
 * write's due revision. The domain's own trigger still announces: a deleted domain takes its
 * revisions with it, and its banner must go.
 */
export class Migration20261126200000_quiet_tables extends Migration {
  override name = 'Migration20261126200000_quiet_tables';

  override up(): void {
    for (const { table, domainOf } of PUBLISHED) if (table !== 'domain') this.addSql(noteChanges(table, domainOf, true, false));
  }

  override down(): void {
    for (const { table, domainOf } of PUBLISHED) if (table !== 'domain') this.addSql(noteChanges(table, domainOf, true));
  }
}
