import { Migration } from '@mikro-orm/migrations';

/**
 * A revision round runs without a transaction or a lock (features/revisions/revision-recorder.ts):
 * one statement reads the domain's due rows with what they changed and the newest revision, a
 * second deletes those due rows and stores the next revision. The second may store only if no
 * other round came between the two: every due row it read must still be there for it to delete,
 * and the newest revision must still be the one it built on. `revision_round_next` checks this
 * where the revision's number is chosen and fails the statement with a serialization failure
 * (40001) otherwise, so the deletes roll back with it and the round reads again.
 */
export class Migration20261126190000_revision_round extends Migration {
  override name = 'Migration20261126190000_revision_round';

  override up(): void {
    this.addSql(
      `create function "revision_round_next"("deleted" bigint, "read" integer, "newest" integer, "base" integer) returns integer language plpgsql as $$ ` +
        `begin ` +
        `if "deleted" <> "read" or "newest" is distinct from "base" then ` +
        `raise exception 'another round recorded this domain''s revision meanwhile' using errcode = '40001'; ` +
        `end if; ` +
        `return coalesce("newest", 0) + 1; ` +
        `end $$;`,
    );
  }

  override down(): void {
    this.addSql(`drop function if exists "revision_round_next"(bigint, integer, integer, integer);`);
  }
}
