import bcrypt from 'bcryptjs';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type Client,
  type ClientCreate,
  clientDefaults,
  type ClientFeature,
  FEATURE_DEFAULTS,
  type ClientListItem,
  type DomainCallCount,
  type ClientUpdate,
} from './client.contract.ts';
import { isAdmin, type RequestContext, forgetRequestReads } from '../../kernel/context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { conflict, forbidden, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { requireClient } from './client.access.ts';
import { ClientEntity, type ClientRow } from './client.entity.ts';
import { toClient } from './client.view.ts';

const DUPLICATE = { duplicate: 'a client with this username already exists' };

/** bcrypt's cost for the passwords the service hashes itself (2^10 rounds). */
const BCRYPT_COST = 10;

/**
 * The hash to store for a write: `password` hashed (it wins when both are sent), or the
 * `passwordHash` sent, or undefined when the write names neither. Hashed off the event loop's
 * critical path (bcryptjs's async API yields between rounds), before any transaction opens.
 */
async function hashOf(input: { password?: string; passwordHash?: string }): Promise<string | undefined> {
  if (input.password !== undefined) return bcrypt.hash(input.password, BCRYPT_COST);
  return input.passwordHash;
}

/** The counts of the client read afresh (they are read with the client, not kept up to date in memory). */
const reread = async (ctx: RequestContext, id: string): Promise<Client> =>
  toClient(await ctx.em.fork().findOneOrFail(ClientEntity, id));

/**
 * The administrator sees every client; a client key sees only its own. Each comes with its
 * banner loads this month, in all and per domain.
 */
export async function listClients(ctx: RequestContext): Promise<ClientListItem[]> {
  const own = ctx.caller.kind === 'admin' ? undefined : ctx.caller.clientId;
  const rows = await ctx.em.find(ClientEntity, own ? { id: own } : {}, { orderBy: { id: 'asc' } });
  const domains = await ctx.em.execute<{ clientId: string; host: string; loads: number }[]>(
    `select d."client_id" as "clientId", d."host",
       (select coalesce(sum(w."count"), 0)::int from "widget_display" w
        where w."domain_id" = d."id" and w."month" = to_char(now() at time zone 'utc', 'YYYY-MM')) as "loads"
     from "domain" d${own ? ' where d."client_id" = ?' : ''} order by d."host", d."id"`,
    own ? [own] : [],
  );
  const callsPerDomain = new Map<string, DomainCallCount[]>();
  for (const { clientId, host, loads } of domains) {
    callsPerDomain.set(clientId, [...(callsPerDomain.get(clientId) ?? []), { domName: host, count: loads }]);
  }
  return rows.map((row) => ({ ...toClient(row), actualCallCount: row.widgetDisplayCount ?? 0, domainCountData: callsPerDomain.get(row.id) ?? [] }));
}

export async function getClient(ctx: RequestContext, clientId: string): Promise<Client> {
  return toClient(await requireClient(ctx, clientId));
}

/**
 * The client whose username is exactly `searchTerm`, or else whose e-mail address is it in any
 * case (the first by id when several share the address): addresses are told apart without case.
 * A client key finds only its own client.
 */
