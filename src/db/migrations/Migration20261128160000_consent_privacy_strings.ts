import { Migration } from '@mikro-orm/migrations';

/**
 * The IAB strings a consent record carries with the choice (src/features/consents/tc-string.ts,
 * ac-string.ts, gpp-string.ts): the TC string of TCF 2.2, Google's Additional Consent string and
 * the GPP string, as the banner wrote them. Null: the banner did not speak that framework (and
 * every record stored before). Added to the partitioned table, so every month's partition has them.
 */
export class Migration20261128160000_consent_privacy_strings extends Migration {
  override name = 'Migration20261128160000_consent_privacy_strings';

  override up(): void | Promise<void> {
    this.addSql(`alter table "consent_record" add column "tc_string" text null, add column "ac_string" text null, add column "gpp_string" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "consent_record" drop column if exists "tc_string", drop column if exists "ac_string", drop column if exists "gpp_string";`);
  }
}
