import { type Client, type ClientCreate, clientDefaults, type ClientUpdate } from '../../contract/client.ts';
import { isAdmin, type RequestContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { conflict, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { requireClient } from '../domains/domain.scope.ts';
import { ClientEntity, type ClientRow } from './client.entity.ts';

const DUPLICATE = { duplicate: 'a client with this username already exists' };

export const toClient = (row: ClientRow): Client => ({
  id: row.id,
  username: row.username,
  emailAddress: row.emailAddress,
  firstName: row.firstName,
  lastName: row.lastName,
  company: row.company,
  active: row.active,
});

/** The administrator sees every client; a client key sees only its own. */
export async function listClients(ctx: RequestContext): Promise<Client[]> {
  const where = ctx.caller.kind === 'admin' ? {} : { id: ctx.caller.clientId };
  const rows = await ctx.em.find(ClientEntity, where, { orderBy: { id: 'asc' } });
  return rows.map(toClient);
}

export async function getClient(ctx: RequestContext, clientId: string): Promise<Client> {
  return toClient(await requireClient(ctx, clientId));
}

/** Only the administrator creates clients; to a client key the route does not exist. */
export async function createClient(ctx: RequestContext, input: ClientCreate): Promise<Client> {
  if (!isAdmin(ctx.caller)) throw notFound('resource');
  return inTransaction(
    ctx.em,
    async (em) => {
      if (await em.count(ClientEntity, { username: input.username })) throw conflict(DUPLICATE.duplicate);
      const { id: _ignored, ...fields } = input;
      const row = em.create(ClientEntity, { ...clientDefaults, ...fields, id: newId() });
      await em.flush();
      return toClient(row);
    },
    DUPLICATE,
  );
}

export async function updateClient(ctx: RequestContext, clientId: string, input: ClientUpdate): Promise<Client> {
  return inTransaction(
    ctx.em,
    async (em) => {
      const row = await requireClient({ ...ctx, em, lock: true }, clientId);
      const { id: _ignored, ...fields } = input;
      if (fields.username !== undefined && fields.username !== row.username) {
        if (await em.count(ClientEntity, { username: fields.username })) throw conflict(DUPLICATE.duplicate);
      }
      em.assign(row, fields);
      await em.flush();
      return toClient(row);
    },
    DUPLICATE,
  );
}

/** Deletes the client and, through the database's cascades, everything beneath it (its API keys too). */
export async function deleteClient(ctx: RequestContext, clientId: string): Promise<void> {
  await inTransaction(ctx.em, async (em) => {
    const row = await requireClient({ ...ctx, em, lock: true }, clientId);
    await em.nativeDelete(ClientEntity, { id: row.id });
  });
  ctx.services.keys.forgetClient(clientId);
  ctx.loaders.domain.clearAll();
}
