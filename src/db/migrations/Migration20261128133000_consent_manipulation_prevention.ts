import { Migration } from '@mikro-orm/migrations';

/**
 * Whether the banner a consent record came from had the theme's `manipulationPrevention` on
 * (simulated clicks could not consent; a removed banner came back), as CCM19's consent log
 * shows it. False for records of banners that did not say (older ones, or the mode off). Added
 * to the partitioned table, so every month's partition has it.
 */
export class Migration20261128133000_consent_manipulation_prevention extends Migration {
  override name = 'Migration20261128133000_consent_manipulation_prevention';

  override up(): void | Promise<void> {
    this.addSql(`alter table "consent_record" add column "manipulation_prevention" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "consent_record" drop column if exists "manipulation_prevention";`);
  }
}
