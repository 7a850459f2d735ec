import type { EntityManager } from '@mikro-orm/postgresql';
import { assertDomainScope, type DomainScope } from '../../kernel/access.ts';
import type { Caller, RequestContext } from '../../kernel/context.ts';
import { executePrepared } from '../../db/prepared-statements.ts';
import { translateDatabaseError } from '../../db/transaction.ts';
import { missingDomain } from './domain.access.ts';

/**
 * The hot writes beneath a domain (embeddings, placeholders) check whose the domain is and lock
 * its row in their own first statement, instead of reading the owner first and locking it next:
 * `with ${OWNED_DOMAIN}, … insert … where exists (select 1 from "owned_domain")`, its parameters
 * `ownedDomain(scope)` first. The lock (FOR NO KEY UPDATE, as everywhere: db/row-lock.ts) queues
 * the domain's writers and makes the transaction's later statements read what every earlier writer
 * committed. The write's revision is recorded after its commit, off the lock (`DUE_REVISION`).
 *
 * That statement itself read with a snapshot taken before it waited for the lock, so it may only
 * write what does not depend on reading the domain's other rows: inserting rows, or changing and
 * deleting rows by id (PostgreSQL re-reads a row a concurrent writer changed). A write that must
 * read the current rows (replacing a list) runs after the lock (`runAfterDomainLock`).
 */
export const OWNED_DOMAIN = `"owned_domain" as (select "id" from "domain" where "id" = ? and "client_id" = ? for no key update)`;

/** The parameters of `OWNED_DOMAIN`, once the caller may reach the scope at all. */
export function ownedDomain(ctx: RequestContext, scope: DomainScope): [string, string] {
  assertDomainScope(ctx.caller, scope);
  return [scope.domainId, scope.clientId];
}

/**
 * Runs a hot write's one statement, committed on its own (`with ${OWNED_DOMAIN}, …`, selecting
 * `(select count(*) from "owned_domain")::int as "owned"` with what it wrote): a database error
 * as the service's error, a domain that is not the client's as its 404, else the statement's row.
 * The caller then checks what was written and has its revision recorded (`committed`).
 */
export async function runOwnedDomainWrite<Row extends { owned: number }>(
  ctx: RequestContext,
  scope: DomainScope,
  sql: string,
  params: readonly unknown[],
): Promise<Row> {
  const [row] = await executePrepared<Row>(ctx.em, sql, params).catch((error: unknown) => {
    throw translateDatabaseError(error);
  });
  if (row?.owned !== 1) throw await missingDomain(ctx, scope);
  return row;
}

/**
 * Runs a write that reads the domain's current rows, committed on its own, in one statement: the
 * server's `after_domain_lock` (Migration20261127000000_after_domain_lock) locks the domain if it
 * is the client's, then runs `sql` with a snapshot taken after the lock, so it reads every write
 * committed before. `sql` (`with ${OWNED_DOMAIN}, …` as a hot write's, its values written into it
 * as `em.execute` writes them) selects one JSON value, which is returned; a database error as the
 * service's error, a domain that is not the client's as its 404. The caller has its revision
 * recorded (`committed`).
 */
export async function runAfterDomainLock<Row>(
  ctx: RequestContext,
  scope: DomainScope,
  sql: string,
  params: readonly unknown[],
  messages: Parameters<typeof translateDatabaseError>[1] = {},
): Promise<Row> {
  const write = ctx.em.getPlatform().formatQuery(sql, [...params]);
  const [result] = await executePrepared<{ done: { owned: boolean; row: Row } }>(
    ctx.em,
    `select "after_domain_lock"(?::uuid, ?::uuid, ?) as "done"`,
    [...ownedDomain(ctx, scope), write],
  ).catch((error: unknown) => {
    throw translateDatabaseError(error, messages);
  });
  if (!result?.done.owned) throw await missingDomain(ctx, scope);
  return result.done.row;
}

/** Locks the domain's row in a statement of its own, if it is the client's; otherwise the 404. */
export async function lockOwnedDomain(ctx: RequestContext, em: EntityManager, scope: DomainScope): Promise<void> {
  const rows = await em.execute<{ id: string }[]>(`with ${OWNED_DOMAIN} select "id" from "owned_domain"`, ownedDomain(ctx, scope));
  // Asked with `em`: inside a transaction on the embedded database, the transaction holds its one session.
  if (rows.length === 0) throw await missingDomain({ ...ctx, em }, scope);
}

/** What a revision names as its maker: the key's id and name, never the key. */
export function makerOf(caller: Caller): { id: string | null; name: string } {
  if (caller.keyName !== undefined) return { id: caller.keyId ?? null, name: caller.keyName };
  return caller.kind === 'admin' ? { id: null, name: 'administrator' } : { id: caller.keyId, name: 'client key' };
}

/**
 * A common table expression for a hot write's statement, after `OWNED_DOMAIN`: notes that the
 * domain's configuration changed (a `revision_due` row, recorded as a revision just after the
 * commit: features/revisions/revision-recorder.ts), when `condition` holds (e.g. that a row was
 * written). Its parameters: `dueRevision(…)`, in the statement's parameters where it stands.
 */
export const DUE_REVISION = (condition: string) =>
  `"due_revision" as (insert into "revision_due" ("domain_id", "key_id", "key_name", "tables", "embeddings") ` +
  `select "id", ?::uuid, ?, ?::text[], ?::uuid[] from "owned_domain" where ${condition} returning "domain_id")`;

/** The parameters of `DUE_REVISION`: the maker, the tables and the embeddings the write changes. */
export function dueRevision(ctx: RequestContext, tables: readonly string[], embeddings: readonly string[] = []): unknown[] {
  const maker = makerOf(ctx.caller);
  return [maker.id, maker.name, `{${tables.join(',')}}`, `{${embeddings.join(',')}}`];
}
