import type { ApiKey, ApiKeyCreate, CreatedApiKey, RevokedApiKeys } from './api-key.contract.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { conflict, forbidden, notFound } from '../../kernel/errors.ts';
import { isId, newId } from '../../kernel/ids.ts';
import { requireClient } from '../clients/client.access.ts';
import { ApiKeyEntity } from './api-key.entity.ts';
import { toApiKey } from './api-key.view.ts';
import { generateKey } from './key-material.ts';

export type ApiKeyScope = { clientId: string; keyId: string };

/** Keys one client may hold at once, whoever creates them: a stolen key cannot mint keys without end. */
export const MAX_KEYS_PER_CLIENT = 20;

export async function createApiKey(ctx: RequestContext, clientId: string, input: ApiKeyCreate): Promise<CreatedApiKey> {
  return inTransaction(ctx, async (em) => {
    // Locked, so that concurrent creates count one after another against the cap.
    const client = await requireClient({ ...ctx, em, lock: true }, clientId);
    if ((await em.count(ApiKeyEntity, { client })) >= MAX_KEYS_PER_CLIENT) {
      throw conflict(`the client already holds ${MAX_KEYS_PER_CLIENT} API keys, the most it may; revoke one first`);
    }
    const { key, prefix, hash } = generateKey();
    const createdBy = ctx.caller.kind === 'client' ? ctx.caller.keyId : null;
    const row = em.create(ApiKeyEntity, { id: newId(), client, name: input.name, prefix, hash, createdBy });
    await em.flush();
    return { ...toApiKey(row), key };
  });
}

export async function listApiKeys(ctx: RequestContext, clientId: string): Promise<ApiKey[]> {
  const client = await requireClient(ctx, clientId);
  const rows = await ctx.em.find(ApiKeyEntity, { client }, { orderBy: { id: 'asc' } });
  return rows.map(toApiKey);
}

/**
 * Revokes (deletes) the key; requests made with it are refused from then on. The administrator
 * revokes any key; a client key only those it created, and itself.
 */
export async function revokeApiKey(ctx: RequestContext, scope: ApiKeyScope): Promise<void> {
  await inTransaction(ctx, async (em) => {
    const client = await requireClient({ ...ctx, em }, scope.clientId);
    const row = isId(scope.keyId) ? await em.findOne(ApiKeyEntity, { id: scope.keyId, client }) : null;
    if (!row) throw notFound(`API key ${scope.keyId}`);
    const { caller } = ctx;
    if (caller.kind === 'client' && row.id !== caller.keyId && row.createdBy !== caller.keyId) {
      throw forbidden('a client key may revoke only itself and the keys it created; the administrator revokes the others');
    }
    await em.nativeDelete(ApiKeyEntity, { id: row.id });
  });
  ctx.services.keys.forget(scope.keyId);
}

/**
 * After a leak: revokes every key of the client but the one asking, in one go (the
 * administrator: every key of the client). A key the administrator handed out may do it; a key
 * made by another key may not, as it may not revoke its maker one by one either. Requests with
 * the revoked keys are refused at once in this process, within the key ring's cache time in others.
 */
export async function revokeOtherApiKeys(ctx: RequestContext, clientId: string): Promise<RevokedApiKeys> {
  const { caller } = ctx;
  const keep = caller.kind === 'client' ? caller.keyId : undefined;
  const revoked = await inTransaction(ctx, async (em) => {
    const client = await requireClient({ ...ctx, em }, clientId);
    if (keep !== undefined && (await em.findOne(ApiKeyEntity, { id: keep }))?.createdBy) {
      throw forbidden("a key made by another key may not revoke the client's other keys; a key the administrator made, or the administrator, may");
    }
    const rows = await em.find(ApiKeyEntity, keep === undefined ? { client } : { client, id: { $ne: keep } }, { fields: ['id'], orderBy: { id: 'asc' } });
    const ids = rows.map((row) => row.id);
    if (ids.length > 0) await em.nativeDelete(ApiKeyEntity, { id: { $in: ids } });
    return ids;
  });
  for (const id of revoked) ctx.services.keys.forget(id);
  return { revoked };
}
