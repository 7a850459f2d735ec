import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { canReachClient, type Caller } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { isId } from '../../ids.ts';
import { ClientEntity, type ClientRow } from '../clients/client.entity.ts';
import { DomainEntity, type DomainRow } from './domain.entity.ts';

/** The path parameters that address a client and a domain of it. */
export type ClientScope = { clientId: string };
export type DomainScope = ClientScope & { domainId: string };

type Lookup = { em: EntityManager; caller: Caller; lock?: boolean };

/** The client, if it exists and the caller may reach it; otherwise "client not found". */
export async function requireClient({ em, caller, lock }: Lookup, clientId: string): Promise<ClientRow> {
  if (!isId(clientId) || !canReachClient(caller, clientId)) throw notFound(`client ${clientId}`);
  // By primary key: within one request a second lookup is served from the identity map.
  const client = await em.findOne(ClientEntity, clientId, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!client) throw notFound(`client ${clientId}`);
  return client;
}

/**
 * The domain, if it belongs to the client and the caller may reach it. With `lock`, the
 * domain's row is locked until the transaction ends, so writes within one domain queue up
 * instead of interleaving (bulk replace, default theme, asset replacement).
 */
export async function requireDomain({ em, caller, lock }: Lookup, scope: DomainScope): Promise<DomainRow> {
  if (!isId(scope.clientId) || !canReachClient(caller, scope.clientId)) throw notFound(`client ${scope.clientId}`);
  if (!isId(scope.domainId)) throw notFound(`domain ${scope.domainId}`);
  // By primary key, so that the many fields of one GraphQL query that each need the domain
  // cost one query between them (the identity map answers the others).
  const domain = await em.findOne(DomainEntity, scope.domainId, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (domain && domain.client.id === scope.clientId) return domain;
  const clientExists = (await em.count(ClientEntity, { id: scope.clientId })) > 0;
  throw notFound(clientExists ? `domain ${scope.domainId}` : `client ${scope.clientId}`);
}
