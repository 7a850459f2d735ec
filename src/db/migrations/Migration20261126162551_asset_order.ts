import { Migration } from '@mikro-orm/migrations';

/** An embedding's assets are read in their order: the index on (embedding_id, position) gives them sorted, and replaces the one on embedding_id. */
export class Migration20261126162551_asset_order extends Migration {
  override name = 'Migration20261126162551_asset_order';

  override up(): void {
    this.addSql(`create index "embedding_asset_embedding_id_position_index" on "embedding_asset" ("embedding_id", "position");`);
    this.addSql(`drop index "embedding_asset_embedding_id_index";`);
  }

  override down(): void {
    this.addSql(`create index "embedding_asset_embedding_id_index" on "embedding_asset" ("embedding_id");`);
    this.addSql(`drop index "embedding_asset_embedding_id_position_index";`);
  }
}
