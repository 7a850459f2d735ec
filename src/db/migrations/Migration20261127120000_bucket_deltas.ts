import { Migration } from '@mikro-orm/migrations';

/**
 * A large domain's embedding bucket is stored as its change to the bucket it was made from
 * (features/revisions/revision-store.ts, `bucketsOf`): `base` names that bucket's part, and the
 * body is then `{"drop": [ids], "put": [entries]}`. A revision round rewrote a whole bucket, some
 * 11 KB at 5,000 embeddings, per embedding it added or removed; its change is one entry. Parts
 * stored before keep their whole text (`base` null).
 */
export class Migration20261127120000_bucket_deltas extends Migration {
  override name = 'Migration20261127120000_bucket_deltas';

  override up(): void {
    this.addSql(`alter table "configuration_part" add column "base" text null;`);
  }

  /**
   * Every stored change made whole again, as the service writes a bucket: its entries sorted by id,
   * in JSON without spaces (ids and hashes need no escaping), so its text hashes to its key again.
   */
  override down(): void {
    this.addSql(
      `with recursive "whole" ("domain_id", "hash", "entries") as (
         select "domain_id", "hash", "body" from "configuration_part" where "base" is null
         union all
         select p."domain_id", p."hash",
           (select coalesce(json_agg(e order by (e ->> 0) collate "C"), '[]'::json) from (
              select e from json_array_elements(w."entries") as e
              where not exists (select 1 from json_array_elements_text(p."body" -> 'drop') as d where d = e ->> 0)
              union all
              select json_array_elements(p."body" -> 'put')
            ) as x(e))
         from "whole" w join "configuration_part" p on p."domain_id" = w."domain_id" and p."base" = w."hash"
       )
       update "configuration_part" p
       set "body" = (select '[' || coalesce(string_agg(format('["%s","%s","%s"]', e ->> 0, e ->> 1, e ->> 2), ',' order by (e ->> 0) collate "C"), '') || ']'
                     from json_array_elements(w."entries") as e)::json
       from "whole" w
       where p."domain_id" = w."domain_id" and p."hash" = w."hash" and p."base" is not null;`,
    );
    this.addSql(`alter table "configuration_part" drop column "base";`);
  }
}
