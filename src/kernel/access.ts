import type { EntityManager } from '@mikro-orm/postgresql';
import { canReachClient, type Caller, domainsReached, type RequestContext } from './context.ts';
import { notFound, type ServiceError } from './errors.ts';
import { isId } from './ids.ts';

/**
 * Access checks every resource needs: a client key reaches only its own client, and every object
 * below a domain is reached only through the domain and the client that own it. Whatever a caller
 * may not reach is "not found", exactly like an id that does not exist, and the 404 names what is
 * missing (the client, else the domain). The rules are here; where clients and domains are stored
 * is the clients and domains features' business, which give `clientChecks` and `domainChecks` their
 * lookups (features/clients/client.access.ts, features/domains/domain.access.ts).
 */

/** The path parameters that address a client and a domain of it. */
export type ClientScope = { clientId: string };
export type DomainScope = ClientScope & { domainId: string };

/** For the write paths: the unit of work to load into, and whether to lock the row for the transaction. */
export type Lookup = { em: EntityManager; caller: Caller; lock?: boolean };

/** What can be refused without a query: an id of the wrong form, a client the caller may not reach. */
function assertClientScope(caller: Caller, scope: ClientScope): void {
  if (!isId(scope.clientId) || !canReachClient(caller, scope.clientId)) throw notFound(`client ${scope.clientId}`);
}

export function assertDomainScope(caller: Caller, scope: DomainScope): void {
  assertClientScope(caller, scope);
  if (!isId(scope.domainId)) throw notFound(`domain ${scope.domainId}`);
}

/** Items of a parent, loaded from the parent with a left join, so they tell whether it exists and whose it is. */
export type Owned<T> = { ownerOf: string; items: T[] };

/** How clients are found (and locked): the clients feature's business. */
export type ClientLookups<Client> = {
  findClient(em: EntityManager, clientId: string, lock: boolean): Promise<Client | null>;
};

export function clientChecks<Client>(lookups: ClientLookups<Client>) {
  return {
    /** The client, if it exists and the caller may reach it (with `lock`: locked until the transaction ends). */
    async requireClient({ em, caller, lock }: Lookup, clientId: string): Promise<Client> {
      assertClientScope(caller, { clientId });
      const client = await lookups.findClient(em, clientId, lock ?? false);
      if (!client) throw notFound(`client ${clientId}`);
      return client;
    },
  };
}

/** How domains are found (and locked): the domains feature's business. */
export type DomainLookups<Domain, DomainRead> = {
  clientExists(em: EntityManager, clientId: string): Promise<boolean>;
  findDomain(em: EntityManager, domainId: string, lock: boolean): Promise<Domain | null>;
  /** The domain as read paths need it, batched and cached within the request. */
  readDomain(ctx: RequestContext, domainId: string): Promise<DomainRead | null>;
  /** Only whose the domain is: what most item operations need, without the domain's many settings. */
  ownerOfDomain(ctx: RequestContext, domainId: string): Promise<string | null>;
  clientIdOf(domain: Domain | DomainRead): string;
};

export function domainChecks<Domain, DomainRead>(lookups: DomainLookups<Domain, DomainRead>) {
  /** The 404 for a domain that is missing or not the client's, naming what is missing. */
  const missingDomain = async (em: EntityManager, scope: DomainScope): Promise<ServiceError> =>
    notFound((await lookups.clientExists(em, scope.clientId)) ? `domain ${scope.domainId}` : `client ${scope.clientId}`);

  return {
    /** The domain as the read paths need it, loaded once per request. */
    async readDomain(ctx: RequestContext, scope: DomainScope): Promise<DomainRead> {
      assertDomainScope(ctx.caller, scope);
      const domain = await lookups.readDomain(ctx, scope.domainId);
      if (domain && lookups.clientIdOf(domain) === scope.clientId) return domain;
      throw await missingDomain(ctx.em, scope);
    },

    /** The domain's id, once it is clear the domain exists and is the client's (one narrow query per request). */
    async reachDomain(ctx: RequestContext, scope: DomainScope): Promise<{ id: string }> {
      assertDomainScope(ctx.caller, scope);
      if ((await lookups.ownerOfDomain(ctx, scope.domainId)) === scope.clientId) {
        domainsReached(ctx).add(scope.domainId);
        return { id: scope.domainId };
      }
      throw await missingDomain(ctx.em, scope);
    },

    /** The items of a list read, once it is clear the domain is the client's. */
    async itemsOfDomain<T>(ctx: RequestContext, scope: DomainScope, owned: Owned<T> | null): Promise<T[]> {
      if (owned && owned.ownerOf === scope.clientId) return owned.items;
      throw await missingDomain(ctx.em, scope);
    },

    /**
     * The 404 for a write whose own statement found the domain missing or not the client's
     * (see features/domains/domain-write.ts), naming what is missing.
     */
    missingDomain: (ctx: RequestContext, scope: DomainScope): Promise<ServiceError> => missingDomain(ctx.em, scope),

    /**
     * The domain entity, for writes. With `lock`, its row is locked until the transaction ends,
     * so writes within one domain queue up instead of interleaving (bulk replace, default theme,
     * asset replacement).
     */
    async requireDomain({ em, caller, lock }: Lookup, scope: DomainScope): Promise<Domain> {
      assertDomainScope(caller, scope);
      const domain = await lookups.findDomain(em, scope.domainId, lock ?? false);
      if (domain && lookups.clientIdOf(domain) === scope.clientId) return domain;
      throw await missingDomain(em, scope);
    },
  };
}
