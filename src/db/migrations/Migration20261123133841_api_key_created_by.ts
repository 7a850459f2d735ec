import { Migration } from '@mikro-orm/migrations';

/** API keys remember the client key that created them (null: the administrator or the command line). */
export class Migration20261123133841_api_key_created_by extends Migration {
  override name = 'Migration20261123133841_api_key_created_by';

  override up(): void | Promise<void> {
    this.addSql(`alter table "api_key" add "created_by" uuid null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_key" drop column "created_by";`);
  }
}
