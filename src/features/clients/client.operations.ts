import { type Client, type ClientCreate, clientDefaults, type ClientUpdate } from './client.contract.ts';
import { isAdmin, type RequestContext, forgetRequestReads } from '../../kernel/context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { conflict, forbidden, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { requireClient } from './client.access.ts';
import { ClientEntity } from './client.entity.ts';
import { toClient } from './client.view.ts';

const DUPLICATE = { duplicate: 'a client with this username already exists' };

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

/** What only the administrator changes on a client: a client key may not rename or (de)activate its account. */
const ADMINISTERED_FIELDS = ['username', 'active'] as const;

/**
 * Updates the client. A client key may change its own contact fields; sending `username` or
 * `active` back unchanged is fine, changing them is the administrator's (403).
 */
export async function updateClient(ctx: RequestContext, clientId: string, input: ClientUpdate): Promise<Client> {
  const updated = await inTransaction(
    ctx.em,
    async (em) => {
      const row = await requireClient({ ...ctx, em, lock: true }, clientId);
      const { id: _ignored, ...fields } = input;
      if (!isAdmin(ctx.caller)) {
        const changed = ADMINISTERED_FIELDS.filter((field) => fields[field] !== undefined && fields[field] !== row[field]);
        if (changed.length > 0) throw forbidden(`only the administrator changes a client's ${changed.join(' and ')}`);
      }
      if (fields.username !== undefined && fields.username !== row.username) {
        if (await em.count(ClientEntity, { username: fields.username })) throw conflict(DUPLICATE.duplicate);
      }
      em.assign(row, fields);
      await em.flush();
      return toClient(row);
    },
    DUPLICATE,
  );
  // Whether its keys are let in depends on `active`: decided afresh from now on.
  ctx.services.keys.forgetClient(clientId);
  return updated;
}

/**
 * Deletes the client and, through the database's cascades, everything beneath it (its API keys
 * too). Only the administrator deletes a client; its own key gets 403.
 */
export async function deleteClient(ctx: RequestContext, clientId: string): Promise<void> {
  await inTransaction(ctx.em, async (em) => {
    const row = await requireClient({ ...ctx, em, lock: true }, clientId);
    if (!isAdmin(ctx.caller)) throw forbidden("only the administrator deletes a client; a client key may not delete its own account");
    await em.nativeDelete(ClientEntity, { id: row.id });
  });
  ctx.services.keys.forgetClient(clientId);
  forgetRequestReads(ctx);
}
