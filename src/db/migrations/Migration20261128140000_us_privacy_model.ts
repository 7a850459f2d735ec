import { Migration } from '@mikro-orm/migrations';

/**
 * The domain's `usPrivacyModel`: how visitors in the United States are treated (`opt-in`: asked
 * like everyone; `opt-out`: GPP's US National section, no banner, a "Do Not Sell or Share"
 * control). Existing domains keep asking (`opt-in`). The domain table's triggers announce the
 * change to the banner like any other setting's.
 */
export class Migration20261128140000_us_privacy_model extends Migration {
  override name = 'Migration20261128140000_us_privacy_model';

  override up(): void | Promise<void> {
    this.addSql(`alter table "domain" add column "us_privacy_model" text not null default 'opt-in';`);
    this.addSql(`alter table "domain" add constraint "domain_us_privacy_model_check" check ("us_privacy_model" in ('opt-in', 'opt-out'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "domain" drop constraint if exists "domain_us_privacy_model_check";`);
    this.addSql(`alter table "domain" drop column if exists "us_privacy_model";`);
  }
}
