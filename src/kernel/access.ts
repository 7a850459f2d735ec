import type { EntityManager } from '@mikro-orm/postgresql';
import { canReachClient, type Caller, type RequestContext } from './context.ts';
import type { Owned } from '../db/read-model.ts';
import { lockById } from '../db/row-lock.ts';
import { notFound, type ServiceError } from './errors.ts';
import { isId } from './ids.ts';
import { ClientEntity, type ClientRow } from '../features/clients/client.entity.ts';
import { DomainEntity, type DomainRecord, type DomainRow } from '../features/domains/domain.entity.ts';

/** The path parameters that address a client and a domain of it. */
export type ClientScope = { clientId: string };
export type DomainScope = ClientScope & { domainId: string };

type Lookup = { em: EntityManager; caller: Caller; lock?: boolean };

/** The client, if it exists and the caller may reach it; otherwise "client not found". */
export async function requireClient({ em, caller, lock }: Lookup, clientId: string): Promise<ClientRow> {
  if (!isId(clientId) || !canReachClient(caller, clientId)) throw notFound(`client ${clientId}`);
  // By primary key: within one request a second lookup is served from the identity map.
  const client = lock ? await lockById(em, ClientEntity, clientId) : await em.findOne(ClientEntity, clientId);
  if (!client) throw notFound(`client ${clientId}`);
  return client;
}

/** What can be refused without a query: ids of the wrong form, a client the caller may not reach. */
export function assertDomainScope(caller: Caller, scope: DomainScope): void {
  if (!isId(scope.clientId) || !canReachClient(caller, scope.clientId)) throw notFound(`client ${scope.clientId}`);
  if (!isId(scope.domainId)) throw notFound(`domain ${scope.domainId}`);
}

/** The 404 for a domain that is missing or not the client's, naming what is missing. */
async function missingDomain(em: EntityManager, scope: DomainScope): Promise<ServiceError> {
  const clientExists = (await em.count(ClientEntity, { id: scope.clientId })) > 0;
  return notFound(clientExists ? `domain ${scope.domainId}` : `client ${scope.clientId}`);
}

/** The domain as the read paths need it: a plain record, loaded once per request. */
export async function readDomain(ctx: RequestContext, scope: DomainScope): Promise<DomainRecord> {
  assertDomainScope(ctx.caller, scope);
  const domain = await ctx.loaders.domain.load(scope.domainId);
  if (domain && domain.clientId === scope.clientId) return domain;
  throw await missingDomain(ctx.em, scope);
}

/** The items of a list read (see db/loaders.ts), once it is clear the domain is the client's. */
export async function itemsOfDomain<T>(ctx: RequestContext, scope: DomainScope, owned: Owned<T> | null): Promise<T[]> {
  if (owned && owned.ownerOf === scope.clientId) return owned.items;
  throw await missingDomain(ctx.em, scope);
}

/**
 * The domain entity, for writes: if it belongs to the client and the caller may reach it. With
 * `lock`, the domain's row is locked until the transaction ends, so writes within one domain
 * queue up instead of interleaving (bulk replace, default theme, asset replacement).
 */
export async function requireDomain({ em, caller, lock }: Lookup, scope: DomainScope): Promise<DomainRow> {
  assertDomainScope(caller, scope);
  // By primary key, so that the many fields of one GraphQL query that each need the domain
  // cost one query between them (the identity map answers the others).
  const domain = lock ? await lockById(em, DomainEntity, scope.domainId) : await em.findOne(DomainEntity, scope.domainId);
  if (domain && domain.client.id === scope.clientId) return domain;
  throw await missingDomain(em, scope);
}
