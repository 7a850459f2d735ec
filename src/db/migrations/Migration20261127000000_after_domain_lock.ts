import { Migration } from '@mikro-orm/migrations';

/**
 * A write that must read the domain's current rows (replacing a list, appending after the last
 * asset) locks the domain first and reads after the lock, with a snapshot that sees every write
 * committed before it. `after_domain_lock` does both in one statement, without a transaction
 * around it: it locks the domain's row if it is the client's (FOR NO KEY UPDATE, as every writer
 * does), then runs the write, which PL/pgSQL plans and runs with a snapshot of its own, taken
 * after the lock. The write selects one JSON value (what it wrote), which comes back as `row`;
 * `owned` is false, and nothing runs, when the domain is not the client's.
 */
export class Migration20261127000000_after_domain_lock extends Migration {
  override name = 'Migration20261127000000_after_domain_lock';

  override up(): void {
    this.addSql(
      `create function "after_domain_lock"("domain" uuid, "client" uuid, "write" text) returns json language plpgsql volatile as $$ ` +
        `declare "written" json; ` +
        `begin ` +
        `perform 1 from "domain" d where d."id" = "after_domain_lock"."domain" and d."client_id" = "after_domain_lock"."client" for no key update; ` +
        `if not found then return json_build_object('owned', false); end if; ` +
        `execute "write" into "written"; ` +
        `return json_build_object('owned', true, 'row', "written"); ` +
        `end $$;`,
    );
  }

  override down(): void {
    this.addSql(`drop function if exists "after_domain_lock"(uuid, uuid, text);`);
  }
}
