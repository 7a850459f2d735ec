import { Migration } from '@mikro-orm/migrations';

/**
 * Whether a consent record's choice came from the visitor's browser rather than a click: `gpc`
 * (Global Privacy Control) or `dnt` (Do Not Track), which a domain whose theme complies with
 * them answers with "necessary only" (src/features/banner/runtime/privacy-signals.ts). Null: a
 * choice the visitor made. Added to the partitioned table, so every month's partition has it.
 */
export class Migration20261128113000_consent_signal extends Migration {
  override name = 'Migration20261128113000_consent_signal';

  override up(): void | Promise<void> {
    this.addSql(`alter table "consent_record" add column "signal" text null constraint "consent_record_signal_check" check ("signal" in ('gpc', 'dnt'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "consent_record" drop column if exists "signal";`);
  }
}