export async function findClient(ctx: RequestContext, searchTerm: string): Promise<Client> {
  const missing = () => notFound('client');
  // No username or e-mail address holds NUL or a lone surrogate, or is longer than 320 characters.
  if (searchTerm.length > 320 || !searchTerm.isWellFormed() || searchTerm.includes('\u0000')) throw missing();
  if (!isAdmin(ctx.caller)) {
    const own = ctx.caller.kind === 'client' ? await ctx.em.findOne(ClientEntity, ctx.caller.clientId) : null;
    if (!own || (own.username !== searchTerm && !sameAddress(own.emailAddress, searchTerm))) throw missing();
    return toClient(own);
  }
  const row = (await ctx.em.findOne(ClientEntity, { username: searchTerm })) ?? (await clientByAddress(ctx, searchTerm));
  if (!row) throw missing();
  return toClient(row);
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The first client by id whose e-mail address is `address` in any case. */
async function clientByAddress(ctx: RequestContext, address: string): Promise<ClientRow | null> {
  const [hit] = await ctx.em.execute<{ id: string }[]>(
    'select "id" from "client" where lower("email_address") = lower(?) order by "id" limit 1',
    [address],
  );
  return hit ? ctx.em.findOne(ClientEntity, hit.id) : null;
}

/** Only the administrator creates clients; to a client key the route does not exist. */
export async function createClient(ctx: RequestContext, input: ClientCreate): Promise<Client> {
  if (!isAdmin(ctx.caller)) throw notFound('resource');
  const passwordHash = await hashOf(input);
  return inTransaction(
    ctx,
    async (em) => {
      if (await em.count(ClientEntity, { username: input.username })) throw conflict(DUPLICATE.duplicate);
      const { id: _id, password: _password, passwordHash: _hash, domainCount: _d, whitelabelCount: _w, widgetDisplayCount: _c, ...fields } =
        input;
      const row = em.create(ClientEntity, {
        ...clientDefaults,
        ...fields,
        features: fields.features ?? {},
        passwordHash: passwordHash ?? null,
        // Read with the client from now on; a new client has no domains.
        domainCount: 0,
        whitelabelCount: 0,
        widgetDisplayCount: 0,
        id: newId(),
      });
      await em.flush();
      return toClient(row);
    },
    DUPLICATE,
  );
}

/** What only the administrator changes on a client: a client key may not rename, (de)activate or raise its account's limits. */
const ADMINISTERED_FIELDS = ['username', 'active', 'domainMaxCount', 'whitelabelMaxCount', 'widgetDisplayMaxCount', 'autoCreateDomains'] as const;

/** The fields a client key's update would change but may not. */
function administeredChanges(row: ClientRow, fields: Omit<ClientUpdate, 'id'>): string[] {
  const changed: string[] = ADMINISTERED_FIELDS.filter((field) => fields[field] !== undefined && fields[field] !== row[field]);
  const features = Object.entries(fields.features ?? {}) as [ClientFeature, boolean | undefined][];
  if (features.some(([name, value]) => value !== undefined && value !== (row.features[name] ?? FEATURE_DEFAULTS[name]))) changed.push('features');
  return changed;
}

/**
 * Updates the client. A client key may change its own contact fields and password; sending an
 * administered field back unchanged is fine, changing it is the administrator's (403). A
 * partial `features` changes only the switches it names; no password leaves the password.
 */
export async function updateClient(ctx: RequestContext, clientId: string, input: ClientUpdate): Promise<Client> {
  const passwordHash = await hashOf(input);
  await inTransaction(
    ctx,
    async (em) => {
      const row = await requireClient({ ...ctx, em, lock: true }, clientId);
      const { id: _id, password: _password, passwordHash: _hash, domainCount: _d, whitelabelCount: _w, widgetDisplayCount: _c, features, ...fields } =
        input;
      if (!isAdmin(ctx.caller)) {
        const changed = administeredChanges(row, input);
        if (changed.length > 0) throw forbidden(`only the administrator changes a client's ${changed.join(', ')}`);
      }
      if (fields.username !== undefined && fields.username !== row.username) {
        if (await em.count(ClientEntity, { username: fields.username })) throw conflict(DUPLICATE.duplicate);
      }
      em.assign(row, fields);
      const before = JSON.stringify(toClient(row).features);
      if (features !== undefined) row.features = { ...row.features, ...features };
      if (passwordHash !== undefined) row.passwordHash = passwordHash;
      await em.flush();
      if (JSON.stringify(toClient(row).features) !== before) await announceClientDomains(em, row.id);
    },
    DUPLICATE,
  );
  // Whether its keys are let in depends on `active`: decided afresh from now on.
  ctx.services.keys.forgetClient(clientId);
  return reread(ctx, clientId);
}

/**
 * The banner ignores what a switched-off feature governs (banner/client-features.ts), and the
 * switches are no part of a domain's revisions: a change of them announces every domain of the
 * client on the banner's channel, at COMMIT, so every process reads its banners again.
 */
async function announceClientDomains(em: EntityManager, clientId: string): Promise<void> {
  await em.execute(`select pg_notify('published_configuration', "id"::text) from "domain" where "client_id" = ?`, [clientId]);
}

/**
 * Deletes the client and, through the database's cascades, everything beneath it (its API keys
 * too). Only the administrator deletes a client; its own key gets 403.
 */
export async function deleteClient(ctx: RequestContext, clientId: string): Promise<void> {
  await inTransaction(ctx, async (em) => {
    const row = await requireClient({ ...ctx, em, lock: true }, clientId);
    if (!isAdmin(ctx.caller)) throw forbidden("only the administrator deletes a client; a client key may not delete its own account");
    await em.nativeDelete(ClientEntity, { id: row.id });
  });
  ctx.services.keys.forgetClient(clientId);
  forgetRequestReads(ctx);
}
