import type { ApiKey, ApiKeyCreate, CreatedApiKey } from '../../contract/api-key.ts';
import type { RequestContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { notFound } from '../../errors.ts';
import { isId, newId } from '../../ids.ts';
import { requireClient } from '../domains/domain.scope.ts';
import { ApiKeyEntity, type ApiKeyRow } from './api-key.entity.ts';
import { generateKey } from './key-material.ts';

export type ApiKeyScope = { clientId: string; keyId: string };

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.createdAt.toISOString(),
});

export async function createApiKey(ctx: RequestContext, clientId: string, input: ApiKeyCreate): Promise<CreatedApiKey> {
  return inTransaction(ctx.em, async (em) => {
    const client = await requireClient({ ...ctx, em }, clientId);
    const { key, prefix, hash } = generateKey();
    const row = em.create(ApiKeyEntity, { id: newId(), client, name: input.name, prefix, hash });
    await em.flush();
    return { ...toApiKey(row), key };
  });
}

export async function listApiKeys(ctx: RequestContext, clientId: string): Promise<ApiKey[]> {
  const client = await requireClient(ctx, clientId);
  const rows = await ctx.em.find(ApiKeyEntity, { client }, { orderBy: { id: 'asc' } });
  return rows.map(toApiKey);
}

/** Revokes (deletes) the key; requests made with it are refused from then on. */
export async function revokeApiKey(ctx: RequestContext, scope: ApiKeyScope): Promise<void> {
  await inTransaction(ctx.em, async (em) => {
    const client = await requireClient({ ...ctx, em }, scope.clientId);
    const deleted = isId(scope.keyId) ? await em.nativeDelete(ApiKeyEntity, { id: scope.keyId, client }) : 0;
    if (deleted === 0) throw notFound(`API key ${scope.keyId}`);
  });
  ctx.services.keys.forget(scope.keyId);
}
