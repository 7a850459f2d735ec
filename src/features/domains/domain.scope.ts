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
  const client = await em.findOne(
    ClientEntity,
    { id: clientId },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
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
  const domain = await em.findOne(
    DomainEntity,
    { id: scope.domainId, client: scope.clientId },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (domain) return domain;
  const clientExists = (await em.count(ClientEntity, { id: scope.clientId })) > 0;
  throw notFound(clientExists ? `domain ${scope.domainId}` : `client ${scope.clientId}`);
}
