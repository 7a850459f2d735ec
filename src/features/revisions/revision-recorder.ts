import type { EntityManager } from '@mikro-orm/postgresql';
import { type Caller, domainsReached, perRequest, type RequestContext } from '../../kernel/context.ts';
import { readPublishedConfigurationWith } from '../banner/published-configuration.ts';
import { storeRevision } from './revision-store.ts';

/** What a revision names as its maker: the key's id and name, never the key. */
export function makerOf(caller: Caller): { id: string | null; name: string } {
  if (caller.keyName !== undefined) return { id: caller.keyId ?? null, name: caller.keyName };
  return caller.kind === 'admin' ? { id: null, name: 'administrator' } : { id: caller.keyId, name: 'client key' };
}

/** Domains this request restores, with the revision each restores (read when the restore's transaction records its revision). */
export const restoresOfRequest = perRequest(() => new Map<string, number>());

/**
 * Runs first in every write transaction: locks the rows of the domains the request reached
 * (`reachDomain`), in id order, before the work locks anything beneath them. Every write of a
 * domain takes its lock (below, for its revision) — taken first, the locks of a domain and its
 * objects are always taken in one order, and writers queue instead of deadlocking.
 */
export async function lockReachedDomains(em: EntityManager, ctx: RequestContext): Promise<void> {
  const ids = [...domainsReached(ctx)].sort();
  if (ids.length === 0) return;
  await em.execute(`select "id" from "domain" where "id" = any(?::uuid[]) order by "id" for no key update`, [`{${ids.join(',')}}`]);
}

/**
 * Runs in every write transaction, after its work and before it commits (db/transaction.ts):
 * for each domain whose published configuration a statement of the transaction touched (the
 * database's triggers note them in `app.changed_domains`), takes the domain's row lock and keeps
 * the configuration as it now reads as a new revision, unless nothing visible changed.
 *
 * The lock makes the writes of one domain take their revisions one after the other: a
 * transaction that waited for it reads, in its next statements, what the other committed, so
 * its revision holds both writes and no committed state goes without one.
 */
export async function recordRevisions(em: EntityManager, ctx: RequestContext): Promise<void> {
  const changed = await em.execute<{ id: string }[]>(
    `select "id" from "domain"
     where "id" = any(string_to_array(nullif(current_setting('app.changed_domains', true), ''), ',')::uuid[])
     order by "id" for no key update`,
  );
  for (const { id } of changed) {
    const published = await readPublishedConfigurationWith(em, ctx.services, id);
    if (!published) continue;
    await storeRevision(em, id, published, { key: makerOf(ctx.caller), restoredFrom: restoresOfRequest(ctx).get(id) ?? null });
  }
}
