import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * Removes the revisions nothing needs any more: older than `retentionDays`, not a domain's newest
 * (its current configuration), and named by no consent record that is still kept (the records
 * older than the same limit are gone first, consents/consent-records.ts). Then the parts no
 * remaining revision of those domains is made of. Run with the consent records' retention.
 */
export async function pruneRevisions(
  orm: MikroORM,
  { retentionDays, now = new Date() }: { retentionDays: number; now?: Date },
): Promise<{ revisions: number; parts: number }> {
  const connection = orm.em.fork().getConnection();
  const limit = new Date(now.getTime() - retentionDays * 86_400_000);
  const removed = await connection.execute<{ domainId: string }[]>(
    `delete from "configuration_revision" r
     where r."created_at" < ?
       and r."number" < (select max(l."number") from "configuration_revision" l where l."domain_id" = r."domain_id")
       and not exists (select 1 from "consent_record" c where c."domain_id" = r."domain_id" and c."revision" = r."hash")
     returning r."domain_id" as "domainId"`,
    [limit],
  );
  let parts = 0;
  for (const domainId of new Set(removed.map((row) => row.domainId))) {
    // What the remaining revisions name: in their manifests, and for a large domain's embeddings their buckets, the
    // buckets those are stored as changes of (down to a whole copy), and the embeddings inside all of them (those a
    // later change dropped too: kept a while longer, never one too few).
    const result = await connection.execute(
      `with recursive "buckets" ("hash") as (
         select json_array_elements(r."manifest" -> 'embeddings' -> 'buckets') ->> 0 from "configuration_revision" r where r."domain_id" = ?
         union
         select p."base" from "buckets" b join "configuration_part" p on p."domain_id" = ? and p."hash" = b."hash" where p."base" is not null
       ), "named" as (
         select h from "configuration_revision" r, lateral (
           select r."manifest" ->> 'domain' union all select r."manifest" ->> 'placeholders' union all select r."manifest" ->> 'theme'
           union all select json_array_elements(r."manifest" -> 'embeddings' -> 'inline') ->> 1
           union all select json_array_elements_text(r."manifest" -> 'locales')
         ) as kept(h)
         where r."domain_id" = ? and h is not null
       ), "inside" as (
         select json_array_elements(case when p."base" is null then p."body" else p."body" -> 'put' end) ->> 1 as h from "configuration_part" p
         where p."domain_id" = ? and p."hash" in (select "hash" from "buckets")
       )
       delete from "configuration_part" p
       where p."domain_id" = ? and p."hash" not in (
         select h from "named" union select "hash" from "buckets" where "hash" is not null union select h from "inside" where h is not null)`,
      [domainId, domainId, domainId, domainId, domainId],
      'run',
    );
    parts += (result as { affectedRows?: number }).affectedRows ?? 0;
  }
  return { revisions: removed.length, parts };
}
