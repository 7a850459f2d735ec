import { Migration } from '@mikro-orm/migrations';

/**
 * Whether a consent record's page belongs to its domain (src/features/consents/page-origin.ts):
 * the domain's host or one of its consent-sharing domains, as the revision the record names
 * published them. Records stored before the check have null: not checked. Added to the partitioned
 * table, so every month's partition has it.
 */
export class Migration20261128070000_consent_origin extends Migration {
  override name = 'Migration20261128070000_consent_origin';

  override up(): void | Promise<void> {
    this.addSql(`alter table "consent_record" add column "origin_matches" boolean null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "consent_record" drop column if exists "origin_matches";`);
  }
}
