import type { Placeholder, PlaceholderCreate, PlaceholderUpdate } from '../../contract/placeholder.ts';
import { PLACEHOLDER_NAME_PATTERN } from '../../contract/placeholder.ts';
import type { RequestContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { invalid, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { type DomainScope, requireDomain } from '../domains/domain.scope.ts';
import { PlaceholderEntity, type PlaceholderRow } from './placeholder.entity.ts';

const DUPLICATE = { duplicate: 'a placeholder with this name already exists in the domain' };

export const toPlaceholder = (row: PlaceholderRow): Placeholder => ({ name: row.name, value: row.value });

export async function listPlaceholders(ctx: RequestContext, scope: DomainScope): Promise<Placeholder[]> {
  const domain = await requireDomain(ctx, scope);
  return (await ctx.loaders.placeholdersOfDomain.load(domain.id)).map(toPlaceholder);
}

export async function getPlaceholder(ctx: RequestContext, scope: DomainScope, name: string): Promise<Placeholder> {
  const domain = await requireDomain(ctx, scope);
  const row = PLACEHOLDER_NAME_PATTERN.test(name) ? await ctx.em.findOne(PlaceholderEntity, { domain, name }) : null;
  if (!row) throw notFound(`placeholder ${name}`);
  return toPlaceholder(row);
}

export async function createPlaceholder(
  ctx: RequestContext,
  scope: DomainScope,
  input: PlaceholderCreate,
): Promise<Placeholder> {
  return inTransaction(
    ctx.em,
    async (em) => {
      const domain = await requireDomain({ ...ctx, em, lock: true }, scope);
      // A name the domain already has fails on the unique index: 409.
      const row = em.create(PlaceholderEntity, { id: newId(), domain, name: input.name, value: input.value });
      await em.flush();
      return toPlaceholder(row);
    },
    DUPLICATE,
  );
}

/** The domain's placeholders become exactly `items`, in one transaction. */
export async function replacePlaceholders(
  ctx: RequestContext,
  scope: DomainScope,
  items: PlaceholderCreate[],
): Promise<Placeholder[]> {
  return inTransaction(
    ctx.em,
    async (em) => {
      const domain = await requireDomain({ ...ctx, em, lock: true }, scope);
      await em.nativeDelete(PlaceholderEntity, { domain });
      const rows = items.map((item) =>
        em.create(PlaceholderEntity, { id: newId(), domain, name: item.name, value: item.value }),
      );
      await em.flush();
      return rows.map(toPlaceholder);
    },
    DUPLICATE,
  );
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
  return inTransaction(ctx.em, async (em) => {
    const domain = await requireDomain({ ...ctx, em, lock: true }, scope);
    const row = PLACEHOLDER_NAME_PATTERN.test(name) ? await em.findOne(PlaceholderEntity, { domain, name }) : null;
    if (!row) throw notFound(`placeholder ${name}`);
    if (input.value !== undefined) row.value = input.value;
    await em.flush();
    return toPlaceholder(row);
  });
}

export async function deletePlaceholder(ctx: RequestContext, scope: DomainScope, name: string): Promise<void> {
  await inTransaction(ctx.em, async (em) => {
    const domain = await requireDomain({ ...ctx, em, lock: true }, scope);
    const deleted = PLACEHOLDER_NAME_PATTERN.test(name) ? await em.nativeDelete(PlaceholderEntity, { domain, name }) : 0;
    if (deleted === 0) throw notFound(`placeholder ${name}`);
  });
}
