import type { Placeholder, PlaceholderCreate, PlaceholderUpdate } from './placeholder.contract.ts';
import { isPlaceholderName } from './placeholder.contract.ts';
import { readingEm, type RequestContext } from '../../kernel/context.ts';
import { lockById } from '../../db/row-lock.ts';
import { inTransaction } from '../../db/transaction.ts';
import { invalid, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { assertDomainScope, type DomainScope } from '../../kernel/access.ts';
import { itemsOfDomain, reachDomain } from '../domains/domain.access.ts';
import { DomainEntity } from '../domains/domain.entity.ts';
import { PlaceholderEntity } from './placeholder.entity.ts';
import { insertRows, rowsParameter, tableOf } from '../../db/set-writes.ts';
import { DUE_REVISION, dueRevision, OWNED_DOMAIN, ownedDomain, runAfterDomainLock } from '../domains/domain-write.ts';
import { placeholderRecord, placeholdersOfDomainLoader } from './placeholder.reads.ts';
import { toPlaceholder } from './placeholder.view.ts';

const DUPLICATE = { duplicate: 'a placeholder with this name already exists in the domain' };

export async function listPlaceholders(ctx: RequestContext, scope: DomainScope): Promise<Placeholder[]> {
  assertDomainScope(ctx.caller, scope);
  return (await itemsOfDomain(ctx, scope, await placeholdersOfDomainLoader(ctx).load(scope.domainId))).map(toPlaceholder);
}

export async function getPlaceholder(ctx: RequestContext, scope: DomainScope, name: string): Promise<Placeholder> {
  assertDomainScope(ctx.caller, scope);
  const row = isPlaceholderName(name) ? await placeholderRecord(readingEm(ctx), scope, name) : undefined;
  if (row) return toPlaceholder(row);
  await reachDomain(ctx, scope); // 404 for the domain or client, if that is what is missing
  throw notFound(`placeholder ${name}`);
}

export async function createPlaceholder(
  ctx: RequestContext,
  scope: DomainScope,
  input: PlaceholderCreate,
): Promise<Placeholder> {
  const domain = await reachDomain(ctx, scope);
  return inTransaction(
    ctx,
    async (em) => {
      // Queues behind a bulk replace of the domain's placeholders, which would otherwise find the
      // name taken half-way through its own list.
      await lockById(em, DomainEntity, domain.id);
      // A name the domain already has fails on the unique index: 409.
      const row = em.create(PlaceholderEntity, {
        id: newId(),
        domain: em.getReference(DomainEntity, domain.id),
        name: input.name,
        value: input.value,
      });
      await em.flush();
      return toPlaceholder(row);
    },
    DUPLICATE,
  );
}

/**
 * The domain's placeholders become exactly `items`, in one statement committed on its own: after
 * the domain's lock (concurrent replaces queue), the old list deleted and the new one inserted.
 */
export async function replacePlaceholders(
  ctx: RequestContext,
  scope: DomainScope,
  items: PlaceholderCreate[],
): Promise<Placeholder[]> {
  const em = ctx.em;
  const now = new Date();
  const rows = items.map((item) => ({ id: newId(), domain: scope.domainId, name: item.name, value: item.value, createdAt: now, updatedAt: now }));
  // The insert waits for the delete (it reads its count), so the old names are gone before the new ones
  // arrive; a name twice in `items` fails on the unique index: 409.
  // Its revision noted as due in the same statement (recorded just after the commit).
  await runAfterDomainLock(
    ctx,
    scope,
    `with ${OWNED_DOMAIN},
       "gone" as (delete from ${tableOf(em, PlaceholderEntity)} where "domain_id" = ? returning 1),
       ${DUE_REVISION('true')},
       "added" as (${insertRows(em, PlaceholderEntity, '(select count(*) from "gone") >= 0')} returning 1)
     select json_build_object('added', (select count(*) from "added"))`,
    [...ownedDomain(ctx, scope), scope.domainId, ...dueRevision(ctx, ['placeholder']), rowsParameter(em, PlaceholderEntity, rows)],
    DUPLICATE,
  );
  await ctx.services.writeTransactions.committed(ctx, [scope.domainId]);
  return rows.map(toPlaceholder);
}

export async function updatePlaceholder(
  ctx: RequestContext,
  scope: DomainScope,
  name: string,
  input: PlaceholderUpdate,
): Promise<Placeholder> {
  if (input.name !== undefined && input.name !== name) {
    throw invalid('a placeholder cannot be renamed', [
      { path: '/name', message: `must be absent or equal to the placeholder's name "${name}"` },
    ]);
  }
  const domain = await reachDomain(ctx, scope);
  return inTransaction(ctx, async (em) => {
    const row = isPlaceholderName(name) ? await em.findOne(PlaceholderEntity, { domain: domain.id, name }) : null;
    if (!row) throw notFound(`placeholder ${name}`);
    if (input.value !== undefined) row.value = input.value;
    await em.flush();
    return toPlaceholder(row);
  });
}

export async function deletePlaceholder(ctx: RequestContext, scope: DomainScope, name: string): Promise<void> {
  const domain = await reachDomain(ctx, scope);
  if (!isPlaceholderName(name)) throw notFound(`placeholder ${name}`);
  // In a transaction of its own, so that the configuration it leaves is kept as a revision.
  await inTransaction(ctx, async (em) => {
    if ((await em.nativeDelete(PlaceholderEntity, { domain: domain.id, name })) === 0) throw notFound(`placeholder ${name}`);
  });
}
